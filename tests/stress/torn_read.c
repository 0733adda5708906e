/* torn_read.c — a reader never sees a key with another key's value, nor half
 * of one write and half of another (issue 6: one 16-byte CAS publishes a KV64
 * pair, one 8-byte CAS a KV32 pair).
 *
 * Each round is one hive_apply batch in which every key of a small set gets
 * WRITES assigns and FINDS finds, interleaved, so that they all run at once
 * (one launch on the GPU; the CPU backend splits the batch across its
 * threads).  A value encodes the round and write that made it in its high
 * half, and a checksum of the key and that round in its low half: a value
 * made of two writes, or of another key's write, fails the checksum.  The
 * keys are inserted before the first round and never erased, so every find
 * must also hit.
 *
 * Usage: hive-torn-read [cpu|cuda] [kv32|kv64] */
#include "hivetest.h"

#define KEYS 4096
#define WRITES 8
#define FINDS 8
#define ROUNDS 40

/* The value written by write `w` of round `r` for `key`, in a width of
 * `bits` (32 or 64). */
static uint64_t encode(uint64_t key, uint64_t stamp, unsigned bits)
{
    unsigned half = bits / 2;
    uint64_t low_mask = (1ull << half) - 1;
    uint64_t state = key;
    uint64_t sum = (ht_splitmix64(&state) ^ (stamp * 0x9E3779B97F4A7C15ull)) & low_mask;
    return ((stamp & low_mask) << half) | sum;
}

static int valid(uint64_t key, uint64_t value, unsigned bits)
{
    unsigned half = bits / 2;
    return encode(key, value >> half, bits) == value;
}

int main(int argc, char **argv)
{
    ht_target t;
    ht_target_from_args(&t, argc, argv, 1, "hive-torn-read [cpu|cuda] [kv32|kv64]");
    ht_require_backend(&t);
    ht_begin("torn-read");
    ht_context("torn read (%s %s)", t.backend_name, t.width_name);
    unsigned bits = (unsigned)t.kv_bytes * 8;

    hive_config c = ht_config(&t);
    c.initial_capacity = 4 * KEYS;
    hive_table *table = ht_open(&t, &c);

    size_t per_key = WRITES + FINDS, n = (size_t)KEYS * per_key;
    void *keys = ht_alloc(&t, n * t.kv_bytes);
    void *values = ht_alloc(&t, n * t.kv_bytes);
    uint8_t *ops = ht_alloc(&t, n);
    uint8_t *results = ht_alloc(&t, n);
    ht_rng rng;
    ht_rng_seed(&rng, 6);
    uint64_t base = ht_rng_next(&rng) % (t.reserved_min / 2);

    /* The keys, present before the first round. */
    for (size_t k = 0; k < KEYS; k++) {
        ht_put(&t, keys, k, base + k);
        ht_put(&t, values, k, encode(base + k, 0, bits));
    }
    HT_MUST(hive_insert(table, KEYS, keys, values, HIVE_COMBINE_ASSIGN, NULL, NULL));

    uint64_t bad_value = 0, missed = 0, finds = 0;
    for (unsigned r = 1; r <= ROUNDS; r++) {
        /* Element j*KEYS + k: key k's j-th operation, writes and finds
         * alternating, so that neighbours in the batch race on other keys
         * and each key's operations are spread over the whole launch. */
        for (size_t j = 0; j < per_key; j++)
            for (size_t k = 0; k < KEYS; k++) {
                size_t i = j * KEYS + k;
                uint64_t key = base + k;
                ht_put(&t, keys, i, key);
                if (j % 2 == 0 && j / 2 < WRITES) {
                    ops[i] = HIVE_OP_UPSERT;
                    ht_put(&t, values, i, encode(key, (uint64_t)r * per_key + j + 1, bits));
                } else {
                    ops[i] = HIVE_OP_FIND;
                    ht_put(&t, values, i, 0);
                }
            }
        HT_MUST(hive_apply(table, n, ops, keys, values, HIVE_COMBINE_ASSIGN, results, NULL));
        for (size_t i = 0; i < n; i++) {
            if (ops[i] != HIVE_OP_FIND)
                continue;
            finds++;
            uint64_t key = ht_get(&t, keys, i), value = ht_get(&t, values, i);
            if (results[i] != HIVE_RESULT_FOUND)
                missed++;
            else if (!valid(key, value, bits) && bad_value++ < 5)
                HT_CHECK(0, "round %u: key %llu read value 0x%llx, which no single write made",
                         r, (unsigned long long)key, (unsigned long long)value);
        }
    }
    HT_CHECK_EQ(bad_value, 0, "torn or foreign values among %llu finds", (unsigned long long)finds);
    HT_CHECK_EQ(missed, 0, "finds that missed a key present throughout");

    /* The final values are each some round's write. */
    for (size_t k = 0; k < KEYS; k++)
        ht_put(&t, keys, k, base + k);
    HT_MUST(hive_find(table, KEYS, keys, values, results, NULL));
    uint64_t final_bad = 0;
    for (size_t k = 0; k < KEYS; k++)
        final_bad += !results[k] || !valid(base + k, ht_get(&t, values, k), bits);
    HT_CHECK_EQ(final_bad, 0, "keys whose final value no single write made");

    ht_free(&t, keys);
    ht_free(&t, values);
    ht_free(&t, ops);
    ht_free(&t, results);
    ht_close(table);
    return ht_finish();
}
