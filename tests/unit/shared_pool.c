/* shared_pool.c — CPU tables and caches share their worker threads.  Every
 * table of the process that asks for the same thread count takes the same
 * pool (src/cpu/cpu_pool.c): a hundred tables of 4 threads start 3 workers,
 * not 300, and the last one destroyed stops them.  Threads are counted in
 * /proc/self/task.  Tables that share a pool and are used from several host
 * threads at once must still give every key its value: the caller whose
 * task does not get the workers runs it alone. */
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>

#include "hivetest.h"

#define TABLES 60
#define KEYS 20000u

static unsigned threads_now(void)
{
    DIR *d = opendir("/proc/self/task");
    if (d == NULL)
        return 0;
    unsigned n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static hive_table *cpu_table(uint32_t threads)
{
    hive_config c = HIVE_CONFIG_INIT;
    c.backend = HIVE_BACKEND_CPU;
    c.threads = threads;
    c.initial_capacity = 2 * KEYS;
    hive_table *t = NULL;
    HT_CHECK_STATUS(hive_create(&c, &t), HIVE_SUCCESS, "hive_create with %u threads", threads);
    return t;
}

static hive_cache *cpu_cache(uint32_t threads)
{
    hive_cache_config c = HIVE_CACHE_CONFIG_INIT;
    c.backend = HIVE_BACKEND_CPU;
    c.threads = threads;
    c.capacity = 1024;
    hive_cache *cache = NULL;
    HT_CHECK_STATUS(hive_cache_create(&c, &cache), HIVE_SUCCESS, "hive_cache_create with %u threads", threads);
    return cache;
}

/* Inserts KEYS keys into the table (each key's value depends on the table)
 * and finds them all back. */
static void *fill_and_check(void *arg)
{
    hive_table *t = arg;
    uint32_t salt = (uint32_t)((uintptr_t)t >> 4);
    uint32_t *keys = malloc(KEYS * sizeof *keys), *values = malloc(KEYS * sizeof *values);
    uint32_t *found_values = malloc(KEYS * sizeof *found_values);
    uint8_t *found = malloc(KEYS);
    HT_CHECK(keys && values && found_values && found, "host memory for %u keys", KEYS);
    for (uint32_t i = 0; i < KEYS; i++) {
        keys[i] = i * 2654435761u % 0xFFFFFFF0u + 1;
        values[i] = keys[i] ^ salt;
    }
    HT_CHECK_STATUS(hive_insert(t, KEYS, keys, values, HIVE_COMBINE_ASSIGN, NULL, NULL), HIVE_SUCCESS, "insert");
    HT_CHECK_STATUS(hive_find(t, KEYS, keys, found_values, found, NULL), HIVE_SUCCESS, "find");
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < KEYS; i++)
        wrong += !found[i] || found_values[i] != values[i];
    HT_CHECK_EQ(wrong, 0u, "keys lost or with another table's value");
    free(keys);
    free(values);
    free(found_values);
    free(found);
    return NULL;
}

int main(void)
{
    ht_begin("shared_pool cpu");
    /* A first table started and stopped, so that threads a runtime starts
     * with the process's first thread (ThreadSanitizer's) are in the base. */
    hive_destroy(cpu_table(2));
    unsigned base = threads_now();
    HT_CHECK(base >= 1, "threads counted in /proc/self/task");

    ht_context("%d tables and %d caches of 4 threads", TABLES, TABLES);
    hive_table *tables[TABLES];
    hive_cache *caches[TABLES];
    for (int i = 0; i < TABLES; i++) {
        tables[i] = cpu_table(4);
        caches[i] = cpu_cache(4);
    }
    HT_CHECK_EQ(threads_now(), base + 3, "threads while they are held (one pool of 3 workers)");

    ht_context("a table of 2 threads beside them");
    hive_table *pair = cpu_table(2);
    HT_CHECK_EQ(threads_now(), base + 4, "threads with a second pool (1 worker)");
    hive_destroy(pair);
    HT_CHECK_EQ(threads_now(), base + 3, "threads once the 2-thread table is gone");

    ht_context("4 host threads, each on its own table, sharing the pool");
    pthread_t users[4];
    for (int i = 0; i < 4; i++)
        HT_CHECK_EQ(pthread_create(&users[i], NULL, fill_and_check, tables[i]), 0, "pthread_create");
    for (int i = 0; i < 4; i++)
        pthread_join(users[i], NULL);

    ht_context("destroying them");
    for (int i = 0; i < TABLES; i++) {
        hive_destroy(tables[i]);
        hive_cache_destroy(caches[i]);
        if (i == TABLES / 2)
            HT_CHECK_EQ(threads_now(), base + 3, "threads while half the tables remain");
    }
    HT_CHECK_EQ(threads_now(), base, "threads once every table is gone");
    return ht_finish();
}
