/* cache_test.c — see cache_test.h. */
#define _POSIX_C_SOURCE 200809L
#include "cache_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache/cache_view.h"

void ct_target_from_args(ht_target *t, int argc, char **argv, const char *usage)
{
    hive_backend backend = HIVE_BACKEND_CPU;
    if (argc < 2 || !ht_parse_backend(argv[1], &backend)) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        exit(HT_EXIT_FAIL);
    }
    ht_target_init(t, backend, HIVE_KV64);
}

int ct_oom_child_args(int argc, char **argv, const char *usage)
{
    int child = 0;
    for (int a = 2; a < argc; a++) {
        if (strcmp(argv[a], "--scale") == 0 && a + 1 < argc)
            a++;
        else if (strcmp(argv[a], "--oom-child") == 0)
            child = 1;
        else {
            fprintf(stderr, "usage: %s %s\n", argv[0], usage);
            exit(HT_EXIT_FAIL);
        }
    }
    return child;
}

hive_cache_config ct_config(const ht_target *t)
{
    hive_cache_config c = HIVE_CACHE_CONFIG_INIT;
    c.backend = t->backend;
    return c;
}

uint64_t ct_size(hive_cache *cache)
{
    uint64_t size = 0;
    HT_MUST(hive_cache_size(cache, &size));
    return size;
}

static double tier_fraction = -1.0;

int ct_tier_arg(int argc, char **argv, int *a)
{
    if (strcmp(argv[*a], "--hbm-fraction") != 0)
        return 0;
    char *end = NULL;
    double f = *a + 1 < argc ? strtod(argv[*a + 1], &end) : -1.0;
    if (end == NULL || *end != '\0' || !(f >= 0.0 && f <= 1.0)) {
        fprintf(stderr, "%s: --hbm-fraction takes a number in [0, 1]\n", argv[0]);
        exit(HT_EXIT_FAIL);
    }
    tier_fraction = f;
    *a += 1;
    return 1;
}

double ct_tier_fraction(void) { return tier_fraction; }

/* The slots a config's capacity resolves to (whole buckets, cache_config.c). */
static uint64_t config_slots(const hive_cache_config *c)
{
    uint64_t per = c->bucket_slots ? c->bucket_slots : c->dual_bucket ? 32 : 16;
    return (c->capacity + per - 1) / per * per;
}

/* The config with the --hbm-fraction budget: that many whole values, plus
 * all but one byte of another, which must be rounded away; *hbm_slots is
 * what the cache must then report. */
static hive_cache_config tiered(const hive_cache_config *config, uint64_t *hbm_slots)
{
    hive_cache_config c = *config;
    uint64_t vb = ct_elem_bytes(c.value_type) * c.dim, slots = config_slots(&c);
    *hbm_slots = (uint64_t)(tier_fraction * (double)slots);
    if (*hbm_slots > slots)
        *hbm_slots = slots;
    c.value_hbm_bytes = *hbm_slots * vb + (vb - 1);
    return c;
}

hive_cache *ct_open(const ht_target *t, const hive_cache_config *config)
{
    hive_cache *cache = NULL;
    hive_cache_config c = *config;
    uint64_t hbm_slots = 0;
    int tier = tier_fraction >= 0.0 && config->value_hbm_bytes == HIVE_CACHE_HBM_UNLIMITED;
    if (tier)
        c = tiered(config, &hbm_slots);
    if (c.hash_seed == HIVE_HASH_SEED_RANDOM) /* reproducible, and what ct_aimed_key aims with */
        c.hash_seed = ht_test_hash_seed();
    hive_status s = hive_cache_create(&c, &cache);
    if (s == HIVE_SUCCESS) {
        if (cache == NULL)
            ht_fatal("hive_cache_create returned success and a NULL cache");
        if (tier) {
            hive_cache_config got = HIVE_CACHE_CONFIG_INIT;
            HT_MUST(hive_cache_get_config(cache, &got));
            HT_CHECK_EQ(got.value_hbm_bytes, hbm_slots * ct_elem_bytes(c.value_type) * c.dim,
                        "value_hbm_bytes reported for a budget of %llu bytes (%llu slots)",
                        (unsigned long long)c.value_hbm_bytes, (unsigned long long)config_slots(&c));
        }
        return cache;
    }
    ht_skip_without_gpu(t, s, "cache");
    ht_fatal("hive_cache_create (%s, capacity %llu, dim %u, slots %u, dual %u) returned %s: %s [%s]",
             t->backend_name, (unsigned long long)config->capacity, config->dim,
             config->bucket_slots, config->dual_bucket, hive_status_string(s), hive_last_error(),
             ht_context_text());
}

void ct_close(hive_cache *cache) { HT_CHECK_STATUS(hive_cache_destroy(cache), HIVE_SUCCESS, "%s", "hive_cache_destroy"); }

void ct_require_backend(const ht_target *t)
{
    hive_cache_config c = ct_config(t);
    c.capacity = 1024;
    ct_close(ct_open(t, &c));
}

size_t ct_elem_bytes(hive_value_type type)
{
    switch (type) {
    case HIVE_VALUE_F32:
    case HIVE_VALUE_I32:
        return 4;
    case HIVE_VALUE_F64:
    case HIVE_VALUE_I64:
        return 8;
    case HIVE_VALUE_BYTES:
        return 1;
    default:
        return 0;
    }
}

void ct_bufs_init(ct_bufs *b, const ht_target *t, size_t cap, size_t vb)
{
    memset(b, 0, sizeof *b);
    b->t = t;
    b->cap = cap;
    b->vb = vb;
    b->keys = ht_alloc(t, cap * 8);
    b->scores = ht_alloc(t, cap * 8);
    b->ev_keys = ht_alloc(t, cap * 8);
    b->ev_scores = ht_alloc(t, cap * 8);
    b->missed_keys = ht_alloc(t, cap * 8);
    b->missed_idx = ht_alloc(t, cap * 8);
    b->values = ht_alloc(t, cap * vb);
    b->ev_values = ht_alloc(t, cap * vb);
    b->values_out = ht_alloc(t, cap * vb);
    b->results = ht_alloc(t, cap);
    b->found = ht_alloc(t, cap);
    b->flags = ht_alloc(t, cap);
}

void ct_bufs_free(ct_bufs *b)
{
    const ht_target *t = b->t;
    void *all[] = {b->keys,   b->scores,    b->ev_keys,    b->ev_scores, b->missed_keys, b->missed_idx,
                   b->values, b->ev_values, b->values_out, b->results,   b->found,       b->flags};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        ht_free(t, all[i]);
    memset(b, 0, sizeof *b);
}

void ct_snapshot(const ht_target *t, hive_cache *cache, ct_snap *s)
{
    hive_cache_config c = HIVE_CACHE_CONFIG_INIT;
    uint64_t cap = 0, size = 0, count = 0;
    HT_MUST(hive_cache_get_config(cache, &c));
    HT_MUST(hive_cache_capacity(cache, &cap));
    HT_MUST(hive_cache_size(cache, &size));
    size_t vb = ct_elem_bytes(c.value_type) * c.dim;
    uint64_t *k = ht_alloc(t, cap * 8), *sc = ht_alloc(t, cap * 8);
    uint8_t *v = ht_alloc(t, cap * vb);
    HT_CHECK_STATUS(hive_cache_export(cache, 0, cap, NULL, k, v, sc, &count, NULL), HIVE_SUCCESS,
                    "%s", "export of the whole table");
    HT_CHECK_EQ(count, size, "%s", "export count == hive_cache_size");
    if (count > cap)
        count = cap;
    memset(s, 0, sizeof *s);
    s->n = count;
    s->vb = vb;
    s->keys = malloc(count * 8 + 8);
    s->scores = malloc(count * 8 + 8);
    s->values = malloc(count * vb + 8);
    if (!s->keys || !s->scores || !s->values)
        ht_fatal("out of host memory for a snapshot");
    memcpy(s->keys, k, count * 8);
    memcpy(s->scores, sc, count * 8);
    memcpy(s->values, v, count * vb);
    ht_free(t, k);
    ht_free(t, sc);
    ht_free(t, v);
    ht_ref_init(&s->index);
    for (uint64_t i = 0; i < count; i++) {
        if (ht_ref_get(&s->index, s->keys[i], NULL))
            s->duplicates++;
        else
            ht_ref_put(&s->index, s->keys[i], i);
    }
    HT_CHECK_EQ(s->duplicates, 0, "%s", "keys exported twice");
}

void ct_snap_free(ct_snap *s)
{
    free(s->keys);
    free(s->scores);
    free(s->values);
    ht_ref_free(&s->index);
    memset(s, 0, sizeof *s);
}

long long ct_snap_find(const ct_snap *s, uint64_t key)
{
    uint64_t i;
    return ht_ref_get(&s->index, key, &i) ? (long long)i : -1;
}

static uint64_t mix(uint64_t x)
{
    return ht_splitmix64(&x);
}

void ct_value_make(void *dst, hive_value_type type, uint32_t dim, uint64_t key, uint64_t tag)
{
    uint64_t h = mix(key * 0x9E3779B97F4A7C15ull ^ (tag + 0x1234567ull));
    for (uint32_t j = 0; j < dim; j++) {
        uint64_t e = h + j * 0x100000001ull;
        switch (type) {
        case HIVE_VALUE_F32:
            ((float *)dst)[j] = (float)(e & 0xFFFFFF); /* exact in a float */
            break;
        case HIVE_VALUE_F64:
            ((double *)dst)[j] = (double)(e & 0xFFFFFFFFFFFFull);
            break;
        case HIVE_VALUE_I32:
            ((uint32_t *)dst)[j] = (uint32_t)e;
            break;
        case HIVE_VALUE_I64:
            ((uint64_t *)dst)[j] = e;
            break;
        default:
            ((uint8_t *)dst)[j] = (uint8_t)(e ^ (e >> 8));
            break;
        }
    }
}

int ct_value_check(const void *src, hive_value_type type, uint32_t dim, uint64_t key, uint64_t tag)
{
    uint8_t want[1024];
    size_t bytes = ct_elem_bytes(type) * dim;
    if (bytes > sizeof want)
        ht_fatal("ct_value_check: value of %zu bytes", bytes);
    ct_value_make(want, type, dim, key, tag);
    return memcmp(want, src, bytes) == 0;
}

uint64_t ct_aimed_key(ht_rng *rng, uint64_t seed, uint64_t buckets, uint32_t dual, uint64_t bucket, int b2_also,
                      uint64_t bucket2, ht_ref *taken)
{
    for (uint64_t tries = 0; tries < (1ull << 32); tries++) {
        uint64_t k = ht_rng_next(rng) >> 1; /* never reserved */
        hive_cache_place p = hive_cache_place_of(k, buckets, dual, seed);
        if (p.b1 != bucket || (b2_also && dual && p.b2 != bucket2))
            continue;
        if (taken != NULL) {
            if (ht_ref_get(taken, k, NULL))
                continue;
            ht_ref_put(taken, k, 0);
        }
        return k;
    }
    ht_fatal("no key found for bucket %llu of %llu", (unsigned long long)bucket,
             (unsigned long long)buckets);
}

uint64_t ct_realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const char *ct_policy_name(hive_score_policy p)
{
    switch (p) {
    case HIVE_SCORE_LRU:
        return "LRU";
    case HIVE_SCORE_LFU:
        return "LFU";
    case HIVE_SCORE_EPOCH_LRU:
        return "EPOCH_LRU";
    case HIVE_SCORE_EPOCH_LFU:
        return "EPOCH_LFU";
    case HIVE_SCORE_CUSTOM:
        return "CUSTOM";
    default:
        return "?";
    }
}

const char *ct_result_name(unsigned r)
{
    switch (r) {
    case HIVE_RESULT_EVICTED:
        return "EVICTED";
    case HIVE_RESULT_REFUSED:
        return "REFUSED";
    default:
        return ht_result_name(r);
    }
}
