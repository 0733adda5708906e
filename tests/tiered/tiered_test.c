/* tiered_test.c — see tiered_test.h. */
#include "tiered_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POISON 0xA5A5A5A5A5A5A5A5ull

/* 0: host (malloc), else the ht_memory + 1 of the test memory. */
static int array_memory(void)
{
    const char *v = getenv("HIVE_TIERED_TEST_MEMORY");
    if (v == NULL || v[0] == '\0' || strcmp(v, "host") == 0)
        return 0;
    if (strcmp(v, "mapped") == 0)
        return 1 + HT_MEMORY_MAPPED;
    if (strcmp(v, "managed") == 0)
        return 1 + HT_MEMORY_MANAGED;
    ht_fatal("HIVE_TIERED_TEST_MEMORY=%s: expected host, mapped or managed", v);
}

const char *tt_memory_name(void)
{
    static const char *const names[] = {"host", "managed", "mapped"};
    return names[array_memory()];
}

void *tt_array(const ht_target *t, size_t bytes)
{
    int m = array_memory();
    if (m == 0) {
        void *p = malloc(bytes ? bytes : 1);
        if (p == NULL)
            ht_fatal("cannot allocate %zu bytes of host memory", bytes);
        return p;
    }
    ht_target mt = *t;
    mt.memory = (ht_memory)(m - 1);
    return ht_alloc(&mt, bytes);
}

void tt_array_free(const ht_target *t, void *p)
{
    int m = array_memory();
    if (m == 0) {
        free(p);
        return;
    }
    ht_target mt = *t;
    mt.memory = (ht_memory)(m - 1);
    ht_free(&mt, p);
}

hive_tiered_config tt_config(const ht_target *t)
{
    hive_tiered_config c = HIVE_TIERED_CONFIG_INIT;
    c.hot_backend = t->backend;
    c.threads = 2;
    c.hash_seed = TT_HOT_SEED; /* the seed the crowded tests aim keys with */
    const char *back = getenv("HIVE_TEST_TIERED_WRITE_BACK");
    c.write_back = back != NULL && back[0] == '1';
    return c;
}

hive_tiered *tt_open(const ht_target *t, const hive_tiered_config *config)
{
    hive_tiered *tiered = NULL;
    hive_status s = hive_tiered_create(config, &tiered);
    if (s == HIVE_SUCCESS) {
        if (tiered == NULL)
            ht_fatal("hive_tiered_create returned success and a NULL handle");
        return tiered;
    }
    ht_skip_without_gpu(t, s, "hot tier");
    ht_fatal("hive_tiered_create (%s, hot %llu, cold %llu, batch %u) returned %s: %s [%s]",
             t->backend_name, (unsigned long long)config->hot_capacity,
             (unsigned long long)config->cold_capacity, config->batch, hive_status_string(s),
             hive_last_error(), ht_context_text());
}

void tt_close(hive_tiered *tiered)
{
    HT_CHECK_STATUS(hive_tiered_destroy(tiered), HIVE_SUCCESS, "%s", "hive_tiered_destroy");
}

hive_tiered_stats tt_stats(hive_tiered *tiered)
{
    hive_tiered_stats s;
    HT_MUST(hive_tiered_stats_get(tiered, &s));
    return s;
}

void tt_check_sizes(hive_tiered *tiered, const ht_ref *oracle)
{
    uint64_t size = 0;
    HT_CHECK_STATUS(hive_tiered_size(tiered, &size), HIVE_SUCCESS, "%s", "hive_tiered_size");
    HT_CHECK_EQ(size, ht_ref_size(oracle), "%s", "size against the oracle");
    hive_tiered_stats s = tt_stats(tiered);
    HT_CHECK_EQ(s.cold_size, size, "cold %llu: every key is cold", (unsigned long long)s.cold_size);
    HT_CHECK(s.hot_size <= size, "hot %llu of %llu keys: a hot copy without its key?",
             (unsigned long long)s.hot_size, (unsigned long long)size);
    HT_CHECK(s.hot_size <= s.hot_capacity, "hot size %llu over its capacity %llu",
             (unsigned long long)s.hot_size, (unsigned long long)s.hot_capacity);
}

uint64_t tt_check_all(hive_tiered *tiered, const ht_ref *oracle, const uint64_t *keys, uint64_t n,
                      uint64_t batch)
{
    uint64_t before = ht_failure_count(), ok = 0;
    uint64_t *values = malloc(batch * sizeof *values);
    uint8_t *found = malloc(batch);
    for (uint64_t at = 0; at < n; at += batch) {
        uint64_t m = n - at < batch ? n - at : batch;
        for (uint64_t i = 0; i < m; i++)
            values[i] = POISON;
        memset(found, 2, m);
        HT_CHECK_STATUS(hive_tiered_find(tiered, m, keys + at, values, found, NULL), HIVE_SUCCESS,
                        "find of %llu keys at %llu", (unsigned long long)m, (unsigned long long)at);
        for (uint64_t i = 0; i < m; i++) {
            uint64_t want = 0;
            int present = ht_ref_get(oracle, keys[at + i], &want);
            if (found[i] == present && values[i] == (present ? want : POISON)) {
                ok++;
                continue;
            }
            HT_CHECK(0, "key %llx: found %u value %llx, the oracle: %s %llx",
                     (unsigned long long)keys[at + i], found[i], (unsigned long long)values[i],
                     present ? "present" : "absent", (unsigned long long)want);
        }
    }
    ht_pass_(ok);
    free(values);
    free(found);
    tt_check_sizes(tiered, oracle);
    return ht_failure_count() - before;
}

void tt_stream_init(tt_stream *z, uint64_t universe, double s)
{
    z->universe = universe;
    z->cdf = NULL;
    if (s == 0)
        return;
    z->cdf = malloc(universe * sizeof *z->cdf);
    double sum = 0;
    for (uint64_t k = 0; k < universe; k++)
        z->cdf[k] = (sum += pow((double)(k + 1), -s));
    for (uint64_t k = 0; k < universe; k++)
        z->cdf[k] /= sum;
}

void tt_stream_free(tt_stream *z)
{
    free(z->cdf);
    z->cdf = NULL;
}

uint64_t tt_stream_next(const tt_stream *z, ht_rng *rng)
{
    if (z->cdf == NULL)
        return ht_rng_below(rng, z->universe);
    double u = (double)(ht_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
    uint64_t lo = 0, hi = z->universe - 1;
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        if (z->cdf[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
