/* bad_input.c — every way a caller can get the cache wrong, on one backend:
 *
 *   hive-cache-bad_input <cpu|cuda> [--scale F]
 *
 * NULL handle (every call: INVALID_ARGUMENT naming the cache) and a zeroed
 * fake handle (the magic check; a real destroyed handle would be a use after
 * free, as for the dictionary); NULL output pointers and NULL arrays where a
 * call needs them (n > 0: INVALID_ARGUMENT naming the array, nothing done;
 * n = 0: a no-op success); n beyond 2^40; every bad config field
 * (struct_size, version, backend, device, capacity 0 and beyond 2^32
 * buckets, dim 0, value_type, policy, bucket_slots 4/48/256, dual_bucket 2:
 * INVALID_ARGUMENT naming the field, *cache left alone); scores given to
 * LRU / EPOCH_LRU and missing for LFU / EPOCH_LFU / CUSTOM (INVALID_ARGUMENT,
 * nothing done); reserved keys in every keyed call (HIVE_ERROR_RESERVED_KEY,
 * REJECTED_RESERVED where the call has results, found 0, the other keys
 * processed); accum_or_assign on BYTES values (UNSUPPORTED, nothing done);
 * export ranges past the capacity; misaligned key and value arrays; a CUDA
 * cache given pageable host memory; a cache too big to allocate
 * (OUT_OF_MEMORY); and out of memory injected (HIVE_TEST_FAIL_ALLOC=N, the
 * program running itself once per N): create and save fail with
 * OUT_OF_MEMORY, a failed create leaves *cache alone, a failed save leaves
 * the cache as it was, and the sanitizer builds see no leak. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache_test.h"
#include "child.h"

#if defined(__SANITIZE_ADDRESS__)
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
#endif
#if defined(__SANITIZE_THREAD__)
const char *__tsan_default_options(void) { return "allocator_may_return_null=1"; }
#endif

static ht_target T;
static const hive_status INV = HIVE_ERROR_INVALID_ARGUMENT;

#define EXPECT_ERROR_NAMES(what, why)                                                     \
    HT_CHECK(strstr(hive_last_error(), (what)) != NULL,                                     \
             "hive_last_error() \"%s\" should name \"%s\" (%s)", hive_last_error(), (what), \
             (why))

static hive_cache *open_small(hive_score_policy policy, hive_value_type vt, uint32_t dim)
{
    hive_cache_config c = ct_config(&T);
    c.capacity = 1024;
    c.policy = policy;
    c.value_type = vt;
    c.dim = dim;
    c.threads = 2;
    return ct_open(&T, &c);
}

/* ---------------------------------------------------------------- handles */

static size_t write_nothing(void *ctx, const void *p, size_t n)
{
    (void)ctx, (void)p;
    return n;
}

static size_t read_nothing(void *ctx, void *p, size_t n)
{
    (void)ctx, (void)p, (void)n;
    return 0;
}

static void every_call_rejects(hive_cache *c, const char *what, ct_bufs *b)
{
    ht_context("every call on a %s cache", what);
    uint64_t count = 0, size = 0;
    double lf = 0;
    hive_cache_config cfg = HIVE_CACHE_CONFIG_INIT;
    hive_cache_filter f = {0, 0, 0, UINT64_MAX};
    HT_CHECK_STATUS(hive_cache_insert_or_assign(c, 1, b->keys, b->values, NULL, b->results, NULL), INV, "%s", "upsert");
    EXPECT_ERROR_NAMES("cache", what);
    HT_CHECK_STATUS(hive_cache_insert_and_evict(c, 1, b->keys, b->values, NULL, b->ev_keys, b->ev_values, NULL,
                                                &count, NULL),
                    INV, "%s", "insert_and_evict");
    HT_CHECK_STATUS(hive_cache_find(c, 1, b->keys, b->values_out, b->found, NULL, NULL), INV, "%s", "find");
    HT_CHECK_STATUS(hive_cache_find_missed(c, 1, b->keys, b->values_out, NULL, b->missed_keys, b->missed_idx, &count,
                                           NULL),
                    INV, "%s", "find_missed");
    HT_CHECK_STATUS(hive_cache_contains(c, 1, b->keys, b->found, NULL), INV, "%s", "contains");
    HT_CHECK_STATUS(hive_cache_find_or_insert(c, 1, b->keys, b->values, NULL, b->found, NULL), INV, "%s",
                    "find_or_insert");
    HT_CHECK_STATUS(hive_cache_assign(c, 1, b->keys, b->values, NULL, b->found, NULL), INV, "%s", "assign");
    HT_CHECK_STATUS(hive_cache_assign_values(c, 1, b->keys, b->values, b->found, NULL), INV, "%s", "assign_values");
    HT_CHECK_STATUS(hive_cache_assign_scores(c, 1, b->keys, b->scores, b->found, NULL), INV, "%s", "assign_scores");
    HT_CHECK_STATUS(hive_cache_accum_or_assign(c, 1, b->keys, b->values, b->flags, NULL, b->results, NULL), INV, "%s",
                    "accum");
    HT_CHECK_STATUS(hive_cache_erase(c, 1, b->keys, b->results, NULL), INV, "%s", "erase");
    HT_CHECK_STATUS(hive_cache_erase_if(c, &f, &count, NULL), INV, "%s", "erase_if");
    HT_CHECK_STATUS(hive_cache_clear(c, NULL), INV, "%s", "clear");
    HT_CHECK_STATUS(hive_cache_export(c, 0, 1, NULL, b->keys, NULL, NULL, &count, NULL), INV, "%s", "export");
    HT_CHECK_STATUS(hive_cache_size(c, &size), INV, "%s", "size");
    HT_CHECK_STATUS(hive_cache_capacity(c, &size), INV, "%s", "capacity");
    HT_CHECK_STATUS(hive_cache_load_factor(c, &lf), INV, "%s", "load_factor");
    HT_CHECK_STATUS(hive_cache_set_epoch(c, 1), INV, "%s", "set_epoch");
    HT_CHECK_STATUS(hive_cache_get_config(c, &cfg), INV, "%s", "get_config");
    HT_CHECK_STATUS(hive_cache_save(c, write_nothing, NULL, &count), INV, "%s", "save");
    HT_CHECK_STATUS(hive_cache_load(c, read_nothing, NULL, &count), INV, "%s", "load");
    HT_CHECK_STATUS(hive_cache_save_fd(c, 1, &count), INV, "%s", "save_fd");
    HT_CHECK_STATUS(hive_cache_load_fd(c, 0, &count), INV, "%s", "load_fd");
    HT_CHECK_STATUS(hive_cache_destroy(c), INV, "%s", "destroy");
    EXPECT_ERROR_NAMES("cache", what);
}

static void bad_handles(ct_bufs *b)
{
    every_call_rejects(NULL, "NULL", b);
    void *fake = calloc(1, 4096);
    every_call_rejects((hive_cache *)fake, "zeroed fake", b);
    free(fake);
}

/* ---------------------------------------------------------------- configs */

static void expect_bad_config(const hive_cache_config *c, const char *field, const char *why)
{
    hive_cache *sentinel = (hive_cache *)(uintptr_t)0x1234, *cache = sentinel;
    HT_CHECK_STATUS(hive_cache_create(c, &cache), INV, "config with %s", why);
    EXPECT_ERROR_NAMES(field, why);
    HT_CHECK(cache == sentinel, "a failed hive_cache_create wrote *cache (%s)", why);
    if (cache != sentinel && cache != NULL)
        hive_cache_destroy(cache);
}

static void bad_configs(void)
{
    ht_context("bad configs");
    hive_cache_config base = ct_config(&T), c;
    base.capacity = 1024;
    hive_cache *out = NULL;
    HT_CHECK_STATUS(hive_cache_create(NULL, &out), INV, "%s", "NULL config");
    HT_CHECK_STATUS(hive_cache_create(&base, NULL), INV, "%s", "NULL output");
#define BAD(field, value, name)           \
    do {                                  \
        c = base;                         \
        c.field = value;                  \
        expect_bad_config(&c, name, #field " = " #value); \
    } while (0)
    BAD(struct_size, 8, "struct_size");
    BAD(struct_size, 40, "struct_size"); /* under version 1's 48 bytes */
    BAD(struct_size, sizeof(hive_cache_config) + 8, "struct_size");
    BAD(version, 0, "version");
    BAD(version, HIVE_CACHE_CONFIG_VERSION + 1, "version");
    BAD(backend, (hive_backend)7, "backend");
    BAD(device, -1, "device");
    BAD(capacity, 0, "capacity");
    BAD(capacity, (1ull << 32) * 128 + 1, "capacity");
    BAD(capacity, UINT64_MAX, "capacity");
    BAD(dim, 0, "dim");
    BAD(value_type, (hive_value_type)5, "value_type");
    BAD(value_type, (hive_value_type)-1, "value_type");
    BAD(policy, (hive_score_policy)5, "policy");
    BAD(bucket_slots, 4, "bucket_slots");
    BAD(bucket_slots, 48, "bucket_slots");
    BAD(bucket_slots, 256, "bucket_slots");
    BAD(dual_bucket, 2, "dual_bucket");
#undef BAD
    /* Good ones: capacity rounds up to whole buckets; 0 slots means 32. */
    c = base;
    c.capacity = 1000;
    c.bucket_slots = 64;
    hive_cache *cache = ct_open(&T, &c);
    hive_cache_config got = HIVE_CACHE_CONFIG_INIT;
    uint64_t cap = 0;
    HT_MUST(hive_cache_get_config(cache, &got));
    HT_MUST(hive_cache_capacity(cache, &cap));
    HT_CHECK_EQ(cap, 1024, "capacity 1000 in 64-slot buckets");
    HT_CHECK_EQ(got.capacity, cap, "get_config's capacity is the rounded one");
    HT_CHECK_EQ(got.bucket_slots, 64, "bucket_slots");
    HT_CHECK_EQ(got.backend, T.backend, "resolved backend");
    HT_CHECK_STATUS(hive_cache_get_config(cache, NULL), INV, "%s", "get_config(NULL)");
    HT_CHECK_STATUS(hive_cache_size(cache, NULL), INV, "%s", "size(NULL)");
    HT_CHECK_STATUS(hive_cache_capacity(cache, NULL), INV, "%s", "capacity(NULL)");
    HT_CHECK_STATUS(hive_cache_load_factor(cache, NULL), INV, "%s", "load_factor(NULL)");
    ct_close(cache);
    c = base;
    c.bucket_slots = 0;
    cache = ct_open(&T, &c);
    HT_MUST(hive_cache_get_config(cache, &got));
    HT_CHECK_EQ(got.bucket_slots, 16, "bucket_slots 0 resolves to 16");
    ct_close(cache);
    c.dual_bucket = 1;
    cache = ct_open(&T, &c);
    HT_MUST(hive_cache_get_config(cache, &got));
    HT_CHECK_EQ(got.bucket_slots, 32, "bucket_slots 0 resolves to 32 with dual buckets");
    ct_close(cache);
    /* Too big to allocate: OUT_OF_MEMORY, *cache alone. */
    c = base;
    c.capacity = 1ull << 36;
    c.dim = 4096;
    c.value_type = HIVE_VALUE_F64;
    hive_cache *sentinel = (hive_cache *)(uintptr_t)0x1234;
    cache = sentinel;
    hive_status s = hive_cache_create(&c, &cache);
    if (s == INV) /* a value bound of the library's: say which */
        printf("  note: 2^36 x 32 KiB values rejected as an argument: %s\n", hive_last_error());
    else
        HT_CHECK_STATUS(s, HIVE_ERROR_OUT_OF_MEMORY, "%s", "a 2 PiB cache");
    HT_CHECK(cache == sentinel, "%s", "a failed create wrote *cache");
}

/* ---------------------------------------------------------------- value budgets */

/* A cache of `budget` value bytes in device memory: what get_config reports
 * (whole values, at most all), and every value read back right from both
 * parts of a table run full (a first check; the differential, eviction and
 * save_load programs cover every call under --hbm-fraction). */
static void one_budget(uint64_t budget, uint64_t want, const char *why)
{
    ct_bufs b;
    const uint32_t dim = 3; /* 12-byte values: a budget in bytes rarely whole */
    const uint64_t n = 2048;
    ct_bufs_init(&b, &T, n, dim * 4);
    hive_cache_config c = ct_config(&T);
    c.capacity = 1024;
    c.dim = dim;
    c.value_type = HIVE_VALUE_I32;
    c.policy = HIVE_SCORE_CUSTOM;
    c.value_hbm_bytes = budget;
    hive_cache *cache = ct_open(&T, &c);
    hive_cache_config got = HIVE_CACHE_CONFIG_INIT;
    HT_MUST(hive_cache_get_config(cache, &got));
    HT_CHECK_EQ(got.value_hbm_bytes, want, "value_hbm_bytes reported for %s", why);
    for (uint64_t i = 0; i < n; i++) {
        b.keys[i] = 5000 + i * 7;
        b.scores[i] = 1 + i;
        ct_value_make(b.values + i * dim * 4, HIVE_VALUE_I32, dim, b.keys[i], 3);
    }
    HT_MUST(hive_cache_insert_or_assign(cache, n, b.keys, b.values, b.scores, NULL, NULL));
    HT_CHECK_EQ(ct_size(cache), 1024, "a full table (%s)", why);
    HT_MUST(hive_cache_find(cache, n, b.keys, b.values_out, b.found, NULL, NULL));
    uint64_t hits = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (!b.found[i])
            continue;
        hits++;
        HT_CHECK(ct_value_check(b.values_out + i * dim * 4, HIVE_VALUE_I32, dim, b.keys[i], 3),
                 "value of key %llu (%s)", (unsigned long long)b.keys[i], why);
    }
    HT_CHECK_EQ(hits, 1024, "keys found (%s)", why);
    ct_close(cache);
    ct_bufs_free(&b);
}

/* value_hbm_bytes: rounded down to whole values, capped at all of them, 0
 * for none; and a config of version 1 (48 bytes, no such field) is taken
 * with every value in device memory, get_config writing no byte past it. */
static void value_budgets(void)
{
    ht_context("value budgets (%s)", T.backend_name);
    const uint64_t all = 1024 * 12;
    one_budget(HIVE_CACHE_HBM_UNLIMITED, all, "the default");
    one_budget(0, 0, "0: every value in host memory");
    one_budget(100, 96, "100 bytes: 8 whole values");
    one_budget(all / 3 + 5, all / 3 / 12 * 12, "a third and 5 bytes");
    one_budget(all + 11, all, "more than all the values");

    hive_cache_config c = ct_config(&T);
    c.capacity = 1024;
    c.version = 1;
    c.struct_size = 48;
    c.value_hbm_bytes = 7; /* past a version-1 header's struct: not read */
    hive_cache *cache = ct_open(&T, &c);
    struct {
        hive_cache_config config;
        uint8_t guard[16];
    } got;
    memset(&got, 0xA5, sizeof got);
    got.config.struct_size = 48;
    HT_MUST(hive_cache_get_config(cache, &got.config));
    HT_CHECK_EQ(got.config.capacity, 1024, "%s", "capacity of a version-1 config's cache");
    HT_CHECK_EQ(got.config.version, HIVE_CACHE_CONFIG_VERSION, "%s", "version get_config reports");
    const uint8_t *past = (const uint8_t *)&got.config + 48;
    int untouched = 1;
    for (const uint8_t *p = past; p < got.guard + sizeof got.guard; p++)
        untouched &= *p == 0xA5;
    HT_CHECK(untouched, "%s", "get_config wrote past a version-1 caller's 48 bytes");
    ct_close(cache);
    c = ct_config(&T);
    c.capacity = 1024;
    c.version = 1; /* a version-1 config with this header's size: the field is still ignored */
    c.value_hbm_bytes = 0;
    cache = ct_open(&T, &c);
    HT_MUST(hive_cache_get_config(cache, &got.config));
    HT_CHECK_EQ(got.config.value_hbm_bytes, 1024 * 4, "%s", "value_hbm_bytes of a version-1 config");
    ct_close(cache);
}

/* ---------------------------------------------------------------- arguments */

static void bad_arguments(ct_bufs *b)
{
    ht_context("bad arguments (%s)", T.backend_name);
    hive_cache *c = open_small(HIVE_SCORE_LRU, HIVE_VALUE_F32, 4);
    const uint64_t n = 8, huge = (1ull << 40) + 1;
    uint64_t count = 0;
    for (uint64_t i = 0; i < n; i++) {
        b->keys[i] = 1000 + i;
        ct_value_make(b->values + i * 16, HIVE_VALUE_F32, 4, b->keys[i], 0);
    }
    /* NULL arrays with n > 0: INVALID_ARGUMENT naming them, nothing done. */
#define NULLARG(expr, what)                                     \
    do {                                                        \
        HT_CHECK_STATUS(expr, INV, "%s", #expr);                \
        EXPECT_ERROR_NAMES(what, #expr);                        \
        HT_CHECK_EQ(ct_size(c), 0, "size after %s", #expr);     \
    } while (0)
    NULLARG(hive_cache_insert_or_assign(c, n, NULL, b->values, NULL, NULL, NULL), "keys");
    NULLARG(hive_cache_insert_or_assign(c, n, b->keys, NULL, NULL, NULL, NULL), "values");
    NULLARG(hive_cache_insert_and_evict(c, n, b->keys, b->values, NULL, NULL, b->ev_values, NULL, &count, NULL),
            "evicted_keys");
    NULLARG(hive_cache_insert_and_evict(c, n, b->keys, b->values, NULL, b->ev_keys, NULL, NULL, &count, NULL),
            "evicted_values");
    NULLARG(hive_cache_insert_and_evict(c, n, b->keys, b->values, NULL, b->ev_keys, b->ev_values, NULL, NULL, NULL),
            "evicted_count");
    NULLARG(hive_cache_find(c, n, NULL, b->values_out, b->found, NULL, NULL), "keys");
    NULLARG(hive_cache_find_missed(c, n, b->keys, b->values_out, NULL, NULL, b->missed_idx, &count, NULL),
            "missed_keys");
    NULLARG(hive_cache_find_missed(c, n, b->keys, b->values_out, NULL, b->missed_keys, NULL, &count, NULL),
            "missed_indices");
    NULLARG(hive_cache_find_missed(c, n, b->keys, b->values_out, NULL, b->missed_keys, b->missed_idx, NULL, NULL),
            "missed_count");
    NULLARG(hive_cache_contains(c, n, b->keys, NULL, NULL), "found");
    NULLARG(hive_cache_find_or_insert(c, n, b->keys, NULL, NULL, b->found, NULL), "values");
    NULLARG(hive_cache_assign(c, n, b->keys, NULL, NULL, b->found, NULL), "values");
    NULLARG(hive_cache_assign_values(c, n, b->keys, NULL, b->found, NULL), "values");
    NULLARG(hive_cache_assign_scores(c, n, b->keys, NULL, b->found, NULL), "scores");
    NULLARG(hive_cache_accum_or_assign(c, n, b->keys, b->values, NULL, NULL, b->results, NULL), "accum_flags");
    NULLARG(hive_cache_accum_or_assign(c, n, b->keys, NULL, b->flags, NULL, b->results, NULL), "values");
    NULLARG(hive_cache_erase(c, n, NULL, b->results, NULL), "keys");
    NULLARG(hive_cache_export(c, 0, 8, NULL, NULL, NULL, NULL, &count, NULL), "keys");
    NULLARG(hive_cache_export(c, 0, 8, NULL, b->keys, NULL, NULL, NULL, NULL), "count");
    NULLARG(hive_cache_save(c, NULL, NULL, &count), "write");
    NULLARG(hive_cache_load(c, NULL, NULL, &count), "read");
    /* erase_if requires its filter: a NULL would otherwise empty the cache. */
    HT_MUST(hive_cache_insert_or_assign(c, n, b->keys, b->values, NULL, NULL, NULL));
    count = 7;
    HT_CHECK_STATUS(hive_cache_erase_if(c, NULL, &count, NULL), INV, "%s", "erase_if(NULL filter)");
    HT_CHECK_EQ(ct_size(c), n, "erase_if(NULL filter) erases nothing");
    HT_MUST(hive_cache_clear(c, NULL));
    /* n beyond 2^40. */
    HT_CHECK_STATUS(hive_cache_insert_or_assign(c, huge, b->keys, b->values, NULL, NULL, NULL), INV, "%s", "n = 2^40+1");
    HT_CHECK_STATUS(hive_cache_find(c, huge, b->keys, b->values_out, b->found, NULL, NULL), INV, "%s", "find n huge");
    /* n = 0 with NULL arrays: a success that does nothing. */
    HT_CHECK_STATUS(hive_cache_insert_or_assign(c, 0, NULL, NULL, NULL, NULL, NULL), HIVE_SUCCESS, "%s", "n = 0");
    HT_CHECK_STATUS(hive_cache_find(c, 0, NULL, NULL, NULL, NULL, NULL), HIVE_SUCCESS, "%s", "find n = 0");
    HT_CHECK_STATUS(hive_cache_erase(c, 0, NULL, NULL, NULL), HIVE_SUCCESS, "%s", "erase n = 0");
    count = 99;
    HT_CHECK_STATUS(hive_cache_insert_and_evict(c, 0, NULL, NULL, NULL, NULL, NULL, NULL, &count, NULL), HIVE_SUCCESS,
                    "%s", "insert_and_evict n = 0");
    HT_CHECK_EQ(count, 0, "insert_and_evict n = 0 sets the count");
    /* Misaligned keys and values. */
    HT_CHECK_STATUS(hive_cache_insert_or_assign(c, 1, (const uint64_t *)((uint8_t *)b->keys + 4), b->values, NULL,
                                                NULL, NULL),
                    INV, "%s", "keys misaligned");
    EXPECT_ERROR_NAMES("keys", "misaligned keys");
    HT_CHECK_STATUS(hive_cache_insert_or_assign(c, 1, b->keys, b->values + 2, NULL, NULL, NULL), INV, "%s",
                    "values misaligned");
    EXPECT_ERROR_NAMES("values", "misaligned values");
    HT_CHECK_EQ(ct_size(c), 0, "nothing stored by rejected calls");
    /* Export ranges. */
    uint64_t cap = 0;
    HT_MUST(hive_cache_capacity(c, &cap));
    HT_CHECK_STATUS(hive_cache_export(c, cap + 1, 0, NULL, b->keys, NULL, NULL, &count, NULL), INV, "%s",
                    "offset past the capacity");
    HT_CHECK_STATUS(hive_cache_export(c, cap - 4, 8, NULL, b->keys, NULL, NULL, &count, NULL), INV, "%s",
                    "offset + slots past the capacity");
    HT_CHECK_STATUS(hive_cache_export(c, 8, UINT64_MAX - 4, NULL, b->keys, NULL, NULL, &count, NULL), INV, "%s",
                    "offset + slots wrapping");
    HT_CHECK_STATUS(hive_cache_export(c, cap, 0, NULL, b->keys, NULL, NULL, &count, NULL), HIVE_SUCCESS, "%s",
                    "an empty range at the end");
    /* Scores given to a policy that keeps its own. */
    for (uint64_t i = 0; i < n; i++)
        b->scores[i] = 5;
    HT_CHECK_STATUS(hive_cache_insert_or_assign(c, n, b->keys, b->values, b->scores, NULL, NULL), INV, "%s",
                    "scores to LRU");
    EXPECT_ERROR_NAMES("scores", "scores to LRU");
    HT_CHECK_STATUS(hive_cache_find_or_insert(c, n, b->keys, b->values, b->scores, b->found, NULL), INV, "%s",
                    "scores to LRU find_or_insert");
    HT_CHECK_STATUS(hive_cache_accum_or_assign(c, n, b->keys, b->values, b->flags, b->scores, NULL, NULL), INV, "%s",
                    "scores to LRU accum");
    HT_CHECK_EQ(ct_size(c), 0, "nothing stored by calls with scores on LRU");
    /* CUDA: pageable host memory. */
    if (T.backend == HIVE_BACKEND_CUDA) {
        uint64_t *host = malloc(n * 8);
        memcpy(host, b->keys, n * 8);
        HT_CHECK_STATUS(hive_cache_insert_or_assign(c, n, host, b->values, NULL, NULL, NULL), INV, "%s",
                        "pageable keys");
        EXPECT_ERROR_NAMES("keys", "pageable keys");
        free(host);
        HT_CHECK_EQ(ct_size(c), 0, "nothing stored from pageable memory");
    }
    ct_close(c);
#undef NULLARG

    /* Scores missing where the policy takes them; EPOCH_LRU given some. */
    static const hive_score_policy need[3] = {HIVE_SCORE_LFU, HIVE_SCORE_EPOCH_LFU, HIVE_SCORE_CUSTOM};
    for (int p = 0; p < 3; p++) {
        ht_context("scores missing for %s", ct_policy_name(need[p]));
        c = open_small(need[p], HIVE_VALUE_F32, 4);
        HT_CHECK_STATUS(hive_cache_insert_or_assign(c, n, b->keys, b->values, NULL, NULL, NULL), INV, "%s", "upsert");
        EXPECT_ERROR_NAMES("scores", "missing scores");
        HT_CHECK_STATUS(hive_cache_insert_and_evict(c, n, b->keys, b->values, NULL, b->ev_keys, b->ev_values, NULL,
                                                    &count, NULL),
                        INV, "%s", "insert_and_evict");
        HT_CHECK_STATUS(hive_cache_find_or_insert(c, n, b->keys, b->values, NULL, b->found, NULL), INV, "%s", "foi");
        HT_CHECK_STATUS(hive_cache_accum_or_assign(c, n, b->keys, b->values, b->flags, NULL, NULL, NULL), INV, "%s",
                        "accum");
        HT_CHECK_STATUS(hive_cache_assign(c, n, b->keys, b->values, NULL, b->found, NULL), INV, "%s", "assign");
        HT_CHECK_EQ(ct_size(c), 0, "nothing stored");
        ct_close(c);
    }
    ht_context("scores given to EPOCH_LRU");
    c = open_small(HIVE_SCORE_EPOCH_LRU, HIVE_VALUE_F32, 4);
    HT_CHECK_STATUS(hive_cache_insert_or_assign(c, n, b->keys, b->values, b->scores, NULL, NULL), INV, "%s", "upsert");
    HT_CHECK_STATUS(hive_cache_assign(c, n, b->keys, b->values, b->scores, b->found, NULL), INV, "%s", "assign");
    HT_CHECK_EQ(ct_size(c), 0, "nothing stored");
    /* assign_scores takes scores whatever the policy. */
    HT_MUST(hive_cache_insert_or_assign(c, n, b->keys, b->values, NULL, NULL, NULL));
    HT_CHECK_STATUS(hive_cache_assign_scores(c, n, b->keys, b->scores, b->found, NULL), HIVE_SUCCESS, "%s",
                    "assign_scores on EPOCH_LRU");
    HT_MUST(hive_cache_find(c, n, b->keys, NULL, b->found, b->ev_scores, NULL));
    for (uint64_t i = 0; i < n; i++)
        HT_CHECK_EQ(b->ev_scores[i], 5, "assign_scores stores the score as given");
    ct_close(c);

    /* accum_or_assign on BYTES. */
    ht_context("accum on BYTES");
    c = open_small(HIVE_SCORE_LRU, HIVE_VALUE_BYTES, 16);
    memset(b->flags, 0, n);
    HT_CHECK_STATUS(hive_cache_accum_or_assign(c, n, b->keys, b->values, b->flags, NULL, b->results, NULL),
                    HIVE_ERROR_UNSUPPORTED, "%s", "accum on BYTES");
    HT_CHECK_EQ(ct_size(c), 0, "nothing stored by the refused accum");
    HT_MUST(hive_cache_insert_or_assign(c, n, b->keys, b->values, NULL, NULL, NULL));
    HT_MUST(hive_cache_find(c, n, b->keys, b->values_out, b->found, NULL, NULL));
    HT_CHECK(memcmp(b->values_out, b->values, n * 16) == 0, "%s", "BYTES values round trip");
    ct_close(c);
}

/* ---------------------------------------------------------------- reserved keys */

static void reserved_keys(ct_bufs *b)
{
    ht_context("reserved keys (%s)", T.backend_name);
    hive_cache *c = open_small(HIVE_SCORE_CUSTOM, HIVE_VALUE_I32, 4);
    const uint64_t n = 8;
    const hive_status RK = HIVE_ERROR_RESERVED_KEY;
    uint64_t count = 0;
    /* Elements 1, 4 and 6 reserved (all four reserved values appear). */
    uint64_t res[3] = {HIVE_KV64_RESERVED_MIN, UINT64_MAX, UINT64_MAX - 1};
    int is_res[8] = {0, 1, 0, 0, 1, 0, 1, 0};
    for (uint64_t i = 0, r = 0; i < n; i++) {
        b->keys[i] = is_res[i] ? res[r++] : 500 + i;
        b->scores[i] = 10 + i;
        ct_value_make(b->values + i * 16, HIVE_VALUE_I32, 4, b->keys[i], 0);
        b->flags[i] = 0;
    }
    memset(b->results, 0xEE, n);
    HT_CHECK_STATUS(hive_cache_insert_or_assign(c, n, b->keys, b->values, b->scores, b->results, NULL), RK, "%s",
                    "upsert");
    for (uint64_t i = 0; i < n; i++)
        HT_CHECK_EQ(b->results[i], is_res[i] ? HIVE_RESULT_REJECTED_RESERVED : HIVE_RESULT_INSERTED,
                    "upsert result %llu", (unsigned long long)i);
    HT_CHECK_EQ(ct_size(c), 5, "the others stored");
    HT_CHECK_STATUS(hive_cache_find(c, n, b->keys, b->values_out, b->found, NULL, NULL), RK, "%s", "find");
    for (uint64_t i = 0; i < n; i++)
        HT_CHECK_EQ(b->found[i], !is_res[i], "find found %llu", (unsigned long long)i);
    HT_CHECK_STATUS(hive_cache_contains(c, n, b->keys, b->found, NULL), RK, "%s", "contains");
    for (uint64_t i = 0; i < n; i++)
        HT_CHECK_EQ(b->found[i], !is_res[i], "contains %llu", (unsigned long long)i);
    HT_CHECK_STATUS(hive_cache_find_missed(c, n, b->keys, b->values_out, NULL, b->missed_keys, b->missed_idx, &count,
                                           NULL),
                    RK, "%s", "find_missed");
    HT_CHECK(count <= 3, "find_missed lists %llu of 3 reserved keys at most", (unsigned long long)count);
    HT_CHECK_STATUS(hive_cache_insert_and_evict(c, n, b->keys, b->values, b->scores, b->ev_keys, b->ev_values,
                                                b->ev_scores, &count, NULL),
                    RK, "%s", "insert_and_evict");
    HT_CHECK_EQ(count, 0, "insert_and_evict of present keys evicts nothing");
    HT_CHECK_STATUS(hive_cache_find_or_insert(c, n, b->keys, b->values, b->scores, b->found, NULL), RK, "%s", "foi");
    for (uint64_t i = 0; i < n; i++)
        HT_CHECK_EQ(b->found[i], !is_res[i], "find_or_insert found %llu", (unsigned long long)i);
    HT_CHECK_STATUS(hive_cache_assign(c, n, b->keys, b->values, b->scores, b->found, NULL), RK, "%s", "assign");
    HT_CHECK_STATUS(hive_cache_assign_values(c, n, b->keys, b->values, b->found, NULL), RK, "%s", "assign_values");
    HT_CHECK_STATUS(hive_cache_assign_scores(c, n, b->keys, b->scores, b->found, NULL), RK, "%s", "assign_scores");
    for (uint64_t i = 0; i < n; i++)
        HT_CHECK_EQ(b->found[i], !is_res[i], "assign_scores found %llu", (unsigned long long)i);
    memset(b->flags, 1, n);
    HT_CHECK_STATUS(hive_cache_accum_or_assign(c, n, b->keys, b->values, b->flags, b->scores, b->results, NULL), RK,
                    "%s", "accum");
    for (uint64_t i = 0; i < n; i++)
        HT_CHECK_EQ(b->results[i], is_res[i] ? HIVE_RESULT_REJECTED_RESERVED : HIVE_RESULT_UPDATED, "accum result %llu",
                    (unsigned long long)i);
    HT_CHECK_STATUS(hive_cache_erase(c, n, b->keys, b->results, NULL), RK, "%s", "erase");
    for (uint64_t i = 0; i < n; i++)
        HT_CHECK_EQ(b->results[i], is_res[i] ? HIVE_RESULT_REJECTED_RESERVED : HIVE_RESULT_ERASED, "erase result %llu",
                    (unsigned long long)i);
    HT_CHECK_EQ(ct_size(c), 0, "all erased");
    ct_close(c);
}

/* ---------------------------------------------------------------- out of memory, injected */

static size_t write_all(void *ctx, const void *p, size_t n)
{
    (void)ctx, (void)p;
    return n;
}

/* The child: HIVE_TEST_FAIL_ALLOC=N is set.  Exit HT_OOM_EXIT: create ran
 * out; HT_OOM_EXIT + 1: save ran out (the cache checked intact); 0:
 * everything had memory. */
static int oom_child(void)
{
    ht_begin("cache bad_input oom child");
    hive_cache_config cfg = ct_config(&T);
    cfg.capacity = 1024;
    cfg.policy = HIVE_SCORE_CUSTOM;
    cfg.dim = 4;
    cfg.value_type = HIVE_VALUE_I32;
    cfg.threads = 2;
    cfg.value_hbm_bytes = 512 * 16; /* half the values in host memory: one more allocation to fail */
    hive_cache *sentinel = (hive_cache *)(uintptr_t)0x1234, *c = sentinel;
    hive_status s = hive_cache_create(&cfg, &c);
    if (s == HIVE_ERROR_OUT_OF_MEMORY) {
        HT_CHECK(c == sentinel, "%s", "a create out of memory wrote *cache");
        return ht_finish() == 0 ? HT_OOM_EXIT : 1;
    }
    if (s != HIVE_SUCCESS)
        c = ct_open(&T, &cfg); /* skip rules */
    /* Host buffers on the CPU; the test's own allocations are not hive's. */
    ct_bufs b;
    ct_bufs_init(&b, &T, 64, 16);
    for (int i = 0; i < 64; i++) {
        b.keys[i] = 77 + (uint64_t)i;
        b.scores[i] = (uint64_t)i;
        ct_value_make(b.values + i * 16, HIVE_VALUE_I32, 4, b.keys[i], 0);
    }
    HT_MUST(hive_cache_insert_or_assign(c, 64, b.keys, b.values, b.scores, NULL, NULL));
    /* A find needs no memory: where it would take its keys in bucket order
     * over host values (registered with HIVE_TEST_CACHE_DEFER_BYTES=0) and
     * cannot have the lists for it, it takes them in the batch's order. */
    HT_CHECK_STATUS(hive_cache_find(c, 64, b.keys, b.values_out, b.found, NULL, NULL), HIVE_SUCCESS, "%s",
                    "find after the fill");
    for (int i = 0; i < 64; i++)
        HT_CHECK(b.found[i] && ct_value_check(b.values_out + i * 16, HIVE_VALUE_I32, 4, b.keys[i], 0),
                 "key %d after the fill", i);
    uint64_t count = 0;
    s = hive_cache_save(c, write_all, NULL, &count);
    int code = 0;
    if (s == HIVE_ERROR_OUT_OF_MEMORY) {
        code = HT_OOM_EXIT + 1;
        HT_CHECK_EQ(ct_size(c), 64, "size after a save out of memory");
        HT_MUST(hive_cache_find(c, 64, b.keys, b.values_out, b.found, NULL, NULL));
        for (int i = 0; i < 64; i++)
            HT_CHECK(b.found[i] && ct_value_check(b.values_out + i * 16, HIVE_VALUE_I32, 4, b.keys[i], 0),
                     "key %d after a failed save", i);
    } else {
        HT_CHECK_STATUS(s, HIVE_SUCCESS, "%s", "save");
        HT_CHECK_EQ(count, 64, "entries saved");
    }
    ct_bufs_free(&b);
    ct_close(c);
    int f = ht_finish();
    return f == 0 ? code : f;
}

static void injected_oom(const char *self, const char *backend)
{
    ht_context("out of memory injected (%s)", backend);
    char *argv[] = {(char *)self, (char *)backend, "--oom-child", NULL};
    int seen[2]; /* create, save */
    if (ht_oom_sweep(argv, 64, seen, 2) != 1)
        return;
    HT_CHECK(seen[0] > 0, "%s", "create never ran out of memory (HIVE_TEST_FAIL_ALLOC=0 should)");
    printf("  out of memory: create failed cleanly for %d values of HIVE_TEST_FAIL_ALLOC, save for %d\n", seen[0],
           seen[1]);
}

int main(int argc, char **argv)
{
    const char *usage = "<cpu|cuda> [--scale F] [--oom-child]";
    ct_target_from_args(&T, argc, argv, usage);
    if (ct_oom_child_args(argc, argv, usage))
        return oom_child();
    static char name[64];
    snprintf(name, sizeof name, "cache bad_input %s", T.backend_name);
    ht_begin(name);
    ct_require_backend(&T);
    ct_bufs b;
    ct_bufs_init(&b, &T, 64, 64);
    bad_handles(&b);
    bad_configs();
    value_budgets();
    bad_arguments(&b);
    reserved_keys(&b);
    ct_bufs_free(&b);
    injected_oom(argv[0], argv[1]);
    return ht_finish();
}
