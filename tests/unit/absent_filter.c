/* absent_filter.c — a CPU table with an absent-key filter
 * (hive_config.absent_filter_bits, src/cpu/cpu_filter.h), through the public
 * API, against the reference of which keys were inserted:
 *
 *   hive-absent-filter <kv32|kv64>
 *
 * every key found with its value and no absent key found, after a fill that
 * grows the table (the filter is made anew after each growth), in one batch
 * of stretches of hits and of misses (where the loop stops and resumes
 * reading the filter), after
 * erasing three quarters (the table shrinks, and the filter is made anew),
 * a mixed hive_apply batch, after hive_clear (nothing found) and a refill;
 * and the filter's memory in hive_stats.bytes_held
 * (bits per slot, against the same table without it).  The suites run over
 * filtered tables too (tests/CMakeLists.txt, "absent-key filter"). */
#include <stdio.h>
#include <stdlib.h>

#include "hivetest.h"

#define KEYS 200000u

static ht_target target;

/* Key i of the present set (odd) and of the absent set (even): never equal. */
static uint64_t present_key(uint64_t i) { return (i * 0x9E3779B97F4A7C15ull) | 1u; }
static uint64_t absent_key(uint64_t i) { return (i * 0xC2B2AE3D27D4EB4Full) & ~1ull; }

/* A key of the table's width, of the same parity (so the sets stay apart),
 * below the reserved keys. */
static uint64_t clip(uint64_t k) { return (k >> (target.width == HIVE_KV32 ? 35 : 3)) << 1 | (k & 1u); }

typedef struct arrays {
    void *keys, *values, *out;
    uint8_t *found;
} arrays;

static void put(void *a, uint64_t i, uint64_t v)
{
    if (target.width == HIVE_KV32)
        ((uint32_t *)a)[i] = (uint32_t)v;
    else
        ((uint64_t *)a)[i] = v;
}

static uint64_t get(const void *a, uint64_t i)
{
    return target.width == HIVE_KV32 ? ((const uint32_t *)a)[i] : ((const uint64_t *)a)[i];
}

/* keys [first, first + n) of one set into a->keys, each value its key + 1. */
static void fill(arrays *a, uint64_t first, uint64_t n, int present)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = clip(present ? present_key(first + i) : absent_key(first + i));
        put(a->keys, i, k);
        put(a->values, i, k + 1);
    }
}

/* Finds the n keys in a->keys: found with value key + 1 where `expect`, else absent. */
static void expect_found(hive_table *t, arrays *a, uint64_t n, int expect, const char *what)
{
    HT_CHECK_STATUS(hive_find(t, n, a->keys, a->out, a->found, NULL), HIVE_SUCCESS, "find %s", what);
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < n; i++)
        wrong += expect ? !a->found[i] || get(a->out, i) != get(a->keys, i) + 1 : a->found[i] != 0;
    HT_CHECK_EQ(wrong, 0ull, "%s: keys %s", what, expect ? "not found with their values" : "found");
}

static uint64_t bytes_held(hive_table *t)
{
    hive_stats s;
    HT_CHECK_STATUS(hive_stats_get(t, &s), HIVE_SUCCESS, "hive_stats_get");
    return s.bytes_held;
}

int main(int argc, char **argv)
{
    static char name[64];
    const char *usage = "<kv32|kv64>";
    if (argc < 2) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    char *args[] = {argv[0], "cpu", argv[1]};
    ht_target_from_args(&target, 3, args, 1, usage);
    snprintf(name, sizeof name, "absent_filter cpu %s", target.width_name);
    ht_begin(name);

    size_t w = target.width == HIVE_KV32 ? 4 : 8;
    arrays a = {malloc(KEYS * w), malloc(KEYS * w), malloc(KEYS * w), malloc(KEYS)};
    HT_CHECK(a.keys && a.values && a.out && a.found, "host memory for %u keys", KEYS);

    ht_context("memory");
    hive_config c = ht_config(&target);
    c.initial_capacity = 1u << 16;
    c.absent_filter_bits = 0;
    hive_table *plain = ht_open(&target, &c);
    c.absent_filter_bits = 16;
    hive_table *t = ht_open(&target, &c);
    hive_config got;
    hive_config_init(&got);
    HT_CHECK_STATUS(hive_get_config(t, &got), HIVE_SUCCESS, "hive_get_config");
    HT_CHECK_EQ(got.absent_filter_bits, 16u, "absent_filter_bits reported");
    hive_stats s;
    HT_CHECK_STATUS(hive_stats_get(t, &s), HIVE_SUCCESS, "hive_stats_get");
    uint64_t filter_bytes = bytes_held(t) - bytes_held(plain);
    HT_CHECK(filter_bytes >= s.capacity * 2 && filter_bytes <= s.capacity * 2 + 8192,
             "the filter holds 16 bits a slot: %llu bytes for %llu slots", (unsigned long long)filter_bytes,
             (unsigned long long)s.capacity);
    ht_close(plain);

    ht_context("a fill that grows the table");
    for (uint64_t at = 0; at < KEYS; at += KEYS / 4) {
        fill(&a, at, KEYS / 4, 1);
        HT_CHECK_STATUS(hive_insert(t, KEYS / 4, a.keys, a.values, HIVE_COMBINE_ASSIGN, NULL, NULL), HIVE_SUCCESS,
                        "insert");
    }
    HT_CHECK_STATUS(hive_stats_get(t, &s), HIVE_SUCCESS, "hive_stats_get");
    HT_CHECK(s.capacity >= KEYS && s.size == KEYS, "grown to %llu slots, %llu keys",
             (unsigned long long)s.capacity, (unsigned long long)s.size);
    fill(&a, 0, KEYS, 1);
    expect_found(t, &a, KEYS, 1, "every key inserted");
    fill(&a, 0, KEYS, 0);
    expect_found(t, &a, KEYS, 0, "keys never inserted");

    ht_context("one batch in stretches of hits and of misses");
    /* The loop stops reading words where finds mostly hit (cpu_kernels_body.h,
     * K_FILTER_SAMPLE) and reads them again where they miss: stretches of
     * 20,000 present keys, then of 20,000 absent ones, in turn. */
    for (uint64_t i = 0; i < KEYS; i++) {
        int present = i / 20000 % 2 == 0;
        uint64_t k = clip(present ? present_key(i) : absent_key(i));
        put(a.keys, i, k);
    }
    HT_CHECK_STATUS(hive_find(t, KEYS, a.keys, a.out, a.found, NULL), HIVE_SUCCESS, "find in stretches");
    uint64_t misanswered = 0;
    for (uint64_t i = 0; i < KEYS; i++)
        misanswered += i / 20000 % 2 == 0 ? !a.found[i] || get(a.out, i) != get(a.keys, i) + 1 : a.found[i] != 0;
    HT_CHECK_EQ(misanswered, 0ull, "stretches of hits and misses: wrong answers");

    ht_context("erasing three quarters: the table shrinks");
    uint64_t grown = s.capacity, left = KEYS / 4;
    fill(&a, 0, KEYS - left, 1);
    HT_CHECK_STATUS(hive_erase(t, KEYS - left, a.keys, NULL, NULL), HIVE_SUCCESS, "erase");
    HT_CHECK_STATUS(hive_stats_get(t, &s), HIVE_SUCCESS, "hive_stats_get");
    HT_CHECK(s.capacity < grown && s.size == left, "shrunk from %llu to %llu slots, %llu keys",
             (unsigned long long)grown, (unsigned long long)s.capacity, (unsigned long long)s.size);
    expect_found(t, &a, KEYS - left, 0, "erased keys");
    fill(&a, KEYS - left, left, 1);
    expect_found(t, &a, left, 1, "the keys left, after the filter was made anew");

    ht_context("a mixed batch");
    /* finds of present and absent keys, inserts of new ones, erases */
    uint8_t *ops = malloc(KEYS);
    HT_CHECK(ops != NULL, "host memory for ops");
    for (uint64_t i = 0; i < KEYS; i++) {
        uint64_t k = i % 4 == 0 ? present_key(KEYS - left + i / 4) : i % 4 == 1 ? absent_key(i) : present_key(i / 4);
        put(a.keys, i, clip(k));
        put(a.values, i, clip(k) + 1);
        ops[i] = i % 4 <= 1 ? HIVE_OP_FIND : HIVE_OP_UPSERT;
    }
    uint8_t *results = malloc(KEYS);
    HT_CHECK(results != NULL, "host memory for results");
    HT_CHECK_STATUS(hive_apply(t, KEYS, ops, a.keys, a.values, HIVE_COMBINE_ASSIGN, results, NULL), HIVE_SUCCESS,
                    "hive_apply");
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < KEYS; i++)
        wrong += i % 4 == 0 ? results[i] != HIVE_RESULT_FOUND : i % 4 == 1 ? results[i] != HIVE_RESULT_NOT_FOUND : 0;
    HT_CHECK_EQ(wrong, 0ull, "results of the batch's finds");
    for (uint64_t i = 0; i < KEYS / 4; i++)
        put(a.keys, i, clip(present_key(i)));
    expect_found(t, &a, KEYS / 4, 1, "the keys the batch upserted");

    ht_context("hive_clear, then a refill");
    HT_CHECK_STATUS(hive_clear(t, NULL), HIVE_SUCCESS, "hive_clear");
    fill(&a, 0, KEYS, 1);
    expect_found(t, &a, KEYS, 0, "keys of the cleared table");
    HT_CHECK_STATUS(hive_insert(t, KEYS, a.keys, a.values, HIVE_COMBINE_ASSIGN, NULL, NULL), HIVE_SUCCESS,
                    "insert");
    expect_found(t, &a, KEYS, 1, "every key of the refill");

    ht_close(t);
    free(ops);
    free(results);
    free(a.keys);
    free(a.values);
    free(a.out);
    free(a.found);
    return ht_finish();
}
