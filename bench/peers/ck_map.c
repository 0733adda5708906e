/* ck_map.c — Concurrency Kit's ck_ht for cpu-compare (see ck_map.h):
 * CK_HT_MODE_DIRECT (keys and values are the words themselves, key 0 the
 * empty marker), sized for n at init, single producer: one writer inserts
 * (ck_ht_put_spmc), then reader threads find (ck_ht_get_spmc), each a
 * contiguous share of the keys. */
#define _POSIX_C_SOURCE 200809L

#include "ck_map.h"

#include <ck_ht.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/harness.h"

static void *ck_malloc_fn(size_t r) { return malloc(r); }
static void *ck_realloc_fn(void *p, size_t o, size_t n, bool d)
{
    (void)o;
    (void)d;
    return realloc(p, n);
}
static void ck_free_fn(void *p, size_t b, bool r)
{
    (void)b;
    (void)r;
    free(p);
}
static struct ck_malloc ck_alloc = {ck_malloc_fn, ck_realloc_fn, ck_free_fn};

typedef struct ck_reader {
    ck_ht_t *ht;
    const uint64_t *keys, *values;
    uint64_t lo, hi;
    int64_t bad;
} ck_reader;

static void *ck_read(void *p)
{
    ck_reader *r = p;
    int64_t bad = 0;
    for (uint64_t i = r->lo; i < r->hi; i++) {
        ck_ht_hash_t h;
        ck_ht_entry_t e;
        ck_ht_hash_direct(&h, r->ht, (uintptr_t)r->keys[i]);
        ck_ht_entry_key_set_direct(&e, (uintptr_t)r->keys[i]);
        if (!ck_ht_get_spmc(r->ht, h, &e) || ck_ht_entry_value_direct(&e) != (uintptr_t)r->values[i])
            bad++;
    }
    r->bad = bad;
    return NULL;
}

int64_t bench_ck_run(uint64_t n, const uint64_t *keys, const uint64_t *values, uint32_t readers,
                     double *ti, double *tf)
{
    ck_ht_t ht;
    ck_reader *r = calloc(readers, sizeof *r);
    pthread_t *tid = calloc(readers, sizeof *tid);
    int *started = calloc(readers, sizeof *started);
    if (r == NULL || tid == NULL || started == NULL ||
        !ck_ht_init(&ht, CK_HT_MODE_DIRECT, NULL, &ck_alloc, n, 0x48495645u)) {
        fprintf(stderr, "cpu-compare: ck_ht_init failed\n");
        free(r);
        free(tid);
        free(started);
        return -1;
    }
    int64_t bad = 0;
    double t0 = bench_now();
    for (uint64_t i = 0; i < n; i++) {
        ck_ht_hash_t h;
        ck_ht_entry_t e;
        ck_ht_hash_direct(&h, &ht, (uintptr_t)keys[i]);
        ck_ht_entry_set_direct(&e, h, (uintptr_t)keys[i], (uintptr_t)values[i]);
        if (!ck_ht_put_spmc(&ht, h, &e))
            bad++;
    }
    *ti = bench_now() - t0;
    t0 = bench_now();
    for (uint32_t k = 0; k < readers; k++) {
        r[k].ht = &ht;
        r[k].keys = keys;
        r[k].values = values;
        r[k].lo = n * (uint64_t)k / (uint64_t)readers;
        r[k].hi = n * (uint64_t)(k + 1) / (uint64_t)readers;
        r[k].bad = 0;
        started[k] = k > 0 && pthread_create(&tid[k], NULL, ck_read, &r[k]) == 0;
    }
    for (uint32_t k = 0; k < readers; k++)
        if (!started[k])
            ck_read(&r[k]);
    for (uint32_t k = 0; k < readers; k++) {
        if (started[k])
            pthread_join(tid[k], NULL);
        bad += r[k].bad;
    }
    *tf = bench_now() - t0;
    if (ck_ht_count(&ht) != n)
        bad++;
    ck_ht_destroy(&ht);
    free(r);
    free(tid);
    free(started);
    return bad;
}
