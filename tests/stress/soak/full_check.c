/* full_check.c — the whole table against the whole oracle:
 *   hive_size is the oracle's count;
 *   hive_export lists each key once, only keys the oracle holds, each with
 *   its value, as many as the oracle holds;
 *   one hive_find of every key of the universe (mutable, stable and never
 *   inserted) finds exactly the keys the oracle holds, with their values,
 *   and leaves the value entries of the others untouched. */
#include "soak.h"

#include <stdio.h>

static uint64_t held_domain(const soak_universe *u) { return u->mutable_n + u->stable_n; }

static const char *index_kind(const soak_universe *u, uint64_t idx)
{
    return idx < u->mutable_n    ? "mutable"
           : idx < held_domain(u) ? "stable"
           : idx < soak_total(u)  ? "never inserted"
                                  : "not of the universe";
}

static void fill_keys_slice(void *arg, unsigned s)
{
    soak_run *r = arg;
    uint64_t first, end;
    soak_slice_range(soak_total(&r->u), s, &first, &end);
    for (uint64_t i = first; i < end; i++)
        ht_put(r->t, r->all_keys, i, soak_key(&r->u, i));
}

void soak_full_check_init(soak_run *r)
{
    uint64_t total = soak_total(&r->u), held = held_domain(&r->u);
    r->all_keys = ht_alloc(r->t, total * r->t->kv_bytes);
    r->all_values = ht_alloc(r->t, total * r->t->kv_bytes);
    r->all_found = ht_alloc(r->t, total);
    r->export_keys = ht_alloc(r->t, held * r->t->kv_bytes);
    r->export_values = ht_alloc(r->t, held * r->t->kv_bytes);
    soak_pool_run(&r->pool, fill_keys_slice, r);
}

void soak_full_check_free(soak_run *r)
{
    ht_free(r->t, r->all_keys);
    ht_free(r->t, r->all_values);
    ht_free(r->t, r->all_found);
    ht_free(r->t, r->export_keys);
    ht_free(r->t, r->export_values);
}

/* Each exported pair marks its key's slot with the check's stamp (an atomic
 * exchange, as two slices may meet the same key twice exported). */
static void export_slice(void *arg, unsigned s)
{
    soak_run *r = arg;
    const ht_target *t = r->t;
    uint64_t first, end, bad = 0;
    soak_slice_range(r->export_count, s, &first, &end);
    for (uint64_t i = first; i < end; i++) {
        uint64_t k = ht_get(t, r->export_keys, i), v = ht_get(t, r->export_values, i);
        uint64_t idx = k >= t->reserved_min ? ~0ull : soak_index(&r->u, k);
        uint64_t want = 0;
        const char *why = NULL;
        if (idx >= held_domain(&r->u)) {
            why = "a key never inserted";
        } else {
            soak_slot *slot = &r->u.slots[idx];
            want = slot->value;
            if (__atomic_exchange_n(&slot->stamp, r->stamp, __ATOMIC_RELAXED) == r->stamp)
                why = "exported twice";
            else if (!slot->present)
                why = "a key the oracle does not hold";
            else if (v != want)
                why = "wrong value";
        }
        if (why == NULL || bad++ >= SOAK_SHOW)
            continue;
        HT_CHECK(0, "%s: exported pair %llu (key %llu, index %llu, %s; value %llu, oracle's %llu): %s",
                 r->where, (unsigned long long)i, (unsigned long long)k, (unsigned long long)idx,
                 index_kind(&r->u, idx), (unsigned long long)v, (unsigned long long)want, why);
    }
    ht_pass_(end - first - bad);
    soak_mismatches(r, bad);
}

static void poison_slice(void *arg, unsigned s)
{
    soak_run *r = arg;
    uint64_t first, end;
    soak_slice_range(soak_total(&r->u), s, &first, &end);
    for (uint64_t i = first; i < end; i++) {
        ht_put(r->t, r->all_values, i, SOAK_UNTOUCHED & r->t->value_mask);
        r->all_found[i] = HT_FLAG_POISON;
    }
}

static void find_slice(void *arg, unsigned s)
{
    soak_run *r = arg;
    const ht_target *t = r->t;
    uint64_t first, end, bad = 0;
    soak_slice_range(soak_total(&r->u), s, &first, &end);
    for (uint64_t i = first; i < end; i++) {
        const soak_slot *slot = i < held_domain(&r->u) ? &r->u.slots[i] : NULL;
        unsigned want_found = slot != NULL && slot->present;
        uint64_t want = want_found ? slot->value : SOAK_UNTOUCHED & t->value_mask;
        uint64_t v = ht_get(t, r->all_values, i);
        if ((r->all_found[i] == want_found && v == want) || bad++ >= SOAK_SHOW)
            continue;
        HT_CHECK(0, "%s: hive_find of key %llu (index %llu, %s): found %u (expected %u), value %llu "
                    "(expected %llu)",
                 r->where, (unsigned long long)soak_key(&r->u, i), (unsigned long long)i,
                 index_kind(&r->u, i), r->all_found[i], want_found, (unsigned long long)v,
                 (unsigned long long)want);
    }
    ht_pass_(end - first - bad);
    soak_mismatches(r, bad);
}

void soak_full_check(soak_run *r, const char *where)
{
    snprintf(r->where, sizeof r->where, "%s", where);
    ht_context("%s", where);
    hive_stream stream = r->batch.stream;

    uint64_t size = ~0ull;
    HT_MUST(hive_size(r->table, &size));
    if (!HT_CHECK_EQ(size, r->live, "%s: hive_size against the oracle's count", where))
        soak_mismatches(r, 1);

    uint64_t count = ~0ull;
    r->stamp++;
    hive_status s = hive_export(r->table, held_domain(&r->u), r->export_keys, r->export_values,
                                &count, stream);
    if (HT_CHECK_STATUS(s, HIVE_SUCCESS, "%s: hive_export", where)) {
        if (!HT_CHECK_EQ(count, r->live, "%s: pairs exported against the oracle's count", where))
            soak_mismatches(r, 1);
        r->export_count = count;
        soak_pool_run(&r->pool, export_slice, r);
    } else {
        soak_mismatches(r, 1);
    }

    soak_pool_run(&r->pool, poison_slice, r);
    if (!HT_CHECK_STATUS(hive_find(r->table, soak_total(&r->u), r->all_keys, r->all_values,
                                   r->all_found, stream),
                         HIVE_SUCCESS, "%s: hive_find of all %llu keys", where,
                         (unsigned long long)soak_total(&r->u)))
        soak_mismatches(r, 1);
    soak_pool_run(&r->pool, find_slice, r);
}

static void clear_slice(void *arg, unsigned s)
{
    soak_run *r = arg;
    uint64_t first, end;
    soak_slice_range(held_domain(&r->u), s, &first, &end);
    for (uint64_t i = first; i < end; i++)
        r->u.slots[i].present = 0;
}

void soak_oracle_clear(soak_run *r)
{
    soak_pool_run(&r->pool, clear_slice, r);
    for (unsigned s = 0; s < SOAK_SLICES; s++)
        r->u.live[s] = 0; /* every order of a slice's keys puts the present ones first */
    r->live = 0;
}
