/* mixed.c — one mixed batch: generated from the oracle by the slices, run
 * through hive_apply, checked element by element by the slices.
 *
 * Each element draws a key of its slice not yet in the batch (so the
 * elements' sequential meaning does not depend on their order): a present
 * key with chance p_present, else an absent one.  Then an op by the key's
 * state: a present key is erased with chance p_erase, else found, upserted
 * or inserted (EXISTED); an absent key is inserted or upserted with chance
 * p_insert, else found or erased (both NOT_FOUND).  The chances steer the
 * live count (main.c); the oracle applies the element at once and records
 * the result and value hive must give. */
#include "soak.h"

#include <string.h>

static const char *op_name(unsigned op)
{
    static const char *names[] = {"FIND", "INSERT", "UPSERT", "ERASE"};
    return op <= HIVE_OP_ERASE ? names[op] : "?";
}

static const char *combine_name(hive_combine m)
{
    static const char *names[] = {"KEEP", "ASSIGN", "ADD", "MIN", "MAX"};
    return (unsigned)m <= HIVE_COMBINE_MAX ? names[m] : "?";
}

static unsigned pick_op(const soak_run *r, ht_rng *rng, int present)
{
    if (present) {
        if (ht_rng_chance(rng, r->p_erase))
            return HIVE_OP_ERASE;
        static const unsigned kept[5] = {HIVE_OP_FIND, HIVE_OP_FIND, HIVE_OP_UPSERT,
                                         HIVE_OP_UPSERT, HIVE_OP_INSERT};
        return kept[ht_rng_below(rng, 5)];
    }
    if (ht_rng_chance(rng, r->p_insert))
        return ht_rng_below(rng, 2) ? HIVE_OP_UPSERT : HIVE_OP_INSERT;
    return ht_rng_below(rng, 5) < 3 ? HIVE_OP_FIND : HIVE_OP_ERASE;
}

/* A position in the slice's order (perm) whose key the batch has not met:
 * among the first `live` (the present keys) or the others.  When a few
 * tries on that side meet only keys of the batch, any key of the slice will
 * do (a batch holds at most an eighth of them). */
static uint64_t draw(const soak_run *r, ht_rng *rng, const uint32_t *perm, uint64_t n,
                     uint64_t live)
{
    int present = ht_rng_chance(rng, r->p_present);
    uint64_t from = present ? 0 : live, len = present ? live : n - live;
    for (int tries = 0; tries < 16 && len > 0; tries++) {
        uint64_t p = from + ht_rng_below(rng, len);
        if (r->u.slots[perm[p]].stamp != r->stamp)
            return p;
    }
    for (;;) {
        uint64_t p = ht_rng_below(rng, n);
        if (r->u.slots[perm[p]].stamp != r->stamp)
            return p;
    }
}

static void swap(uint32_t *perm, uint64_t a, uint64_t b)
{
    uint32_t x = perm[a];
    perm[a] = perm[b];
    perm[b] = x;
}

static void generate_slice(void *arg, unsigned s)
{
    soak_run *r = arg;
    const ht_target *t = r->t;
    ht_batch *b = &r->batch;
    uint64_t first, end;
    soak_slice_range(b->n, s, &first, &end);
    ht_rng rng;
    uint64_t x = r->seed ^ (r->batch_no * SOAK_SLICES + s);
    ht_rng_seed(&rng, ht_splitmix64(&x));
    uint64_t n = r->u.mutable_n / SOAK_SLICES, live = r->u.live[s];
    uint32_t *perm = r->u.perm + s * n;
    memset(b->results + first, HT_FLAG_POISON, end - first);
    for (uint64_t i = first; i < end; i++) {
        uint64_t p = draw(r, &rng, perm, n, live), idx = perm[p];
        soak_slot *slot = &r->u.slots[idx];
        slot->stamp = r->stamp;
        unsigned op = pick_op(r, &rng, slot->present);
        uint64_t v = ht_random_value(t, &rng);
        ht_put(t, b->keys, i, soak_key(&r->u, idx));
        ht_put(t, b->values, i, v);
        b->ops[i] = (uint8_t)op;
        unsigned result = soak_oracle_apply(slot, op, &v, r->mode, t->value_mask);
        if (result == HIVE_RESULT_INSERTED) /* to the end of the present keys */
            swap(perm, p, live++);
        else if (result == HIVE_RESULT_ERASED) /* to the start of the absent ones */
            swap(perm, p, --live);
        r->want_result[i] = (uint8_t)result;
        r->want_value[i] = v;
        r->index[i] = (uint32_t)idx;
    }
    r->delta[s] = (int64_t)live - (int64_t)r->u.live[s];
    r->u.live[s] = live;
}

static void check_slice(void *arg, unsigned s)
{
    soak_run *r = arg;
    const ht_target *t = r->t;
    const ht_batch *b = &r->batch;
    uint64_t first, end, bad = 0;
    soak_slice_range(b->n, s, &first, &end);
    for (uint64_t i = first; i < end; i++) {
        unsigned got = b->results[i];
        uint64_t v = ht_get(t, b->values, i);
        if ((got == r->want_result[i] && v == r->want_value[i]) || bad++ >= SOAK_SHOW)
            continue;
        HT_CHECK(0,
                 "%s: element %llu (%s of key %llu = index %u, combine %s): result %s "
                 "(expected %s), value %llu (expected %llu)",
                 r->where, (unsigned long long)i, op_name(b->ops[i]),
                 (unsigned long long)ht_get(t, b->keys, i), r->index[i], combine_name(r->mode),
                 ht_result_name(got), ht_result_name(r->want_result[i]), (unsigned long long)v,
                 (unsigned long long)r->want_value[i]);
    }
    ht_pass_(end - first - bad);
    soak_mismatches(r, bad);
}

void soak_mixed_batch(soak_run *r, size_t n, double secs[3])
{
    ht_batch *b = &r->batch;
    b->n = n;
    r->batch_no++;
    r->stamp++;
    double t0 = soak_now();
    soak_pool_run(&r->pool, generate_slice, r);
    for (unsigned s = 0; s < SOAK_SLICES; s++)
        r->live += (uint64_t)r->delta[s]; /* wraps back for a negative delta */
    double t1 = soak_now();
    if (!HT_CHECK_STATUS(hive_apply(r->table, n, b->ops, b->keys, b->values, r->mode,
                                    b->results, b->stream),
                         HIVE_SUCCESS, "%s: hive_apply of %zu ops", r->where, n))
        soak_mismatches(r, 1);
    double t2 = soak_now();
    soak_pool_run(&r->pool, check_slice, r);
    double t3 = soak_now();
    secs[0] += t1 - t0;
    secs[1] += t2 - t1;
    secs[2] += t3 - t2;
}
