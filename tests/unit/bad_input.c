/* bad_input.c — every way a caller can get it wrong, on one backend:
 *
 *   hive-bad-input <cpu|cuda> <kv32|kv64>
 *
 * NULL table and arrays (n > 0: INVALID_ARGUMENT; n = 0: a no-op success), n
 * beyond 2^40, bad combine modes, every field of a bad config (each
 * INVALID_ARGUMENT with hive_last_error() naming the argument, and *table
 * left alone), a zeroed fake handle (the magic check; a real destroyed
 * handle would be use-after-free), reserved keys (that key
 * REJECTED_RESERVED, the others processed, HIVE_ERROR_RESERVED_KEY), bad op
 * codes in hive_apply (NONE for them, the others processed,
 * INVALID_ARGUMENT), key and value arrays not aligned to their element
 * (KV32: 4 bytes, KV64: 8 bytes; INVALID_ARGUMENT naming the array, the
 * table unchanged and still working), pageable host memory given to a CUDA
 * table, device memory of another GPU without peer access (with two GPUs or
 * more), CUDA tables without a GPU (NO_DEVICE) or without CUDA in the build
 * (UNSUPPORTED), a table too big to allocate (OUT_OF_MEMORY at create, and
 * from hive_reserve with the table unchanged), and hive_status_string.  The
 * table these run on has an absent-key filter where it is a CPU table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hivetest.h"

/* The 2^37-slot tables below must fail cleanly under the sanitizers too. */
#if defined(__SANITIZE_ADDRESS__)
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
#endif
#if defined(__SANITIZE_THREAD__)
const char *__tsan_default_options(void) { return "allocator_may_return_null=1"; }
#endif

static ht_target target;

#ifdef HT_WITH_CUDA
/* buffers_cuda.c: memory of a given GPU, for the other-device case. */
int ht_cuda_device_count(void);
void *ht_cuda_alloc_on_device(int device, size_t bytes, char *why, size_t why_len);
void ht_cuda_free_on_device(int device, void *p);
#endif

/* The last error names `what`. */
#define EXPECT_ERROR_NAMES(what, why)                                                     \
    HT_CHECK(strstr(hive_last_error(), (what)) != NULL,                                     \
             "hive_last_error() \"%s\" should name \"%s\" (%s)", hive_last_error(), (what), \
             (why))

/* ---------------------------------------------------------------- status strings */

static void status_strings(void)
{
    ht_context("hive_status_string");
    const char *seen[16] = {0};
    for (int s = HIVE_SUCCESS; s <= HIVE_ERROR_INTERNAL; s++) {
        const char *text = hive_status_string((hive_status)s);
        if (!HT_CHECK(text != NULL && text[0] != '\0', "status %d has no text", s))
            continue;
        HT_CHECK(strcmp(text, hive_status_string((hive_status)99)) != 0,
                 "status %d reads as an unknown status: \"%s\"", s, text);
        for (int o = 0; o < s; o++)
            HT_CHECK(seen[o] == NULL || strcmp(seen[o], text) != 0,
                     "statuses %d and %d share the text \"%s\"", o, s, text);
        seen[s] = text;
    }
    const char *unknown = hive_status_string((hive_status)99);
    HT_CHECK(unknown != NULL && unknown[0] != '\0', "status 99 has no text");
    HT_CHECK(hive_status_string((hive_status)-1) != NULL, "status -1 has no text");
}

/* ---------------------------------------------------------------- config */

/* An allocator's alloc, given without its free. */
static void *ht_test_alloc(void *user, size_t bytes, hive_stream stream)
{
    (void)user;
    (void)bytes;
    (void)stream;
    return NULL;
}

static void expect_bad_config(const hive_config *c, const char *what, const char *why)
{
    hive_table *sentinel = (hive_table *)(uintptr_t)0x1234, *table = sentinel;
    HT_CHECK_STATUS(hive_create(c, &table), HIVE_ERROR_INVALID_ARGUMENT, "config with %s", why);
    EXPECT_ERROR_NAMES(what, why);
    HT_CHECK(table == sentinel, "a failed hive_create wrote *table (config with %s)", why);
    if (table != sentinel && table != NULL)
        hive_destroy(table);
}

static void bad_configs(void)
{
    const ht_target *t = &target;
    ht_context("bad configs (%s %s)", t->backend_name, t->width_name);
    hive_config c;
    hive_table *table = (hive_table *)(uintptr_t)0x1234;

    HT_CHECK_STATUS(hive_create(NULL, &table), HIVE_ERROR_INVALID_ARGUMENT, "config NULL");
    EXPECT_ERROR_NAMES("config", "config NULL");
    c = ht_config(t);
    HT_CHECK_STATUS(hive_create(&c, NULL), HIVE_ERROR_INVALID_ARGUMENT, "table pointer NULL");
    EXPECT_ERROR_NAMES("table", "table pointer NULL");

#define BAD(field, value, why)          \
    do {                                \
        c = ht_config(t);               \
        c.field = value;                \
        expect_bad_config(&c, #field, why); \
    } while (0)
    BAD(struct_size, 0, "struct_size 0");
    BAD(struct_size, (uint32_t)sizeof(hive_config) - 8, "struct_size too small");
    BAD(struct_size, (uint32_t)sizeof(hive_config) + 8, "struct_size too big");
    BAD(version, 0, "version 0");
    BAD(version, HIVE_CONFIG_VERSION + 1, "a future version");
    BAD(struct_size, 80, "this version with an older header's size");
    BAD(version, 2, "an older version with this header's size");
    BAD(allocator.alloc, ht_test_alloc, "an allocator without free");
    BAD(absent_filter_bits, 3, "absent_filter_bits 3");
    BAD(absent_filter_bits, 17, "absent_filter_bits 17");
    BAD(struct_size, 112, "this version with version 3's size");
    BAD(version, 3, "version 3 with this header's size");
    BAD(backend, (hive_backend)3, "backend 3");
    BAD(backend, (hive_backend)-1, "backend -1");
    BAD(key_width, (hive_key_width)0, "key_width 0");
    BAD(key_width, (hive_key_width)3, "key_width 3");
    BAD(device, -1, "device -1");
    BAD(initial_capacity, 0, "initial_capacity 0");
    BAD(initial_capacity, (1ull << 37) + 1, "initial_capacity over 2^37");
    BAD(initial_capacity, ~0ull, "initial_capacity 2^64 - 1");
    BAD(max_load_factor, 0.0, "max_load_factor 0");
    BAD(max_load_factor, -0.5, "max_load_factor -0.5");
    BAD(max_load_factor, 1.01, "max_load_factor 1.01");
    BAD(max_load_factor, NAN, "max_load_factor NaN");
    BAD(min_load_factor, -0.01, "min_load_factor -0.01");
    BAD(min_load_factor, 0.46, "min_load_factor over max_load_factor / 2");
    BAD(min_load_factor, NAN, "min_load_factor NaN");
    BAD(resize_batch, 0, "resize_batch 0");
    BAD(max_evictions, 1025, "max_evictions 1025");
    BAD(stash_fraction, -0.1, "stash_fraction -0.1");
    BAD(stash_fraction, 0.26, "stash_fraction 0.26");
    BAD(stash_fraction, NAN, "stash_fraction NaN");
    BAD(threads, 4097, "threads 4097");
    BAD(bucket_slots, 2, "bucket_slots 2");
    BAD(bucket_slots, 6, "bucket_slots 6");
    BAD(bucket_slots, 64, "bucket_slots 64");
    BAD(lanes_per_op, 3, "lanes_per_op 3");
    BAD(lanes_per_op, 64, "lanes_per_op 64");
    /* Past every design hive.h names, with room for those still to come. */
    BAD(design, (hive_design)64, "design 64");
    BAD(design, (hive_design)-1, "design -1");
#undef BAD
    /* The chaining design's node pool may take up to half the table. */
    c = ht_config(t);
    c.design = HIVE_DESIGN_CHAINING;
    c.stash_fraction = 0.51;
    expect_bad_config(&c, "stash_fraction", "a chaining pool of stash_fraction 0.51");
    c = ht_config(t);
    c.bucket_slots = 8;
    c.lanes_per_op = 16;
    expect_bad_config(&c, "lanes_per_op", "lanes_per_op 16 over bucket_slots 8");
    c = ht_config(t);
    c.max_load_factor = 0.5;
    c.min_load_factor = 0.3;
    expect_bad_config(&c, "min_load_factor", "min_load_factor 0.3 with max_load_factor 0.5");
}

/* A config from an older header is taken with defaults for what it lacks:
 * version 1 had no `design` (the bytes were padding, so whatever they hold
 * is not read); and the initialisers as functions give what the macros do. */
static void older_headers(void)
{
    ht_context("configs of older headers, initialisers as functions");
    HT_CHECK_EQ(hive_version(), HIVE_VERSION_MAJOR * 10000u + HIVE_VERSION_MINOR * 100u + HIVE_VERSION_PATCH,
                "hive_version()");
    /* Field by field: padding bytes may differ. */
    hive_config m = HIVE_CONFIG_INIT, f;
    memset(&f, 0xA5, sizeof f);
    hive_config_init(&f);
    HT_CHECK(f.struct_size == m.struct_size && f.version == m.version && f.backend == m.backend &&
                 f.device == m.device && f.key_width == m.key_width && f.initial_capacity == m.initial_capacity &&
                 f.max_load_factor == m.max_load_factor && f.min_load_factor == m.min_load_factor &&
                 f.resize_batch == m.resize_batch && f.max_evictions == m.max_evictions &&
                 f.stash_fraction == m.stash_fraction && f.threads == m.threads &&
                 f.bucket_slots == m.bucket_slots && f.lanes_per_op == m.lanes_per_op && f.design == m.design &&
                 f.hash_seed == m.hash_seed && f.allocator.alloc == m.allocator.alloc &&
                 f.allocator.free == m.allocator.free && f.allocator.user == m.allocator.user &&
                 f.absent_filter_bits == m.absent_filter_bits,
             "hive_config_init differs from HIVE_CONFIG_INIT");
    hive_cache_config cm = HIVE_CACHE_CONFIG_INIT, cf;
    memset(&cf, 0xA5, sizeof cf);
    hive_cache_config_init(&cf);
    HT_CHECK(cf.struct_size == cm.struct_size && cf.version == cm.version && cf.backend == cm.backend &&
                 cf.device == cm.device && cf.capacity == cm.capacity && cf.dim == cm.dim &&
                 cf.value_type == cm.value_type && cf.policy == cm.policy && cf.bucket_slots == cm.bucket_slots &&
                 cf.dual_bucket == cm.dual_bucket && cf.threads == cm.threads &&
                 cf.value_hbm_bytes == cm.value_hbm_bytes,
             "hive_cache_config_init differs from HIVE_CACHE_CONFIG_INIT");
    hive_config_init(NULL);
    hive_cache_config_init(NULL);

    hive_config c = ht_config(&target);
    c.struct_size = 80; /* versions 1 and 2: the fields up to `design` */
    c.version = 1;
    c.design = (hive_design)77; /* padding to a version-1 header */
    c.hash_seed = 0; /* beyond an older header's struct: not read */
    hive_table *table = NULL;
    HT_CHECK_STATUS(hive_create(&c, &table), HIVE_SUCCESS, "a version-1 config");
    if (table == NULL)
        return;
    hive_config got;
    hive_config_init(&got);
    HT_CHECK_STATUS(hive_get_config(table, &got), HIVE_SUCCESS, "hive_get_config");
    HT_CHECK_EQ((int)got.design, (int)HIVE_DESIGN_HIVE, "design of a table made from a version-1 config");
    HT_CHECK_EQ(got.version, HIVE_CONFIG_VERSION, "version hive_get_config reports");
    HT_CHECK_EQ(got.initial_capacity, c.initial_capacity, "initial_capacity kept from the version-1 config");
    HT_CHECK(got.hash_seed != 0 && got.hash_seed != HIVE_HASH_SEED_RANDOM,
             "a version-1 config gets the default: a seed drawn at random");
    hive_config old;
    hive_config_init(&old);
    old.struct_size = 80;
    old.hash_seed = 12345;
    HT_CHECK_STATUS(hive_get_config(table, &old), HIVE_SUCCESS, "hive_get_config into an older header's config");
    HT_CHECK(old.hash_seed == 12345 && old.struct_size == 80, "hive_get_config writes only an older header's fields");
    hive_config v3;
    hive_config_init(&v3);
    v3.struct_size = 112; /* version 3: up to `allocator` */
    v3.absent_filter_bits = 7;
    HT_CHECK_STATUS(hive_get_config(table, &v3), HIVE_SUCCESS, "hive_get_config into a version-3 config");
    HT_CHECK(v3.struct_size == 112 && v3.absent_filter_bits == 7 && v3.hash_seed == got.hash_seed,
             "hive_get_config writes a version-3 header's fields, and no more");
    hive_table *table3 = NULL;
    hive_config c3 = ht_config(&target);
    c3.struct_size = 112;
    c3.version = 3;
    c3.absent_filter_bits = 99; /* beyond a version-3 header's struct: not read */
    HT_CHECK_STATUS(hive_create(&c3, &table3), HIVE_SUCCESS, "a version-3 config");
    if (table3 != NULL) {
        hive_config got3;
        hive_config_init(&got3);
        HT_CHECK_STATUS(hive_get_config(table3, &got3), HIVE_SUCCESS, "hive_get_config");
        HT_CHECK_EQ(got3.absent_filter_bits, 0u, "a version-3 config gets no absent-key filter");
        hive_destroy(table3);
    }
    uint32_t key = 7, value = 9, found_value = 0;
    uint8_t found = 0;
    if (target.width == HIVE_KV32) {
        HT_CHECK_STATUS(hive_insert(table, 1, &key, &value, HIVE_COMBINE_ASSIGN, NULL, NULL), HIVE_SUCCESS,
                        "insert into it");
        HT_CHECK_STATUS(hive_find(table, 1, &key, &found_value, &found, NULL), HIVE_SUCCESS, "find in it");
        HT_CHECK(found && found_value == value, "the key inserted is found with its value");
    }
    hive_destroy(table);
}

/* ---------------------------------------------------------------- handles */

/* Every entry point given `table` (NULL or not a live table). */
static void every_call_rejects(hive_table *table, const char *what, ht_batch *b)
{
    ht_context("%s handle (%s %s)", what, target.backend_name, target.width_name);
    uint64_t n = 4, size = 0, count = 0;
    hive_config c = HIVE_CONFIG_INIT;
    hive_stats st;
    const hive_status inv = HIVE_ERROR_INVALID_ARGUMENT;
    HT_CHECK_STATUS(hive_insert(table, n, b->keys, b->values, HIVE_COMBINE_ASSIGN, b->results, NULL),
                    inv, "insert");
    EXPECT_ERROR_NAMES("table", "insert");
    HT_CHECK_STATUS(hive_find(table, n, b->keys, b->values, b->found, NULL), inv, "find");
    EXPECT_ERROR_NAMES("table", "find");
    HT_CHECK_STATUS(hive_contains(table, n, b->keys, b->found, NULL), inv, "contains");
    HT_CHECK_STATUS(hive_erase(table, n, b->keys, b->results, NULL), inv, "erase");
    HT_CHECK_STATUS(hive_apply(table, n, b->ops, b->keys, b->values, HIVE_COMBINE_ADD, b->results,
                               NULL),
                    inv, "apply");
    HT_CHECK_STATUS(hive_insert(table, 0, NULL, NULL, HIVE_COMBINE_ASSIGN, NULL, NULL), inv,
                    "insert n = 0");
    HT_CHECK_STATUS(hive_size(table, &size), inv, "size");
    HT_CHECK_STATUS(hive_clear(table, NULL), inv, "clear");
    HT_CHECK_STATUS(hive_reserve(table, 100, NULL), inv, "reserve");
    HT_CHECK_STATUS(hive_export(table, 4, b->keys, b->values, &count, NULL), inv, "export");
    HT_CHECK_STATUS(hive_stats_get(table, &st), inv, "stats");
    HT_CHECK_STATUS(hive_get_config(table, &c), inv, "get_config");
    HT_CHECK_STATUS(hive_destroy(table), inv, "destroy");
    EXPECT_ERROR_NAMES("table", "destroy");
}

static void bad_handles(ht_batch *b)
{
    every_call_rejects(NULL, "NULL", b);
    /* A destroyed handle cannot be touched safely (use after free); a zeroed
     * block of memory stands for one: its magic is not hive's. */
    void *fake = calloc(1, 4096);
    every_call_rejects((hive_table *)fake, "zeroed fake", b);
    free(fake);
}

/* ---------------------------------------------------------------- arguments */

static void bad_arguments(hive_table *table, ht_batch *b)
{
    const ht_target *t = &target;
    ht_context("bad arguments (%s %s)", t->backend_name, t->width_name);
    const hive_status inv = HIVE_ERROR_INVALID_ARGUMENT;
    const uint64_t n = 8, huge = (1ull << 40) + 1;
    uint64_t size = 0, count = 0;
    for (uint64_t i = 0; i < n; i++) {
        ht_put(t, b->keys, i, 1000 + i);
        ht_put(t, b->values, i, i);
        b->ops[i] = HIVE_OP_UPSERT;
    }
    /* NULL arrays with n > 0, each named. */
#define NAMES(expr, what, why)                     \
    do {                                           \
        HT_CHECK_STATUS(expr, inv, why);           \
        EXPECT_ERROR_NAMES(what, why);             \
    } while (0)
    NAMES(hive_insert(table, n, NULL, b->values, HIVE_COMBINE_ADD, NULL, NULL), "keys",
          "insert keys NULL");
    NAMES(hive_insert(table, n, b->keys, NULL, HIVE_COMBINE_ADD, NULL, NULL), "values",
          "insert values NULL");
    NAMES(hive_find(table, n, NULL, b->values, b->found, NULL), "keys", "find keys NULL");
    NAMES(hive_find(table, n, b->keys, NULL, NULL, NULL), "values", "find values and found NULL");
    NAMES(hive_contains(table, n, NULL, b->found, NULL), "keys", "contains keys NULL");
    NAMES(hive_contains(table, n, b->keys, NULL, NULL), "found", "contains found NULL");
    NAMES(hive_erase(table, n, NULL, b->results, NULL), "keys", "erase keys NULL");
    NAMES(hive_apply(table, n, NULL, b->keys, b->values, HIVE_COMBINE_ADD, NULL, NULL), "ops",
          "apply ops NULL");
    NAMES(hive_apply(table, n, b->ops, NULL, b->values, HIVE_COMBINE_ADD, NULL, NULL), "keys",
          "apply keys NULL");
    NAMES(hive_apply(table, n, b->ops, b->keys, NULL, HIVE_COMBINE_ADD, NULL, NULL), "values",
          "apply values NULL");
    NAMES(hive_size(table, NULL), "size", "size NULL");
    NAMES(hive_export(table, n, b->keys, b->values, NULL, NULL), "count", "export count NULL");
    NAMES(hive_stats_get(table, NULL), "stats", "stats NULL");
    NAMES(hive_get_config(table, NULL), "config", "get_config NULL");
    /* n beyond 2^40. */
    NAMES(hive_insert(table, huge, b->keys, b->values, HIVE_COMBINE_ADD, NULL, NULL), "n",
          "insert n > 2^40");
    NAMES(hive_find(table, huge, b->keys, b->values, b->found, NULL), "n", "find n > 2^40");
    NAMES(hive_contains(table, huge, b->keys, b->found, NULL), "n", "contains n > 2^40");
    NAMES(hive_erase(table, huge, b->keys, NULL, NULL), "n", "erase n > 2^40");
    NAMES(hive_apply(table, huge, b->ops, b->keys, b->values, HIVE_COMBINE_ADD, NULL, NULL), "n",
          "apply n > 2^40");
    NAMES(hive_insert(table, ~0ull, b->keys, b->values, HIVE_COMBINE_ADD, NULL, NULL), "n",
          "insert n = 2^64 - 1");
    /* Combine modes outside hive_combine. */
    NAMES(hive_insert(table, n, b->keys, b->values, (hive_combine)5, NULL, NULL), "combine",
          "insert combine 5");
    NAMES(hive_insert(table, n, b->keys, b->values, (hive_combine)-1, NULL, NULL), "combine",
          "insert combine -1");
    NAMES(hive_apply(table, n, b->ops, b->keys, b->values, (hive_combine)9, NULL, NULL), "combine",
          "apply combine 9");
    /* Reserve beyond what a table can address. */
    NAMES(hive_reserve(table, (1ull << 37) + 1, NULL), "capacity", "reserve over 2^37");
#undef NAMES
    /* None of that touched the table. */
    HT_MUST(hive_size(table, &size));
    HT_CHECK_EQ(size, 0, "size after rejected calls");

    /* n = 0 with NULL arrays: success, nothing done. */
    HT_CHECK_STATUS(hive_insert(table, 0, NULL, NULL, HIVE_COMBINE_ADD, NULL, NULL), HIVE_SUCCESS,
                    "insert n = 0, NULL arrays");
    HT_CHECK_STATUS(hive_find(table, 0, NULL, NULL, NULL, NULL), HIVE_SUCCESS,
                    "find n = 0, NULL arrays");
    HT_CHECK_STATUS(hive_contains(table, 0, NULL, NULL, NULL), HIVE_SUCCESS,
                    "contains n = 0, NULL arrays");
    HT_CHECK_STATUS(hive_erase(table, 0, NULL, NULL, NULL), HIVE_SUCCESS,
                    "erase n = 0, NULL arrays");
    HT_CHECK_STATUS(hive_apply(table, 0, NULL, NULL, NULL, HIVE_COMBINE_ADD, NULL, NULL),
                    HIVE_SUCCESS, "apply n = 0, NULL arrays");
    HT_MUST(hive_size(table, &size));
    HT_CHECK_EQ(size, 0, "size after n = 0 calls");

    /* Optional arrays really are optional. */
    HT_CHECK_STATUS(hive_insert(table, n, b->keys, b->values, HIVE_COMBINE_ADD, NULL, NULL),
                    HIVE_SUCCESS, "insert results NULL");
    HT_CHECK_STATUS(hive_find(table, n, b->keys, NULL, b->found, NULL), HIVE_SUCCESS,
                    "find values NULL");
    HT_CHECK_STATUS(hive_find(table, n, b->keys, b->values, NULL, NULL), HIVE_SUCCESS,
                    "find found NULL");
    HT_CHECK_STATUS(hive_erase(table, n, b->keys, NULL, NULL), HIVE_SUCCESS, "erase results NULL");
    /* Export: keys NULL while there is something to write. */
    HT_CHECK_STATUS(hive_insert(table, n, b->keys, b->values, HIVE_COMBINE_ADD, NULL, NULL),
                    HIVE_SUCCESS, "insert again");
    HT_CHECK_STATUS(hive_export(table, n, NULL, b->values, &count, NULL), inv, "export keys NULL");
    HT_CHECK_STATUS(hive_export(table, n, b->keys, NULL, &count, NULL), inv,
                    "export values NULL");
    HT_MUST(hive_clear(table, NULL));
}

/* ---------------------------------------------------------------- reserved keys */

static void reserved_keys(hive_table *table, ht_batch *b)
{
    const ht_target *t = &target;
    ht_context("reserved keys (%s %s)", t->backend_name, t->width_name);
    /* Ordinary keys at even places, the four reserved keys at odd places. */
    const uint64_t n = 8;
    uint64_t keys[8];
    for (uint64_t i = 0; i < n; i++)
        keys[i] = i % 2 ? t->reserved_min + i / 2 : 77 + i;
    uint64_t max_ordinary = t->reserved_min - 1;
    keys[6] = max_ordinary; /* the largest ordinary key is not reserved */
    ht_ref ref;
    ht_ref_init(&ref);

    for (uint64_t i = 0; i < n; i++) {
        ht_put(t, b->keys, i, keys[i]);
        ht_put(t, b->values, i, 500 + i);
    }
    memset(b->results, HT_FLAG_POISON, n);
    HT_CHECK_STATUS(hive_insert(table, n, b->keys, b->values, HIVE_COMBINE_ASSIGN, b->results, NULL),
                    HIVE_ERROR_RESERVED_KEY, "insert with reserved keys");
    EXPECT_ERROR_NAMES("reserved", "insert with reserved keys");
    for (uint64_t i = 0; i < n; i++) {
        HT_CHECK_EQ(b->results[i], i % 2 ? HIVE_RESULT_REJECTED_RESERVED : HIVE_RESULT_INSERTED,
                    "insert element %llu (key 0x%llx)", (unsigned long long)i,
                    (unsigned long long)keys[i]);
        if (i % 2 == 0)
            ht_ref_put(&ref, keys[i], 500 + i);
    }
    ht_expect_contents(t, table, &ref, "after inserting with reserved keys");

    /* find / contains: reserved keys not found, values untouched. */
    for (uint64_t i = 0; i < n; i++)
        ht_put(t, b->values, i, 9);
    memset(b->found, HT_FLAG_POISON, n);
    HT_CHECK_STATUS(hive_find(table, n, b->keys, b->values, b->found, NULL),
                    HIVE_ERROR_RESERVED_KEY, "find with reserved keys");
    for (uint64_t i = 0; i < n; i++) {
        HT_CHECK_EQ(b->found[i], i % 2 ? 0 : 1, "find element %llu", (unsigned long long)i);
        HT_CHECK_EQ(ht_get(t, b->values, i), i % 2 ? 9 : 500 + i, "find value %llu",
                    (unsigned long long)i);
    }
    memset(b->found, HT_FLAG_POISON, n);
    HT_CHECK_STATUS(hive_contains(table, n, b->keys, b->found, NULL), HIVE_ERROR_RESERVED_KEY,
                    "contains with reserved keys");
    for (uint64_t i = 0; i < n; i++)
        HT_CHECK_EQ(b->found[i], i % 2 ? 0 : 1, "contains element %llu", (unsigned long long)i);

    /* apply: every op on a reserved key is rejected, the others run. */
    const uint8_t ops[8] = {HIVE_OP_FIND, HIVE_OP_FIND, HIVE_OP_UPSERT, HIVE_OP_INSERT,
                            HIVE_OP_ERASE, HIVE_OP_UPSERT, HIVE_OP_UPSERT, HIVE_OP_ERASE};
    const uint8_t want[8] = {HIVE_RESULT_FOUND, HIVE_RESULT_REJECTED_RESERVED, HIVE_RESULT_UPDATED,
                             HIVE_RESULT_REJECTED_RESERVED, HIVE_RESULT_ERASED,
                             HIVE_RESULT_REJECTED_RESERVED, HIVE_RESULT_UPDATED,
                             HIVE_RESULT_REJECTED_RESERVED};
    for (uint64_t i = 0; i < n; i++) {
        b->ops[i] = ops[i];
        ht_put(t, b->values, i, 1);
    }
    memset(b->results, HT_FLAG_POISON, n);
    HT_CHECK_STATUS(hive_apply(table, n, b->ops, b->keys, b->values, HIVE_COMBINE_ADD, b->results,
                               NULL),
                    HIVE_ERROR_RESERVED_KEY, "apply with reserved keys");
    for (uint64_t i = 0; i < n; i++)
        HT_CHECK_EQ(b->results[i], want[i], "apply element %llu (op %u): %s", (unsigned long long)i,
                    ops[i], ht_result_name(b->results[i]));
    HT_CHECK_EQ(ht_get(t, b->values, 0), 500, "apply FIND value");
    ht_ref_put(&ref, keys[2], 502 + 1);
    ht_ref_del(&ref, keys[4]);
    ht_ref_put(&ref, keys[6], 506 + 1);
    ht_expect_contents(t, table, &ref, "after apply with reserved keys");

    /* erase: reserved rejected, the others erased. */
    memset(b->results, HT_FLAG_POISON, n);
    HT_CHECK_STATUS(hive_erase(table, n, b->keys, b->results, NULL), HIVE_ERROR_RESERVED_KEY,
                    "erase with reserved keys");
    for (uint64_t i = 0; i < n; i++)
        HT_CHECK_EQ(b->results[i],
                    i % 2 ? HIVE_RESULT_REJECTED_RESERVED
                    : i == 4 ? HIVE_RESULT_NOT_FOUND
                             : HIVE_RESULT_ERASED,
                    "erase element %llu", (unsigned long long)i);
    ht_ref_clear(&ref);
    ht_expect_contents(t, table, &ref, "after erase with reserved keys");

    /* A batch of nothing but reserved keys. */
    for (uint64_t i = 0; i < 4; i++)
        ht_put(t, b->keys, i, t->reserved_min + i);
    memset(b->results, HT_FLAG_POISON, 4);
    HT_CHECK_STATUS(hive_insert(table, 4, b->keys, b->values, HIVE_COMBINE_KEEP, b->results, NULL),
                    HIVE_ERROR_RESERVED_KEY, "insert of reserved keys only");
    for (uint64_t i = 0; i < 4; i++)
        HT_CHECK_EQ(b->results[i], HIVE_RESULT_REJECTED_RESERVED, "reserved-only element %llu",
                    (unsigned long long)i);
    ht_expect_contents(t, table, &ref, "after reserved-only insert");
    ht_ref_free(&ref);
}

/* ---------------------------------------------------------------- bad op codes */

static void bad_ops(hive_table *table, ht_batch *b)
{
    const ht_target *t = &target;
    ht_context("bad op codes (%s %s)", t->backend_name, t->width_name);
    /* Keys 400 and 402 are present, for the FIND and ERASE beside the bad ops. */
    const uint64_t n = 8;
    ht_put(t, b->keys, 0, 400);
    ht_put(t, b->keys, 1, 402);
    ht_put(t, b->values, 0, 7);
    ht_put(t, b->values, 1, 8);
    HT_MUST(hive_insert(table, 2, b->keys, b->values, HIVE_COMBINE_ASSIGN, NULL, NULL));
    const uint8_t ops[8] = {HIVE_OP_INSERT, 4, HIVE_OP_UPSERT, 255, HIVE_OP_INSERT, 9,
                            HIVE_OP_FIND, HIVE_OP_ERASE};
    for (uint64_t i = 0; i < n; i++) {
        ht_put(t, b->keys, i, i < 6 ? 300 + i : 400 + 2 * (i - 6));
        ht_put(t, b->values, i, 40 + i);
        b->ops[i] = ops[i];
    }
    ht_put(t, b->keys, 5, t->reserved_min); /* a bad op code wins over a reserved key: NONE */
    memset(b->results, HT_FLAG_POISON, n);
    HT_CHECK_STATUS(hive_apply(table, n, b->ops, b->keys, b->values, HIVE_COMBINE_ASSIGN,
                               b->results, NULL),
                    HIVE_ERROR_INVALID_ARGUMENT, "apply with op codes 4, 255, 9");
    EXPECT_ERROR_NAMES("op", "apply with bad op codes");
    const uint8_t want[8] = {HIVE_RESULT_INSERTED, HIVE_RESULT_NONE, HIVE_RESULT_INSERTED,
                             HIVE_RESULT_NONE, HIVE_RESULT_INSERTED, HIVE_RESULT_NONE,
                             HIVE_RESULT_FOUND, HIVE_RESULT_ERASED};
    for (uint64_t i = 0; i < n; i++)
        HT_CHECK_EQ(b->results[i], want[i], "element %llu (op %u): %s", (unsigned long long)i,
                    ops[i], ht_result_name(b->results[i]));
    HT_CHECK_EQ(ht_get(t, b->values, 6), 7, "FIND beside bad ops wrote the value");
    ht_ref ref;
    ht_ref_init(&ref);
    ht_ref_put(&ref, 300, 40);
    ht_ref_put(&ref, 302, 42);
    ht_ref_put(&ref, 304, 44);
    ht_ref_put(&ref, 400, 7);
    ht_expect_contents(t, table, &ref, "after apply with bad op codes");

    /* values may be NULL when no element inserts: finds then write none. */
    ht_context("apply without values (%s %s)", t->backend_name, t->width_name);
    b->ops[0] = HIVE_OP_FIND;
    b->ops[1] = HIVE_OP_ERASE;
    ht_put(t, b->keys, 0, 300);
    ht_put(t, b->keys, 1, 302);
    memset(b->results, HT_FLAG_POISON, 2);
    HT_CHECK_STATUS(hive_apply(table, 2, b->ops, b->keys, NULL, HIVE_COMBINE_ASSIGN, b->results, NULL),
                    HIVE_SUCCESS, "apply of a FIND and an ERASE without values");
    HT_CHECK_EQ(b->results[0], HIVE_RESULT_FOUND, "FIND without values: %s", ht_result_name(b->results[0]));
    HT_CHECK_EQ(b->results[1], HIVE_RESULT_ERASED, "ERASE without values: %s", ht_result_name(b->results[1]));
    ht_ref_erase(&ref, 302);
    b->ops[1] = HIVE_OP_INSERT;
    ht_put(t, b->keys, 1, 306);
    memset(b->results, HT_FLAG_POISON, 2);
    HT_CHECK_STATUS(hive_apply(table, 2, b->ops, b->keys, NULL, HIVE_COMBINE_ASSIGN, b->results, NULL),
                    HIVE_ERROR_INVALID_ARGUMENT, "apply of an INSERT without values");
    EXPECT_ERROR_NAMES("values", "apply of an INSERT without values");
    HT_CHECK_EQ(b->results[0], HT_FLAG_POISON, "a refused apply wrote results");
    ht_expect_contents(t, table, &ref, "after apply without values");
    ht_ref_free(&ref);
    HT_MUST(hive_clear(table, NULL));
}

/* ---------------------------------------------------------------- refused arrays */

/* The pairs a refused call must leave alone: eight keys, stored at the start
 * of misaligned_arrays and other_device_memory. */
#define KNOWN 8
static uint64_t known_key(size_t i) { return 1000 + i; }
static uint64_t known_value(size_t i) { return 7 * i + 3; }

static void insert_known(hive_table *table, ht_batch *b, ht_ref *ref)
{
    ht_ref_clear(ref);
    for (size_t i = 0; i < KNOWN; i++) {
        ht_put(&target, b->keys, i, known_key(i));
        ht_put(&target, b->values, i, known_value(i));
        ht_ref_put(ref, known_key(i), known_value(i));
    }
    HT_MUST(hive_insert(table, KNOWN, b->keys, b->values, HIVE_COMBINE_ASSIGN, NULL, NULL));
}

/* After a refused call: the known pairs are all there is, and finds work
 * (through `scratch`, not the batch the calls take their arrays from). */
static void expect_still_works(hive_table *table, ht_batch *scratch, const ht_ref *ref,
                               const char *why)
{
    char where[160];
    snprintf(where, sizeof where, "after the refused %s", why);
    uint64_t size = 0;
    HT_MUST(hive_size(table, &size));
    HT_CHECK_EQ(size, KNOWN, "%s: size", where);
    ht_expect_finds(&target, table, ref, scratch, where);
}

/* A refused call: INVALID_ARGUMENT naming `what`, and the table as it was. */
#define EXPECT_REFUSED(expr, what, why)                                           \
    do {                                                                          \
        HT_CHECK_STATUS(expr, HIVE_ERROR_INVALID_ARGUMENT, "%s", why);            \
        EXPECT_ERROR_NAMES(what, why);                                            \
        expect_still_works(table, &scratch, &ref, why);                           \
    } while (0)

/* Element i of a key or value array that may not be aligned. */
static void put_unaligned(void *a, size_t i, uint64_t v)
{
    uint32_t v32 = (uint32_t)v;
    if (target.kv_bytes == 4)
        memcpy((char *)a + 4 * i, &v32, 4);
    else
        memcpy((char *)a + 8 * i, &v, 8);
}

/* Key and value arrays one byte and half an element past their alignment.
 * Their contents are harmless should a call take them anyway: the known
 * pairs (insert: ASSIGN of the same values; find, apply FIND), or absent keys
 * (erase), so that only the status tells. */
static void misaligned_arrays(hive_table *table, ht_batch *b)
{
    const ht_target *t = &target;
    const size_t w = t->kv_bytes, offsets[2] = {1, w / 2};
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch scratch;
    ht_batch_init(&scratch, t, KNOWN);
    insert_known(table, b, &ref);
    void *keys_block = ht_alloc(t, (KNOWN + 1) * w);
    void *values_block = ht_alloc(t, (KNOWN + 1) * w);
    for (size_t o = 0; o < 2; o++) {
        const size_t off = offsets[o];
        ht_context("arrays misaligned by %zu bytes (%s %s)", off, t->backend_name, t->width_name);
        void *keys = (char *)keys_block + off, *values = (char *)values_block + off;
        for (size_t i = 0; i < KNOWN; i++) {
            put_unaligned(keys, i, known_key(i));
            put_unaligned(values, i, known_value(i));
            ht_put(t, b->keys, i, known_key(i));
            ht_put(t, b->values, i, known_value(i));
            b->ops[i] = HIVE_OP_FIND;
        }
        uint64_t count = 0;
        EXPECT_REFUSED(hive_insert(table, KNOWN, keys, b->values, HIVE_COMBINE_ASSIGN, b->results,
                                   NULL),
                       "keys", "insert with misaligned keys");
        EXPECT_REFUSED(hive_insert(table, KNOWN, b->keys, values, HIVE_COMBINE_ASSIGN, b->results,
                                   NULL),
                       "values", "insert with misaligned values");
        EXPECT_REFUSED(hive_find(table, KNOWN, keys, b->values, b->found, NULL), "keys",
                       "find with misaligned keys");
        EXPECT_REFUSED(hive_find(table, KNOWN, b->keys, values, b->found, NULL), "values",
                       "find into misaligned values");
        EXPECT_REFUSED(hive_contains(table, KNOWN, keys, b->found, NULL), "keys",
                       "contains with misaligned keys");
        EXPECT_REFUSED(hive_apply(table, KNOWN, b->ops, keys, b->values, HIVE_COMBINE_ASSIGN,
                                  b->results, NULL),
                       "keys", "apply with misaligned keys");
        EXPECT_REFUSED(hive_apply(table, KNOWN, b->ops, b->keys, values, HIVE_COMBINE_ASSIGN,
                                  b->results, NULL),
                       "values", "apply with misaligned values");
        EXPECT_REFUSED(hive_export(table, KNOWN, keys, b->values, &count, NULL), "keys",
                       "export into misaligned keys");
        EXPECT_REFUSED(hive_export(table, KNOWN, b->keys, values, &count, NULL), "values",
                       "export into misaligned values");
        for (size_t i = 0; i < KNOWN; i++)
            put_unaligned(keys, i, known_key(KNOWN + i)); /* absent */
        EXPECT_REFUSED(hive_erase(table, KNOWN, keys, b->results, NULL), "keys",
                       "erase with misaligned keys");
    }
    ht_free(t, keys_block);
    ht_free(t, values_block);
    ht_batch_free(&scratch);
    ht_ref_free(&ref);
    HT_MUST(hive_clear(table, NULL));
}

/* ---------------------------------------------------------------- memory spaces, devices */

static void cuda_availability(void)
{
    ht_context("CUDA availability");
    hive_config c = HIVE_CONFIG_INIT;
    c.backend = HIVE_BACKEND_CUDA;
    hive_table *table = NULL;
    hive_status s = hive_create(&c, &table);
#ifdef HT_WITH_CUDA
    if (ht_require_gpu()) {
        printf("  (HIVE_REQUIRE_GPU=1: the no-GPU check is skipped; a CUDA table gave %s)\n",
               hive_status_string(s));
    } else {
        HT_CHECK(s == HIVE_SUCCESS || s == HIVE_ERROR_NO_DEVICE,
                 "a CUDA table with or without a GPU: SUCCESS or NO_DEVICE, got %s (%s)",
                 hive_status_string(s), hive_last_error());
        if (s == HIVE_ERROR_NO_DEVICE)
            HT_CHECK(hive_last_error()[0] != '\0', "NO_DEVICE without an explanation");
    }
#else
    HT_CHECK_STATUS(s, HIVE_ERROR_UNSUPPORTED, "a CUDA table from a build without CUDA");
#endif
    if (s == HIVE_SUCCESS)
        ht_close(table);
    /* AUTO resolves to a real backend. */
    c.backend = HIVE_BACKEND_AUTO;
    table = NULL;
    HT_MUST(hive_create(&c, &table));
    hive_config got = HIVE_CONFIG_INIT;
    HT_MUST(hive_get_config(table, &got));
    HT_CHECK(got.backend == HIVE_BACKEND_CPU || got.backend == HIVE_BACKEND_CUDA,
             "AUTO resolved to backend %d", (int)got.backend);
    ht_close(table);
}

/* Plain malloc memory given to a CUDA table. */
static void pageable_pointers(hive_table *table)
{
    const ht_target *t = &target;
    ht_context("pageable host memory on a CUDA table");
    uint64_t *host = calloc(64, sizeof(uint64_t));
    uint8_t *flags = calloc(64, 1);
    HT_CHECK_STATUS(hive_insert(table, 8, host, host + 16, HIVE_COMBINE_ASSIGN, NULL, NULL),
                    HIVE_ERROR_INVALID_ARGUMENT, "insert from pageable memory");
    EXPECT_ERROR_NAMES("keys", "insert from pageable memory");
    HT_CHECK_STATUS(hive_find(table, 8, host, NULL, flags, NULL), HIVE_ERROR_INVALID_ARGUMENT,
                    "find into pageable memory");
    ht_batch b;
    ht_batch_init(&b, t, 8);
    for (int i = 0; i < 8; i++)
        ht_put(t, b.keys, (size_t)i, (uint64_t)i);
    HT_CHECK_STATUS(hive_find(table, 8, b.keys, NULL, flags, NULL), HIVE_ERROR_INVALID_ARGUMENT,
                    "find with device keys, pageable found");
    EXPECT_ERROR_NAMES("found", "pageable found");
    ht_batch_free(&b);
    free(host);
    free(flags);
}

/* Device memory of a second GPU, which the table's GPU (device 0) has no
 * peer access to: this process never enables it.  A kernel of the table
 * would fault on it, so each call must refuse it up front. */
static void other_device_memory(hive_table *table, ht_batch *b)
{
    const ht_target *t = &target;
    ht_context("memory of another GPU (%s %s)", t->backend_name, t->width_name);
#ifdef HT_WITH_CUDA
    int devices = ht_cuda_device_count();
    if (devices < 2) {
        printf("  (%d CUDA device%s: the other-GPU memory case needs two and is skipped)\n",
               devices, devices == 1 ? "" : "s");
        return;
    }
    char why[256] = "";
    const int other = 1;
    void *keys = ht_cuda_alloc_on_device(other, KNOWN * t->kv_bytes, why, sizeof why);
    void *values = ht_cuda_alloc_on_device(other, KNOWN * t->kv_bytes, why, sizeof why);
    uint8_t *flags = ht_cuda_alloc_on_device(other, KNOWN, why, sizeof why);
    if (keys == NULL || values == NULL || flags == NULL)
        ht_fatal("cannot allocate memory on CUDA device %d: %s", other, why);
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch scratch;
    ht_batch_init(&scratch, t, KNOWN);
    insert_known(table, b, &ref);
    for (size_t i = 0; i < KNOWN; i++)
        b->ops[i] = HIVE_OP_FIND;
    EXPECT_REFUSED(hive_insert(table, KNOWN, keys, b->values, HIVE_COMBINE_ASSIGN, b->results,
                               NULL),
                   "keys", "insert with keys on another GPU");
    EXPECT_REFUSED(hive_insert(table, KNOWN, b->keys, values, HIVE_COMBINE_ASSIGN, b->results,
                               NULL),
                   "values", "insert with values on another GPU");
    EXPECT_REFUSED(hive_insert(table, KNOWN, b->keys, b->values, HIVE_COMBINE_ASSIGN, flags,
                               NULL),
                   "results", "insert with results on another GPU");
    EXPECT_REFUSED(hive_find(table, KNOWN, keys, b->values, b->found, NULL), "keys",
                   "find with keys on another GPU");
    EXPECT_REFUSED(hive_find(table, KNOWN, b->keys, values, b->found, NULL), "values",
                   "find into values on another GPU");
    EXPECT_REFUSED(hive_find(table, KNOWN, b->keys, b->values, flags, NULL), "found",
                   "find into found flags on another GPU");
    EXPECT_REFUSED(hive_erase(table, KNOWN, keys, b->results, NULL), "keys",
                   "erase with keys on another GPU");
    EXPECT_REFUSED(hive_apply(table, KNOWN, flags, b->keys, b->values, HIVE_COMBINE_ASSIGN,
                              b->results, NULL),
                   "ops", "apply with op codes on another GPU");
    ht_cuda_free_on_device(other, keys);
    ht_cuda_free_on_device(other, values);
    ht_cuda_free_on_device(other, flags);
    ht_batch_free(&scratch);
    ht_ref_free(&ref);
    HT_MUST(hive_clear(table, NULL));
#else
    (void)table;
    (void)b;
#endif
}

static int overcommit_always(void)
{
    FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
    int mode = 0;
    if (f != NULL) {
        if (fscanf(f, "%d", &mode) != 1)
            mode = 0;
        fclose(f);
    }
    return mode == 1;
}

/* Bytes of host memory (RAM + swap), or 0 if unknown. */
static uint64_t host_memory(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    uint64_t total = 0, kb;
    char key[64];
    if (f == NULL)
        return 0;
    while (fscanf(f, "%63s %llu kB", key, (unsigned long long *)&kb) == 2)
        if (strcmp(key, "MemTotal:") == 0 || strcmp(key, "SwapTotal:") == 0)
            total += kb * 1024;
    fclose(f);
    return total;
}

static void expect_create_oom(const hive_config *c, const char *what)
{
    hive_table *big = (hive_table *)(uintptr_t)0x1234;
    HT_CHECK_STATUS(hive_create(c, &big), HIVE_ERROR_OUT_OF_MEMORY, "%s", what);
    HT_CHECK(big == (hive_table *)(uintptr_t)0x1234, "a failed hive_create wrote *table (%s)",
             what);
    HT_CHECK(hive_last_error()[0] != '\0', "OUT_OF_MEMORY without an explanation (%s)", what);
    if (big != (hive_table *)(uintptr_t)0x1234 && big != NULL)
        hive_destroy(big);
}

static void out_of_memory(hive_table *table)
{
    const ht_target *t = &target;
    ht_context("out of memory (%s %s)", t->backend_name, t->width_name);
    if (t->backend == HIVE_BACKEND_CPU && overcommit_always()) {
        printf("  (vm.overcommit_memory = 1: a huge host table would be granted and then "
               "touched; the out-of-memory checks are skipped)\n");
        return;
    }
    /* The largest table the config allows: 2^37 slots (1 or 2 TiB). */
    hive_config c = ht_config(t);
    c.initial_capacity = 1ull << 37;
    expect_create_oom(&c, "a table of 2^37 slots");
    /* One the hash can address (2^30 buckets of 32 slots), whose memory
     * must really be asked for and refused: 256 or 512 GiB.  Only where that
     * is far beyond this machine's memory. */
    c.initial_capacity = 1ull << 35;
    c.bucket_slots = 32;
    uint64_t bytes = c.initial_capacity * 2 * t->kv_bytes, have = host_memory();
    if (t->backend == HIVE_BACKEND_CUDA || (have > 0 && bytes > 4 * have))
        expect_create_oom(&c, "a table of 2^35 slots in 32-slot buckets");
    else
        printf("  (%llu GiB of host memory: the %llu GiB table is not tried)\n",
               (unsigned long long)(have >> 30), (unsigned long long)(bytes >> 30));

    /* reserve that cannot be had leaves the table as it was. */
    ht_batch b;
    ht_batch_init(&b, t, 1000);
    ht_ref ref;
    ht_ref_init(&ref);
    for (uint64_t i = 0; i < 1000; i++) {
        ht_put(t, b.keys, i, i * 7919);
        ht_put(t, b.values, i, i);
        ht_ref_put(&ref, i * 7919, i);
    }
    HT_MUST(hive_insert(table, 1000, b.keys, b.values, HIVE_COMBINE_ASSIGN, NULL, NULL));
    hive_stats st0, st1;
    HT_MUST(hive_stats_get(table, &st0));
    HT_CHECK_STATUS(hive_reserve(table, 1ull << 37, NULL), HIVE_ERROR_OUT_OF_MEMORY,
                    "reserve 2^37 keys");
    HT_MUST(hive_stats_get(table, &st1));
    HT_CHECK_EQ(st1.capacity, st0.capacity, "capacity after a failed reserve");
    ht_expect_contents(t, table, &ref, "after a failed reserve");
    ht_expect_finds(t, table, &ref, &b, "after a failed reserve");
    ht_ref_free(&ref);
    ht_batch_free(&b);
    HT_MUST(hive_clear(table, NULL));
}

int main(int argc, char **argv)
{
    static char name[96];
    const char *usage = "<cpu|cuda> <kv32|kv64>";
    if (argc < 3) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    ht_target_from_args(&target, argc, argv, 1, usage);
    snprintf(name, sizeof name, "bad input %s %s", target.backend_name, target.width_name);
    ht_begin(name);

    status_strings();
    bad_configs();
    if (target.backend == HIVE_BACKEND_CPU) {
        cuda_availability();
        older_headers();
    }

    ht_context("opening (%s %s)", target.backend_name, target.width_name);
    hive_config c = ht_config(&target);
    c.absent_filter_bits = 8;
    hive_table *table = ht_open(&target, &c); /* may skip: CUDA without GPU */
    hive_config got;
    hive_config_init(&got);
    HT_CHECK_STATUS(hive_get_config(table, &got), HIVE_SUCCESS, "hive_get_config");
    HT_CHECK_EQ(got.absent_filter_bits, target.backend == HIVE_BACKEND_CPU ? 8u : 0u,
                "absent_filter_bits reported (a CPU table's option; CUDA tables ignore it)");
    ht_batch b;
    ht_batch_init(&b, &target, 64);
    bad_handles(&b);
    bad_arguments(table, &b);
    reserved_keys(table, &b);
    bad_ops(table, &b);
    misaligned_arrays(table, &b);
    if (target.backend == HIVE_BACKEND_CUDA) {
        pageable_pointers(table);
        other_device_memory(table, &b);
    }
    out_of_memory(table);
    ht_batch_free(&b);
    ht_close(table);
    return ht_finish();
}
