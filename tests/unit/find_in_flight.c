/* find_in_flight.c — a CPU find that meets its key frozen in its first
 * bucket (a cuckoo move under way, src/designs/hive/protocol.h R5) waits for
 * the move to end instead of answering "not found".
 *
 * The frozen slot is made by hand, in a table of the Hive design: the key's
 * first bucket full of other keys, the key's own slot frozen (MOVING), its
 * second bucket without it.  A finder thread runs a batch of finds through
 * the CPU backend's loops (src/cpu/cpu_kernels_body.h: finds alone run in two
 * stages, the second buckets read from a queue later, which widens the
 * window in which a move can end between the two reads).  After a pause the
 * main thread ends the move one of the two ways a chain ends
 * (core/move_body.h):
 *
 *   applied  the key's pair CASed into its second bucket, then the frozen
 *            slot overwritten by another key;
 *   thawed   the frozen slot given its key back.
 *
 * The find must answer "found" with the key's value either way; the batch's
 * other keys (in b1, absent) must answer as they are.  Both key widths.
 *
 *   hive-find-in-flight */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_table.h"
#include "designs/designs.h"
#include "hivetest.h"

#define BUCKETS 64u
#define SLOTS 4u         /* slots a bucket */
#define BATCH 64u        /* finds a batch: the frozen key's among others */
#define PAUSE_NS 20000000 /* between the finder's start and the end of the move */

typedef struct table {
    int kv64;
    hive_view view;
    _Alignas(16) uint64_t words[BUCKETS * SLOTS * 2]; /* KV64 slots are 16-byte atomics */
    uint32_t locks[BUCKETS / 32];
} table;

typedef struct finder {
    const table *t;
    hive_batch batch;
    uint64_t keys[BATCH];
    uint64_t values[BATCH];
    uint8_t found[BATCH], results[BATCH];
    pthread_t thread;
} finder;

static uint32_t hash1(const table *t, uint64_t k)
{
    return t->kv64 ? hive_hash1_kv64(&t->view, k) : hive_hash1_kv32(&t->view, (uint32_t)k);
}
static uint32_t hash2(const table *t, uint64_t k)
{
    return t->kv64 ? hive_hash2_kv64(&t->view, k) : hive_hash2_kv32(&t->view, (uint32_t)k);
}
static uint64_t bucket1(const table *t, uint64_t k) { return hive_bucket_of(t->view.ix, hash1(t, k)); }
static uint64_t bucket2(const table *t, uint64_t k) { return hive_bucket_of(t->view.ix, hash2(t, k)); }

static uint64_t reserved_key(const table *t, int which) /* 0 EMPTY, 1 MOVING */
{
    if (t->kv64)
        return which ? HIVE_K64_MOVING : HIVE_K64_EMPTY;
    return which ? HIVE_K32_MOVING : HIVE_K32_EMPTY;
}

static void set_slot(table *t, uint64_t bucket, uint32_t j, uint64_t key, uint64_t value)
{
    uint64_t at = bucket * SLOTS + j;
    if (t->kv64) {
        hive_u128 *s = (hive_u128 *)t->view.slots + at;
        __atomic_store_n(s, ((hive_u128)value << 64) | key, __ATOMIC_RELEASE);
    } else {
        __atomic_store_n(t->view.slots + at, hive_pack32((uint32_t)key, (uint32_t)value), __ATOMIC_RELEASE);
    }
}

static void table_init(table *t, int kv64)
{
    memset(t, 0, sizeof *t);
    t->kv64 = kv64;
    t->view.slots = t->words;
    t->view.locks = t->locks;
    t->view.ix = hive_index_for(BUCKETS);
    t->view.design = HIVE_DESIGN_ID_HIVE;
    hive_view_set_seed(&t->view, 0x5eedull);
    for (uint64_t b = 0; b < BUCKETS; b++)
        for (uint32_t j = 0; j < SLOTS; j++)
            set_slot(t, b, j, reserved_key(t, 0), 0);
}

static uint64_t value_of(uint64_t key) { return (key * 7 + 3) & 0xFFFFFFFFu; }

static void *find_all(void *arg)
{
    finder *f = arg;
    const hive_cpu_kernels *k = f->t->kv64 ? &hive_cpu_kernels_kv64 : &hive_cpu_kernels_kv32;
    hive_cpu_tally tally;
    memset(&tally, 0, sizeof tally);
    k->run_range(&f->t->view, SLOTS, 1, NULL, &f->batch, 0, BATCH, &tally);
    return NULL;
}

static void put_key(const finder *f, uint32_t i, uint64_t key)
{
    if (f->t->kv64)
        ((uint64_t *)f->keys)[i] = key;
    else
        ((uint32_t *)f->keys)[i] = (uint32_t)key;
}

static void run(int kv64, int applied)
{
    const char *name = applied ? "applied" : "thawed";
    table *t = malloc(sizeof *t);
    finder *f = malloc(sizeof *f);
    if (t == NULL || f == NULL)
        ht_fatal("out of memory");
    table_init(t, kv64);

    /* The key in flight: b1 and b2 apart; b1 filled with keys of their own
     * first bucket there (so the table stays one R5 allows), one slot
     * frozen. */
    uint64_t key = 1;
    while (bucket1(t, key) == bucket2(t, key))
        key++;
    uint64_t b1 = bucket1(t, key), b2 = bucket2(t, key);
    uint64_t others[SLOTS - 1], newcomer = 0;
    uint32_t n_others = 0;
    for (uint64_t c = key + 1; n_others < SLOTS - 1 || newcomer == 0; c++) {
        if (bucket1(t, c) != b1)
            continue;
        if (n_others < SLOTS - 1)
            others[n_others++] = c;
        else
            newcomer = c;
    }
    for (uint32_t j = 0; j < SLOTS - 1; j++)
        set_slot(t, b1, j, others[j], value_of(others[j]));
    set_slot(t, b1, SLOTS - 1, reserved_key(t, 1), value_of(key));

    /* The batch: the key in flight first and last, b1's keys, and keys
     * no bucket holds. */
    memset(f, 0, sizeof *f);
    f->t = t;
    uint32_t absent = 0;
    for (uint32_t i = 0; i < BATCH; i++) {
        uint64_t k;
        if (i == 0 || i == BATCH - 1)
            k = key;
        else if (i % 4 == 1)
            k = others[i % (SLOTS - 1)];
        else
            k = 1000000 + i; /* never placed */
        absent += k >= 1000000;
        put_key(f, i, k);
    }
    f->batch.n = BATCH;
    f->batch.op = HIVE_OP_FIND;
    f->batch.keys = f->keys;
    f->batch.values_out = f->values;
    f->batch.found = f->found;
    f->batch.results = f->results;
    memset(f->found, 0xAA, sizeof f->found);

    if (pthread_create(&f->thread, NULL, find_all, f) != 0)
        ht_fatal("pthread_create failed");
    struct timespec pause = {0, PAUSE_NS};
    nanosleep(&pause, NULL);
    if (applied) { /* the copy first, then the frozen slot reused (R5) */
        set_slot(t, b2, 0, key, value_of(key));
        set_slot(t, b1, SLOTS - 1, newcomer, value_of(newcomer));
    } else {
        set_slot(t, b1, SLOTS - 1, key, value_of(key));
    }
    pthread_join(f->thread, NULL);

    uint32_t wrong = 0;
    for (uint32_t i = 0; i < BATCH; i++) {
        uint64_t k = kv64 ? f->keys[i] : ((uint32_t *)f->keys)[i];
        uint64_t v = kv64 ? f->values[i] : ((uint32_t *)f->values)[i];
        int want = k < 1000000;
        if (f->found[i] != want || f->results[i] != (want ? HIVE_RESULT_FOUND : HIVE_RESULT_NOT_FOUND) ||
            (want && v != value_of(k)))
            wrong++;
    }
    HT_CHECK(f->found[0] == 1 && f->found[BATCH - 1] == 1, "KV%d, %s move: the key in flight not found",
             kv64 ? 64 : 32, name);
    HT_CHECK_EQ(wrong, 0, "KV%d, %s move: elements answered wrongly (%u absent among %u)", kv64 ? 64 : 32,
                name, absent, BATCH);
    free(f);
    free(t);
}

int main(void)
{
    ht_begin("find_in_flight");
    for (int kv64 = 0; kv64 < 2; kv64++)
        for (int applied = 0; applied < 2; applied++)
            run(kv64, applied);
    return ht_finish();
}
