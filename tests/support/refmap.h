/* refmap.h — the reference the tests compare hive against: a plain
 * single-threaded map from 64-bit keys to 64-bit values (open addressing,
 * linear probing, rebuilt whenever it is half used), and the documented
 * semantics of one hive operation on one key (combine modes, result codes)
 * written as the obvious sequential code.
 *
 * It is deliberately simple, so that it is easy to see that it is right; it
 * knows nothing of buckets, stashes or concurrency. */
#ifndef HT_REFMAP_H
#define HT_REFMAP_H

#include <stddef.h>
#include <stdint.h>

#include "hive.h"

typedef struct ht_ref {
    uint64_t *keys;
    uint64_t *values;
    uint8_t *state; /* HT_REF_FREE, HT_REF_LIVE, HT_REF_DEAD */
    size_t cap;     /* a power of two */
    size_t live;    /* keys present */
    size_t used;    /* live + dead slots */
} ht_ref;

#define HT_REF_FREE 0
#define HT_REF_LIVE 1
#define HT_REF_DEAD 2

void ht_ref_init(ht_ref *r);
void ht_ref_free(ht_ref *r);
void ht_ref_clear(ht_ref *r);
size_t ht_ref_size(const ht_ref *r);
/* 1 and *value if key is present (value may be NULL). */
int ht_ref_get(const ht_ref *r, uint64_t key, uint64_t *value);
/* Sets key's value, adding the key if absent. */
void ht_ref_put(ht_ref *r, uint64_t key, uint64_t value);
/* 1 if key was present. */
int ht_ref_del(ht_ref *r, uint64_t key);
/* Iteration: for (size_t i = 0; i < r->cap; i++) if (r->state[i] == HT_REF_LIVE) ... */

/* ---------------------------------------------------------------- hive semantics */

/* stored `mode` incoming, in a width whose values are `mask` (wrapping add). */
uint64_t ht_combine(hive_combine mode, uint64_t stored, uint64_t incoming, uint64_t mask);
/* One insert of (key, value) with `mode`: updates r, returns the hive_result
 * hive must report (INSERTED, UPDATED or EXISTED). */
unsigned ht_ref_upsert(ht_ref *r, uint64_t key, uint64_t value, hive_combine mode, uint64_t mask);
/* One erase: ERASED or NOT_FOUND. */
unsigned ht_ref_erase(ht_ref *r, uint64_t key);
/* One find: FOUND (and *value) or NOT_FOUND. */
unsigned ht_ref_find(const ht_ref *r, uint64_t key, uint64_t *value);
/* One element of hive_apply: op (hive_op) on key.  For FIND, *value is the
 * output (left alone on NOT_FOUND); for INSERT/UPSERT it is the input. */
unsigned ht_ref_apply(ht_ref *r, unsigned op, uint64_t key, uint64_t *value, hive_combine mode,
                      uint64_t mask);

#endif
