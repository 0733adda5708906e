/* bad_input.c — the two-level table's argument checks.
 *
 *   hive-tiered-bad_input <cpu|cuda> [--scale F]
 *
 * Configs: NULL, not from the initialiser (struct_size, version), every
 * field out of range: INVALID_ARGUMENT and no handle.  Calls: a NULL handle,
 * NULL arrays with n > 0, n over 2^40: INVALID_ARGUMENT with nothing done;
 * n = 0 with NULL arrays: SUCCESS; NULL outputs of size, stats and
 * get_config.  Reserved keys (HIVE_KV64_RESERVED_MIN and up) mixed with
 * plain ones in upsert, find and erase: RESERVED_KEY, the plain keys done,
 * the reserved ones skipped (never stored, found 0 with the value entry
 * untouched, result REJECTED_RESERVED).  NULL values and found flags of a
 * find are allowed.  The resolved config (hot backend, capacity rounded to
 * whole buckets); AUTO resolves to a backend that works (the CPU without a
 * GPU); the hot tier's hash seed drawn per table by default, a fixed one
 * kept, configs of versions 1, 2 and 3 (without it, without write_back,
 * without hot_dual_bucket) accepted; write_back and hot_dual_bucket above 1
 * refused.  A handle that is not one.
 * With a CUDA hot tier, device memory as any array of any call:
 * INVALID_ARGUMENT naming it (the host reads and writes every array).
 *
 * Out of memory, injected (HIVE_TEST_FAIL_ALLOC=N in a child, N rising until
 * everything had memory): a create that runs out writes no handle; an
 * upsert whose cold write runs out (the cold table must grow for it)
 * returns OUT_OF_MEMORY; under write-through its keys' hot copies are
 * dropped and the cold tier answers each (no hot hit), under write-back
 * the keys with hot copies read their new values from them (as many hot
 * hits as had copies); every other key reads its old or its new value, the
 * same in a second find, and the size counts the keys found.  A failed
 * write-back of updated copies leaving the hot tier (injected,
 * HIVE_TEST_FAIL_WRITE_BACK): the call that evicted them fails; once, and
 * the next call writes them and reads the latest values; always, and every
 * later call fails having done nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "tiered_test.h"

static ht_target T;

static void bad_config(hive_tiered_config c, const char *what)
{
    hive_tiered *t = (hive_tiered *)(uintptr_t)0x1;
    HT_CHECK_STATUS(hive_tiered_create(&c, &t), HIVE_ERROR_INVALID_ARGUMENT, "config: %s", what);
    HT_CHECK(t == (hive_tiered *)(uintptr_t)0x1, "config %s: the handle was written", what);
    HT_CHECK(strlen(hive_last_error()) > 0, "config %s: no error text", what);
}

/* A table made from c as an older header's config (version, struct_size):
 * it must read back as this header's; returns what it reads back. */
static hive_tiered_config older_config(hive_tiered_config c, uint32_t version, uint32_t struct_size)
{
    c.version = version;
    c.struct_size = struct_size;
    hive_tiered *t = tt_open(&T, &c);
    hive_tiered_config g;
    HT_MUST(hive_tiered_get_config(t, &g));
    HT_CHECK(g.version == HIVE_TIERED_CONFIG_VERSION && g.struct_size == sizeof g,
             "a version-%u config reads back as version %u of %u bytes", version, g.version, g.struct_size);
    tt_close(t);
    return g;
}

/* hash_seed: drawn per table by default and reported; a fixed one kept; a
 * version-1 config (an older header's, 48 bytes, without the field) taken
 * with the default, a version-2 one (56 bytes, without write_back) as
 * write-through, a version-3 one (64 bytes, hot_dual_bucket's place its
 * padding) with two hot buckets a key; other sizes and versions refused. */
static void seeds(hive_tiered_config c)
{
    c.hot_capacity = 64;
    c.hash_seed = HIVE_HASH_SEED_RANDOM;
    hive_tiered *t1 = tt_open(&T, &c), *t2 = tt_open(&T, &c);
    hive_tiered_config g1, g2;
    HT_MUST(hive_tiered_get_config(t1, &g1));
    HT_MUST(hive_tiered_get_config(t2, &g2));
    HT_CHECK(g1.hash_seed != HIVE_HASH_SEED_RANDOM && g2.hash_seed != HIVE_HASH_SEED_RANDOM,
             "%s", "a drawn seed is reported");
    HT_CHECK(g1.hash_seed != g2.hash_seed, "two tables drew one seed %llu", (unsigned long long)g1.hash_seed);
    tt_close(t1);
    tt_close(t2);
    c.hash_seed = 12345;
    t1 = tt_open(&T, &c);
    HT_MUST(hive_tiered_get_config(t1, &g1));
    HT_CHECK_EQ(g1.hash_seed, 12345, "%s", "a fixed seed");
    tt_close(t1);

    /* Version 1 (48 bytes, without hash_seed): a drawn seed; version 2 (56
     * bytes, without write_back): write-through; version 3 (64 bytes,
     * without hot_dual_bucket): two buckets.  The fields past each are set,
     * and must not be read. */
    hive_tiered_config v1 = c, v2 = c, v3 = c;
    v1.hash_seed = 12345;
    v2.write_back = 1;
    v3.write_back = 1;
    v3.hot_dual_bucket = 0xA5A5A5A5u; /* padding to a version-3 header */
    g1 = older_config(v1, 1, 48);
    HT_CHECK(g1.hash_seed != HIVE_HASH_SEED_RANDOM && g1.hash_seed != 12345, "version 1: seed %llu",
             (unsigned long long)g1.hash_seed);
    g1 = older_config(v2, 2, 56);
    HT_CHECK(g1.hash_seed == c.hash_seed && g1.write_back == 0, "version 2: seed %llu write_back %u",
             (unsigned long long)g1.hash_seed, g1.write_back);
    g1 = older_config(v3, 3, 64);
    HT_CHECK(g1.write_back == 1 && g1.hot_dual_bucket == 1, "version 3: write_back %u hot_dual_bucket %u",
             g1.write_back, g1.hot_dual_bucket);
    v1.version = 1, v1.struct_size = 48;
    v2.version = 2, v2.struct_size = 56;
    hive_tiered_config b = c;
    b.version = 1;
    bad_config(b, "version 1 with version 4's size");
    b = v1, b.version = 2;
    bad_config(b, "version 2 with version 1's size");
    b = c, b.version = 2;
    bad_config(b, "version 2 with version 4's size");
    b = v2, b.version = 3;
    bad_config(b, "version 3 with version 2's size");
    b = v2, b.version = 4;
    bad_config(b, "version 4 with version 2's size");
}

static void configs(void)
{
    hive_tiered *t = NULL;
    hive_tiered_config c = tt_config(&T);
    HT_CHECK_STATUS(hive_tiered_create(NULL, &t), HIVE_ERROR_INVALID_ARGUMENT, "%s", "NULL config");
    HT_CHECK_STATUS(hive_tiered_create(&c, NULL), HIVE_ERROR_INVALID_ARGUMENT, "%s", "NULL handle");
    hive_tiered_config b = c;
    b.struct_size = 8;
    bad_config(b, "struct_size");
    b = c, b.version = 99;
    bad_config(b, "version");
    b = c, b.hot_backend = (hive_backend)7;
    bad_config(b, "hot_backend");
    b = c, b.device = -1;
    bad_config(b, "device");
    b = c, b.hot_capacity = 0;
    bad_config(b, "hot_capacity 0");
    b = c, b.cold_capacity = 0;
    bad_config(b, "cold_capacity 0");
    b = c, b.promote = (hive_tiered_promote)5;
    bad_config(b, "promote");
    b = c, b.batch = 0;
    bad_config(b, "batch 0");
    b = c, b.batch = (1u << 28) + 1;
    bad_config(b, "batch over 2^28");
    b = c, b.threads = 5000;
    bad_config(b, "threads");
    b = c, b.promote_one_in = 0;
    bad_config(b, "promote_one_in 0");
    b = c, b.write_back = 2;
    bad_config(b, "write_back 2");
    b = c, b.hot_dual_bucket = 2;
    bad_config(b, "hot_dual_bucket 2");

    /* AUTO: a GPU hot tier where there is one, else a CPU one; resolved either way. */
    hive_tiered_config a = c;
    a.hot_backend = HIVE_BACKEND_AUTO;
    a.hot_capacity = 64;
    hive_tiered *auto_t = NULL;
    HT_CHECK_STATUS(hive_tiered_create(&a, &auto_t), HIVE_SUCCESS, "%s", "AUTO hot backend");
    if (auto_t != NULL) {
        HT_MUST(hive_tiered_get_config(auto_t, &a));
        HT_CHECK(a.hot_backend == HIVE_BACKEND_CPU || a.hot_backend == HIVE_BACKEND_CUDA,
                 "AUTO resolved to %d", (int)a.hot_backend);
        uint64_t k = 7, v = 70, out = 0;
        uint8_t f = 0;
        HT_MUST(hive_tiered_upsert(auto_t, 1, &k, &v, NULL));
        HT_MUST(hive_tiered_find(auto_t, 1, &k, &out, &f, NULL));
        HT_CHECK(f == 1 && out == 70, "AUTO table: found %u value %llu", f, (unsigned long long)out);
        tt_close(auto_t);
    }

    hive_tiered_config d;
    hive_tiered_config_init(&d);
    hive_tiered_config init = HIVE_TIERED_CONFIG_INIT;
    /* Field by field: the padding of either is unspecified. */
    HT_CHECK(d.struct_size == init.struct_size && d.version == init.version &&
                 d.hot_backend == init.hot_backend && d.device == init.device &&
                 d.hot_capacity == init.hot_capacity && d.cold_capacity == init.cold_capacity &&
                 d.promote == init.promote && d.batch == init.batch && d.threads == init.threads &&
                 d.promote_one_in == init.promote_one_in && d.hash_seed == init.hash_seed &&
                 d.write_back == 0 && init.write_back == 0 && d.hot_dual_bucket == 1 &&
                 init.hot_dual_bucket == 1,
             "%s", "hive_tiered_config_init differs from the macro");
    hive_tiered_config_init(NULL);
    seeds(c);
}

static void calls(void)
{
    hive_tiered_config c = tt_config(&T);
    c.hot_capacity = 100;
    c.batch = 64;
    hive_tiered *t = tt_open(&T, &c);
    hive_tiered_config got;
    HT_CHECK_STATUS(hive_tiered_get_config(t, &got), HIVE_SUCCESS, "%s", "get_config");
    HT_CHECK_EQ(got.hot_capacity, 128, "%s", "hot capacity rounded up to whole 32-slot buckets");
    HT_CHECK_EQ(got.hot_backend, T.backend, "%s", "hot backend");
    HT_CHECK(got.threads == 2, "threads %u", got.threads);
    HT_CHECK_STATUS(hive_tiered_get_config(t, NULL), HIVE_ERROR_INVALID_ARGUMENT, "%s", "get_config NULL");

    uint64_t keys[8] = {1, 2, HIVE_KV64_RESERVED_MIN, 3, UINT64_MAX, 4, HIVE_KV64_RESERVED_MIN + 1, 5};
    uint64_t values[8] = {10, 20, 30, 40, 50, 60, 70, 80};
    uint64_t out[8];
    uint8_t flags[8];
    uint64_t size = 0;

    /* NULL handle, NULL arrays, too many keys, n = 0. */
    HT_CHECK_STATUS(hive_tiered_upsert(NULL, 1, keys, values, NULL), HIVE_ERROR_INVALID_ARGUMENT, "%s",
                    "upsert NULL handle");
    HT_CHECK_STATUS(hive_tiered_find(NULL, 1, keys, out, flags, NULL), HIVE_ERROR_INVALID_ARGUMENT, "%s",
                    "find NULL handle");
    HT_CHECK_STATUS(hive_tiered_erase(NULL, 1, keys, flags, NULL), HIVE_ERROR_INVALID_ARGUMENT, "%s",
                    "erase NULL handle");
    HT_CHECK_STATUS(hive_tiered_size(NULL, &size), HIVE_ERROR_INVALID_ARGUMENT, "%s", "size NULL handle");
    HT_CHECK_STATUS(hive_tiered_destroy(NULL), HIVE_ERROR_INVALID_ARGUMENT, "%s", "destroy NULL");
    HT_CHECK_STATUS(hive_tiered_upsert(t, 1, NULL, values, NULL), HIVE_ERROR_INVALID_ARGUMENT, "%s",
                    "upsert NULL keys");
    HT_CHECK_STATUS(hive_tiered_upsert(t, 1, keys, NULL, NULL), HIVE_ERROR_INVALID_ARGUMENT, "%s",
                    "upsert NULL values");
    HT_CHECK_STATUS(hive_tiered_find(t, 1, NULL, out, flags, NULL), HIVE_ERROR_INVALID_ARGUMENT, "%s",
                    "find NULL keys");
    HT_CHECK_STATUS(hive_tiered_erase(t, 1, NULL, flags, NULL), HIVE_ERROR_INVALID_ARGUMENT, "%s",
                    "erase NULL keys");
    HT_CHECK_STATUS(hive_tiered_upsert(t, (1ull << 40) + 1, keys, values, NULL), HIVE_ERROR_INVALID_ARGUMENT,
                    "%s", "upsert n over 2^40");
    HT_CHECK_STATUS(hive_tiered_upsert(t, 0, NULL, NULL, NULL), HIVE_SUCCESS, "%s", "upsert n = 0");
    HT_CHECK_STATUS(hive_tiered_find(t, 0, NULL, NULL, NULL, NULL), HIVE_SUCCESS, "%s", "find n = 0");
    HT_CHECK_STATUS(hive_tiered_erase(t, 0, NULL, NULL, NULL), HIVE_SUCCESS, "%s", "erase n = 0");
    HT_CHECK_STATUS(hive_tiered_size(t, NULL), HIVE_ERROR_INVALID_ARGUMENT, "%s", "size NULL");
    HT_CHECK_STATUS(hive_tiered_stats_get(t, NULL), HIVE_ERROR_INVALID_ARGUMENT, "%s", "stats NULL");
    HT_CHECK_STATUS(hive_tiered_size(t, &size), HIVE_SUCCESS, "%s", "size");
    HT_CHECK_EQ(size, 0, "%s", "nothing stored by the rejected calls");

    /* Reserved keys among plain ones. */
    HT_CHECK_STATUS(hive_tiered_upsert(t, 8, keys, values, NULL), HIVE_ERROR_RESERVED_KEY, "%s",
                    "upsert with reserved keys");
    HT_CHECK(strstr(hive_last_error(), "3 keys") != NULL, "error text: %s", hive_last_error());
    HT_MUST(hive_tiered_size(t, &size));
    HT_CHECK_EQ(size, 5, "%s", "the plain keys stored, the reserved ones not");
    /* Finds from the test's array memory too (HIVE_TIERED_TEST_MEMORY),
     * which a CUDA hot tier may take as it is. */
    uint64_t *akeys = tt_array(&T, sizeof keys), *aout = tt_array(&T, sizeof out);
    uint8_t *aflags = tt_array(&T, sizeof flags);
    memcpy(akeys, keys, sizeof keys);
    for (int pass = 0; pass < 2; pass++) {
        uint64_t *k = pass ? akeys : keys, *o = pass ? aout : out;
        uint8_t *f = pass ? aflags : flags;
        for (int i = 0; i < 8; i++)
            o[i] = 0xDEAD;
        memset(f, 2, 8);
        HT_CHECK_STATUS(hive_tiered_find(t, 8, k, o, f, NULL), HIVE_ERROR_RESERVED_KEY, "%s",
                        "find with reserved keys");
        for (int i = 0; i < 8; i++) {
            int res = keys[i] >= HIVE_KV64_RESERVED_MIN;
            HT_CHECK(f[i] == !res && o[i] == (res ? 0xDEAD : values[i]),
                     "find key %d (%s arrays): found %u value %llx", i, pass ? tt_memory_name() : "stack", f[i],
                     (unsigned long long)o[i]);
        }
        HT_CHECK_STATUS(hive_tiered_find(t, 8, k, NULL, NULL, NULL), HIVE_ERROR_RESERVED_KEY, "%s",
                        "find without outputs");
    }
    tt_array_free(&T, akeys);
    tt_array_free(&T, aout);
    tt_array_free(&T, aflags);
    HT_CHECK_STATUS(hive_tiered_find(t, 2, keys, NULL, flags, NULL), HIVE_SUCCESS, "%s", "find, flags only");
    HT_CHECK(flags[0] == 1 && flags[1] == 1, "%s", "find, flags only: found");
    memset(flags, 0xEE, sizeof flags);
    HT_CHECK_STATUS(hive_tiered_erase(t, 8, keys, flags, NULL), HIVE_ERROR_RESERVED_KEY, "%s",
                    "erase with reserved keys");
    for (int i = 0; i < 8; i++)
        HT_CHECK_EQ(flags[i], keys[i] >= HIVE_KV64_RESERVED_MIN ? HIVE_RESULT_REJECTED_RESERVED : HIVE_RESULT_ERASED,
                    "erase key %d", i);
    HT_MUST(hive_tiered_size(t, &size));
    HT_CHECK_EQ(size, 0, "%s", "every plain key erased");
    HT_CHECK_STATUS(hive_tiered_erase(t, 8, keys, NULL, NULL), HIVE_ERROR_RESERVED_KEY, "%s",
                    "erase without results");

    /* Not a handle: a zeroed block as large as a handle's first bytes. */
    uint64_t *fake = calloc(512, sizeof *fake);
    HT_CHECK(fake != NULL, "%s", "calloc");
    HT_CHECK_STATUS(hive_tiered_size((hive_tiered *)fake, &size), HIVE_ERROR_INVALID_ARGUMENT, "%s",
                    "size of a foreign handle");
    HT_CHECK_STATUS(hive_tiered_destroy((hive_tiered *)fake), HIVE_ERROR_INVALID_ARGUMENT, "%s",
                    "destroy of a foreign handle");
    free(fake);
    tt_close(t);
}

/* ---------------------------------------------------------------- out of memory, injected */

#define OOM_OLD 48    /* keys with hot copies before the failing upsert */
#define OOM_NEW 2000  /* new keys of it, past the cold table's 256 slots */

/* Whether each of keys[0..n) has a hot copy (a find of it alone hits the
 * hot tier; finds promote nothing here). */
static void hot_copies(hive_tiered *t, uint64_t n, const uint64_t *keys, uint8_t *hot)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t before = tt_stats(t).hot_hits;
        HT_MUST(hive_tiered_find(t, 1, keys + i, NULL, NULL, NULL));
        hot[i] = tt_stats(t).hot_hits != before;
    }
}

/* What a find of keys[0..n) says after a failed upsert of them.  Under
 * write-back a key with a hot copy before it (had_copy) is found with
 * new[i], from the copy; under write-through (had_copy all 0) the copies
 * were dropped and the cold tier answers every key.  Any other found key
 * has old[i] or new[i].  Returns how many were found. */
static uint64_t after_failure(hive_tiered *t, uint64_t n, const uint64_t *keys, const uint64_t *old,
                              const uint64_t *new, const uint8_t *had_copy, uint64_t *values, uint8_t *found)
{
    hive_tiered_stats before = tt_stats(t);
    HT_MUST(hive_tiered_find(t, n, keys, values, found, NULL));
    uint64_t copies = 0;
    for (uint64_t i = 0; i < n; i++)
        copies += had_copy[i];
    HT_CHECK_EQ(tt_stats(t).hot_hits - before.hot_hits, copies, "%s", "hot hits among the failed upsert's keys");
    uint64_t count = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (!found[i]) {
            HT_CHECK(old[i] == 0, "key %llu, present before the failed upsert, is gone", (unsigned long long)i);
            continue;
        }
        count++;
        if (had_copy[i])
            HT_CHECK(values[i] == new[i], "key %llu, with a hot copy: value %llu", (unsigned long long)i,
                     (unsigned long long)values[i]);
        HT_CHECK(values[i] == new[i] || (old[i] != 0 && values[i] == old[i]), "key %llu: value %llu",
                 (unsigned long long)i, (unsigned long long)values[i]);
    }
    return count;
}

/* The child: HIVE_TEST_FAIL_ALLOC=N is set.  Exit HT_OOM_EXIT: create ran
 * out; HT_OOM_EXIT + 1: the upsert ran out (and was checked); 0: everything
 * had memory. */
static int oom_child(void)
{
    ht_begin("tiered bad_input oom child");
    hive_tiered_config c = tt_config(&T);
    c.hot_capacity = 64;
    c.cold_capacity = 256;
    c.batch = 4096;
    c.promote = HIVE_TIERED_PROMOTE_NEVER;
    hive_tiered *sentinel = (hive_tiered *)(uintptr_t)0x1234, *t = sentinel;
    hive_status s = hive_tiered_create(&c, &t);
    if (s == HIVE_ERROR_OUT_OF_MEMORY) {
        HT_CHECK(t == sentinel, "%s", "a create out of memory wrote *tiered");
        return ht_finish() == 0 ? HT_OOM_EXIT : 1;
    }
    if (s != HIVE_SUCCESS)
        t = tt_open(&T, &c); /* skip rules */
    enum { N = OOM_OLD + OOM_NEW };
    static uint64_t keys[N], old[N], new[N], values[N], values2[N];
    static uint8_t found[N], found2[N], had_copy[N];
    for (uint64_t i = 0; i < N; i++) {
        keys[i] = 0x9E3779B97F4A7C15ull * (i + 1) >> 1;
        old[i] = i < OOM_OLD ? 1000 + i : 0;
        new[i] = 5000 + i;
    }
    HT_MUST(hive_tiered_upsert(t, OOM_OLD, keys, old, NULL));
    HT_CHECK(tt_stats(t).hot_size > 0, "%s", "no hot copies before the failing upsert");
    if (c.write_back)
        hot_copies(t, OOM_OLD, keys, had_copy); /* the new keys have none */
    s = hive_tiered_upsert(t, N, keys, new, NULL);
    int code = 0;
    if (s == HIVE_ERROR_OUT_OF_MEMORY) {
        code = HT_OOM_EXIT + 1;
        HT_CHECK(strlen(hive_last_error()) > 0, "%s", "no error text");
        uint64_t count = after_failure(t, N, keys, old, new, had_copy, values, found);
        HT_MUST(hive_tiered_find(t, N, keys, values2, found2, NULL));
        for (uint64_t i = 0; i < N; i++)
            HT_CHECK(found2[i] == found[i] && (!found[i] || values2[i] == values[i]),
                     "key %llu changed between two finds", (unsigned long long)i);
        uint64_t size = 0;
        HT_MUST(hive_tiered_size(t, &size));
        HT_CHECK_EQ(size, count, "%s", "size after the failed upsert");
    } else {
        HT_CHECK_STATUS(s, HIVE_SUCCESS, "%s", "the upsert");
        HT_MUST(hive_tiered_find(t, N, keys, values, found, NULL));
        for (uint64_t i = 0; i < N; i++)
            HT_CHECK(found[i] && values[i] == new[i], "key %llu: found %u value %llu", (unsigned long long)i,
                     found[i], (unsigned long long)values[i]);
    }
    tt_close(t);
    int f = ht_finish();
    return f == 0 ? code : f;
}

/* ---------------------------------------------------------------- a failed write-back, injected */

/* The child of failed_write_back (HIVE_TEST_FAIL_WRITE_BACK set: "0", the
 * first write-back of evicted dirty copies fails; "0+", every one does).
 * The hot tier's copies are made dirty by a second upsert, then a find
 * promotes other keys over them and its write-back fails: the find
 * returns OUT_OF_MEMORY.  With one failure, the next call writes them and
 * every key reads its latest value; with every one failing, every later
 * call that reads or writes keys fails having done nothing, and the size
 * still counts every key.  Exit 0 when every check passed. */
static int write_back_child(int every)
{
    ht_begin("tiered bad_input write-back child");
    hive_tiered_config c = tt_config(&T);
    c.hot_capacity = 64;
    c.cold_capacity = 4096;
    c.batch = 4096;
    c.write_back = 1;
    hive_tiered *t = tt_open(&T, &c);
    enum { N = 512 };
    static uint64_t keys[N], values[N], got[N];
    static uint8_t found[N];
    for (uint64_t i = 0; i < N; i++) {
        keys[i] = 0x9E3779B97F4A7C15ull * (i + 1) >> 1;
        values[i] = 1000 + i;
    }
    HT_MUST(hive_tiered_upsert(t, N, keys, values, NULL));
    for (uint64_t i = 0; i < N; i++)
        values[i] = 9000 + i;
    HT_MUST(hive_tiered_upsert(t, N, keys, values, NULL)); /* the copies are dirty now */
    HT_CHECK(tt_stats(t).hot_size > 0, "%s", "no hot copies");
    HT_CHECK_STATUS(hive_tiered_find(t, N, keys, got, found, NULL), HIVE_ERROR_OUT_OF_MEMORY, "%s",
                    "a find whose write-back fails");
    HT_CHECK(strstr(hive_last_error(), "written to the cold tier") != NULL, "error text: %s", hive_last_error());
    memset(got, 0xEE, sizeof got);
    memset(found, 0xEE, sizeof found);
    if (every) {
        HT_CHECK_STATUS(hive_tiered_find(t, N, keys, got, found, NULL), HIVE_ERROR_OUT_OF_MEMORY, "%s",
                        "a find while copies wait");
        HT_CHECK(got[0] == 0xEEEEEEEEEEEEEEEEull && found[0] == 0xEE && found[N - 1] == 0xEE, "%s",
                 "a find that failed wrote its outputs");
        HT_CHECK_STATUS(hive_tiered_upsert(t, N, keys, values, NULL), HIVE_ERROR_OUT_OF_MEMORY, "%s",
                        "an upsert while copies wait");
        HT_CHECK_STATUS(hive_tiered_erase(t, N, keys, NULL, NULL), HIVE_ERROR_OUT_OF_MEMORY, "%s",
                        "an erase while copies wait");
    } else {
        HT_MUST(hive_tiered_find(t, N, keys, got, found, NULL));
        for (uint64_t i = 0; i < N; i++)
            HT_CHECK(found[i] && got[i] == values[i], "key %llu: found %u value %llu (latest %llu)",
                     (unsigned long long)i, found[i], (unsigned long long)got[i],
                     (unsigned long long)values[i]);
    }
    uint64_t size = 0;
    HT_MUST(hive_tiered_size(t, &size));
    HT_CHECK_EQ(size, N, "%s", "size");
    tt_close(t);
    return ht_finish();
}

static void failed_write_back(const char *self)
{
    ht_context("a failed write-back, injected (%s)", T.backend_name);
    char *argv[] = {(char *)self, (char *)T.backend_name, "--oom-child", NULL};
    const char *modes[] = {"0", "0+"};
    for (int m = 0; m < 2; m++) {
        int rc = ht_run_child(argv, "HIVE_TEST_FAIL_WRITE_BACK", modes[m], 60);
        HT_CHECK(rc == 0, "child with HIVE_TEST_FAIL_WRITE_BACK=%s exited %d", modes[m], rc);
    }
}

#ifdef HT_WITH_CUDA
/* buffers_cuda.c: memory of a given GPU. */
void *ht_cuda_alloc_on_device(int device, size_t bytes, char *why, size_t why_len);
void ht_cuda_free_on_device(int device, void *p);
#endif

/* Device memory, which the host loops cannot touch, as any array of any
 * call (CUDA hot tier): INVALID_ARGUMENT naming the array, nothing done. */
static void device_arrays(void)
{
#ifdef HT_WITH_CUDA
    if (T.backend != HIVE_BACKEND_CUDA)
        return;
    ht_context("device memory as a call's arrays");
    hive_tiered_config c = tt_config(&T);
    c.hot_capacity = 128;
    hive_tiered *t = tt_open(&T, &c);
    char why[256] = "";
    uint64_t *dev = ht_cuda_alloc_on_device(0, 64 * sizeof(uint64_t), why, sizeof why);
    if (dev == NULL)
        ht_fatal("cannot allocate device memory: %s", why);
    uint64_t keys[4] = {1, 2, 3, 4}, values[4] = {5, 6, 7, 8};
    uint8_t flags[4];
    struct {
        hive_status s;
        const char *what, *call;
    } cases[] = {
        {hive_tiered_upsert(t, 4, dev, values, NULL), "keys", "upsert"},
        {hive_tiered_upsert(t, 4, keys, dev, NULL), "values", "upsert"},
        {hive_tiered_find(t, 4, dev, values, flags, NULL), "keys", "find"},
        {hive_tiered_find(t, 4, keys, dev, flags, NULL), "values", "find"},
        {hive_tiered_find(t, 4, keys, values, (uint8_t *)dev, NULL), "found", "find"},
        {hive_tiered_erase(t, 4, dev, flags, NULL), "keys", "erase"},
        {hive_tiered_erase(t, 4, keys, (uint8_t *)dev, NULL), "results", "erase"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        HT_CHECK_EQ(cases[i].s, HIVE_ERROR_INVALID_ARGUMENT, "%s with %s in device memory", cases[i].call,
                    cases[i].what);
    HT_CHECK_STATUS(hive_tiered_erase(t, 4, dev, flags, NULL), HIVE_ERROR_INVALID_ARGUMENT, "%s",
                    "erase with device keys");
    HT_CHECK(strstr(hive_last_error(), "keys is device memory") != NULL, "error text: %s", hive_last_error());
    uint64_t size = 1;
    HT_MUST(hive_tiered_size(t, &size));
    HT_CHECK_EQ(size, 0, "%s", "nothing stored by the refused calls");
    ht_cuda_free_on_device(0, dev);
    tt_close(t);
#endif
}

static void injected_oom(const char *self)
{
    ht_context("out of memory injected (%s)", T.backend_name);
    char *argv[] = {(char *)self, (char *)T.backend_name, "--oom-child", NULL};
    int seen[2]; /* create, the upsert */
    if (ht_oom_sweep(argv, 200, seen, 2) != 1)
        return;
    HT_CHECK(seen[0] > 0 && seen[1] > 0, "create ran out of memory %d times, the upsert %d", seen[0], seen[1]);
    printf("  out of memory: create failed cleanly for %d values of HIVE_TEST_FAIL_ALLOC, the upsert for %d\n",
           seen[0], seen[1]);
}

int main(int argc, char **argv)
{
    const char *usage = "<cpu|cuda> [--scale F] [--oom-child]";
    ct_target_from_args(&T, argc, argv, usage);
    if (ct_oom_child_args(argc, argv, usage)) {
        const char *write_back = getenv("HIVE_TEST_FAIL_WRITE_BACK");
        return write_back != NULL ? write_back_child(strchr(write_back, '+') != NULL) : oom_child();
    }
    static char name[64];
    snprintf(name, sizeof name, "tiered bad_input %s", T.backend_name);
    ht_begin(name);
    configs();
    calls();
    device_arrays();
    injected_oom(argv[0]);
    failed_write_back(argv[0]);
    return ht_finish();
}
