/* main.c — the smallest real user of an installed hive: a CPU table that
 * grows under an insert, a find, an erase, checked; then a CUDA table, which
 * a machine without a GPU (or a build without the CUDA backend) refuses with
 * a status that says so.  Exits 0 on success. */
#include <hive.h>
#include <stdint.h>
#include <stdio.h>

#define N 1000

static int fail(const char *what, hive_status s)
{
    fprintf(stderr, "hive consumer: %s: %s (%s)\n", what, hive_status_string(s), hive_last_error());
    return 1;
}

int main(void)
{
    hive_config config = HIVE_CONFIG_INIT;
    config.backend = HIVE_BACKEND_CPU;
    config.initial_capacity = N / 4; /* so that the insert grows the table */
    hive_table *table = NULL;
    hive_status s = hive_create(&config, &table);
    if (s != HIVE_SUCCESS)
        return fail("hive_create", s);

    static uint32_t keys[N], values[N], out[N];
    static uint8_t found[N], results[N];
    for (uint32_t i = 0; i < N; i++) {
        keys[i] = i * 7u + 1u;
        values[i] = i + 1;
    }
    if ((s = hive_insert(table, N, keys, values, HIVE_COMBINE_ASSIGN, results, NULL)) != HIVE_SUCCESS)
        return fail("hive_insert", s);
    if ((s = hive_find(table, N, keys, out, found, NULL)) != HIVE_SUCCESS)
        return fail("hive_find", s);
    for (uint32_t i = 0; i < N; i++)
        if (results[i] != HIVE_RESULT_INSERTED || !found[i] || out[i] != i + 1) {
            fprintf(stderr, "hive consumer: key %u: result %u, found %u, value %u (expected %u)\n",
                    keys[i], results[i], found[i], out[i], i + 1);
            return 1;
        }
    if ((s = hive_erase(table, N, keys, NULL, NULL)) != HIVE_SUCCESS)
        return fail("hive_erase", s);
    uint64_t size = 1;
    if ((s = hive_size(table, &size)) != HIVE_SUCCESS || size != 0)
        return fail("hive_size after erasing everything", s);
    hive_stats stats;
    if ((s = hive_stats_get(table, &stats)) != HIVE_SUCCESS || stats.grows == 0)
        return fail("hive_stats_get: the table should have grown", s);
    if ((s = hive_destroy(table)) != HIVE_SUCCESS)
        return fail("hive_destroy", s);

    /* The CUDA runtime inside hive starts up in this program either way. */
    config.backend = HIVE_BACKEND_CUDA;
    const char *cuda = "a CUDA table works";
    s = hive_create(&config, &table);
    if (s == HIVE_SUCCESS) {
        if ((s = hive_destroy(table)) != HIVE_SUCCESS)
            return fail("hive_destroy (CUDA)", s);
    } else if (s == HIVE_ERROR_NO_DEVICE || s == HIVE_ERROR_UNSUPPORTED) {
        cuda = hive_last_error();
    } else {
        return fail("hive_create (CUDA)", s);
    }
    printf("hive consumer: hive %d.%d.%d works (%d keys, %llu grows); %s\n", HIVE_VERSION_MAJOR,
           HIVE_VERSION_MINOR, HIVE_VERSION_PATCH, N, (unsigned long long)stats.grows, cuda);
    return 0;
}
