/* refmap.c — the reference map and the sequential meaning of each operation. */
#include "refmap.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"

static size_t slot_of(const ht_ref *r, uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    return (size_t)h & (r->cap - 1);
}

static void alloc_slots(ht_ref *r, size_t cap)
{
    r->cap = cap;
    r->keys = calloc(cap, sizeof *r->keys);
    r->values = calloc(cap, sizeof *r->values);
    r->state = calloc(cap, 1);
    if (r->keys == NULL || r->values == NULL || r->state == NULL)
        ht_fatal("reference map: out of host memory (%zu slots)", cap);
    r->live = 0;
    r->used = 0;
}

void ht_ref_init(ht_ref *r) { alloc_slots(r, 64); }

void ht_ref_free(ht_ref *r)
{
    free(r->keys);
    free(r->values);
    free(r->state);
    memset(r, 0, sizeof *r);
}

void ht_ref_clear(ht_ref *r)
{
    ht_ref_free(r);
    ht_ref_init(r);
}

size_t ht_ref_size(const ht_ref *r) { return r->live; }

/* The slot holding key, or the FREE slot that ends its probe. */
static size_t probe(const ht_ref *r, uint64_t key)
{
    size_t i = slot_of(r, key);
    while (r->state[i] != HT_REF_FREE && !(r->state[i] == HT_REF_LIVE && r->keys[i] == key))
        i = (i + 1) & (r->cap - 1);
    return i;
}

int ht_ref_get(const ht_ref *r, uint64_t key, uint64_t *value)
{
    size_t i = probe(r, key);
    if (r->state[i] != HT_REF_LIVE)
        return 0;
    if (value != NULL)
        *value = r->values[i];
    return 1;
}

/* Copies every live pair into a fresh array big enough to stay under half
 * used after the next insert (dead slots are dropped). */
static void rebuild(ht_ref *r)
{
    ht_ref old = *r;
    size_t cap = 64;
    while (cap < 4 * (old.live + 1))
        cap *= 2;
    alloc_slots(r, cap);
    for (size_t i = 0; i < old.cap; i++)
        if (old.state[i] == HT_REF_LIVE)
            ht_ref_put(r, old.keys[i], old.values[i]);
    ht_ref_free(&old);
}

void ht_ref_put(ht_ref *r, uint64_t key, uint64_t value)
{
    size_t i = probe(r, key);
    if (r->state[i] == HT_REF_LIVE) {
        r->values[i] = value;
        return;
    }
    if (2 * (r->used + 1) > r->cap) {
        rebuild(r);
        i = probe(r, key);
    }
    r->state[i] = HT_REF_LIVE;
    r->keys[i] = key;
    r->values[i] = value;
    r->live++;
    r->used++;
}

int ht_ref_del(ht_ref *r, uint64_t key)
{
    size_t i = probe(r, key);
    if (r->state[i] != HT_REF_LIVE)
        return 0;
    r->state[i] = HT_REF_DEAD; /* keeps later keys of the probe reachable */
    r->live--;
    return 1;
}

/* ---------------------------------------------------------------- hive semantics */

uint64_t ht_combine(hive_combine mode, uint64_t stored, uint64_t incoming, uint64_t mask)
{
    switch (mode) {
    case HIVE_COMBINE_KEEP: return stored;
    case HIVE_COMBINE_ASSIGN: return incoming;
    case HIVE_COMBINE_ADD: return (stored + incoming) & mask;
    case HIVE_COMBINE_MIN: return incoming < stored ? incoming : stored;
    case HIVE_COMBINE_MAX: return incoming > stored ? incoming : stored;
    }
    ht_fatal("ht_combine: bad mode %d", (int)mode);
}

unsigned ht_ref_upsert(ht_ref *r, uint64_t key, uint64_t value, hive_combine mode, uint64_t mask)
{
    uint64_t stored;
    if (!ht_ref_get(r, key, &stored)) {
        ht_ref_put(r, key, value & mask);
        return HIVE_RESULT_INSERTED;
    }
    if (mode == HIVE_COMBINE_KEEP)
        return HIVE_RESULT_EXISTED;
    ht_ref_put(r, key, ht_combine(mode, stored, value & mask, mask));
    return HIVE_RESULT_UPDATED;
}

unsigned ht_ref_erase(ht_ref *r, uint64_t key)
{
    return ht_ref_del(r, key) ? HIVE_RESULT_ERASED : HIVE_RESULT_NOT_FOUND;
}

unsigned ht_ref_find(const ht_ref *r, uint64_t key, uint64_t *value)
{
    return ht_ref_get(r, key, value) ? HIVE_RESULT_FOUND : HIVE_RESULT_NOT_FOUND;
}

unsigned ht_ref_apply(ht_ref *r, unsigned op, uint64_t key, uint64_t *value, hive_combine mode,
                      uint64_t mask)
{
    switch (op) {
    case HIVE_OP_FIND: return ht_ref_find(r, key, value);
    case HIVE_OP_INSERT: return ht_ref_upsert(r, key, *value, HIVE_COMBINE_KEEP, mask);
    case HIVE_OP_UPSERT: return ht_ref_upsert(r, key, *value, mode, mask);
    case HIVE_OP_ERASE: return ht_ref_erase(r, key);
    }
    return HIVE_RESULT_NONE;
}
