/* model.c — one batch through hive and the reference, compared. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "verify.h"

#define HT_SHOW 5 /* mismatches printed per batch */

const char *ht_call_name(ht_call call)
{
    switch (call) {
    case HT_CALL_INSERT: return "insert";
    case HT_CALL_FIND: return "find";
    case HT_CALL_CONTAINS: return "contains";
    case HT_CALL_ERASE: return "erase";
    case HT_CALL_APPLY: return "apply";
    }
    return "?";
}

static const char *combine_name(hive_combine m)
{
    static const char *names[] = {"KEEP", "ASSIGN", "ADD", "MIN", "MAX"};
    return (unsigned)m <= HIVE_COMBINE_MAX ? names[m] : "?";
}

static uint64_t *host_copy(const ht_target *t, const void *a, size_t n)
{
    uint64_t *h = malloc((n ? n : 1) * sizeof *h);
    if (h == NULL)
        ht_fatal("out of host memory");
    for (size_t i = 0; i < n; i++)
        h[i] = ht_get(t, a, i);
    return h;
}

static void stats_or_zero(hive_table *table, hive_stats *s, int want)
{
    memset(s, 0, sizeof *s);
    if (want)
        HT_MUST(hive_stats_get(table, s));
}

static void check_size(hive_table *table, const ht_ref *ref, const char *where, uint64_t *bad)
{
    uint64_t size = ~0ull;
    HT_MUST(hive_size(table, &size));
    if (!HT_CHECK_EQ(size, ht_ref_size(ref), "%s: hive_size after the batch", where))
        (*bad)++;
}

static void check_steps(const hive_stats *before, const hive_stats *after, uint64_t done,
                        uint64_t inserted, const char *where, uint64_t *bad)
{
    uint64_t all = ht_steps_total(after) - ht_steps_total(before);
    uint64_t fresh = all - (after->insert_steps[0] - before->insert_steps[0]);
    if (!HT_CHECK_EQ(all, done, "%s: insert_steps total grew by the inserts that succeeded "
                                "(INSERTED + UPDATED + EXISTED)", where))
        (*bad)++;
    if (!HT_CHECK_EQ(fresh, inserted, "%s: insert_steps[1..3] grew by the INSERTED count", where))
        (*bad)++;
}

static hive_status call_hive(hive_table *table, const ht_batch *b, ht_call call,
                             hive_combine mode, unsigned pass)
{
    uint8_t *results = (pass & HT_PASS_RESULTS) ? b->results : NULL;
    switch (call) {
    case HT_CALL_INSERT: return hive_insert(table, b->n, b->keys, b->values, mode, results, NULL);
    case HT_CALL_FIND:
        return hive_find(table, b->n, b->keys, (pass & HT_PASS_VALUES) ? b->values : NULL,
                         (pass & HT_PASS_FOUND) ? b->found : NULL, NULL);
    case HT_CALL_CONTAINS: return hive_contains(table, b->n, b->keys, b->found, NULL);
    case HT_CALL_ERASE: return hive_erase(table, b->n, b->keys, results, NULL);
    case HT_CALL_APPLY:
        return hive_apply(table, b->n, b->ops, b->keys, b->values, mode, results, NULL);
    }
    return HIVE_ERROR_INTERNAL;
}

uint64_t ht_run_unique(const ht_target *t, hive_table *table, ht_ref *ref, ht_batch *b,
                       ht_call call, hive_combine mode, unsigned pass, int check_steps_too,
                       const char *where)
{
    size_t n = b->n;
    uint64_t *keys = host_copy(t, b->keys, n);
    uint64_t *vin = host_copy(t, b->values, n);
    uint64_t *vexp = malloc((n ? n : 1) * sizeof *vexp);
    uint8_t *rexp = malloc(n ? n : 1);
    if (vexp == NULL || rexp == NULL)
        ht_fatal("out of host memory");
    uint64_t done = 0, inserted = 0, bad = 0, bad_ops = 0, reserved = 0;
    int may_insert = call == HT_CALL_INSERT || call == HT_CALL_APPLY;

    /* The reference, one key after another (the keys are distinct).  An op
     * code outside hive_op is skipped (NONE) before its key is looked at; a
     * reserved key is skipped (REJECTED_RESERVED) and leaves its value alone. */
    for (size_t i = 0; i < n; i++) {
        uint64_t v = vin[i];
        unsigned op = call == HT_CALL_APPLY ? b->ops[i]
                      : call == HT_CALL_INSERT ? HIVE_OP_UPSERT
                      : call == HT_CALL_ERASE  ? HIVE_OP_ERASE
                                               : HIVE_OP_FIND;
        if (op > HIVE_OP_ERASE) {
            bad_ops++;
            rexp[i] = HIVE_RESULT_NONE;
        } else if (keys[i] >= t->reserved_min) {
            reserved++;
            rexp[i] = HIVE_RESULT_REJECTED_RESERVED;
        } else {
            rexp[i] = (uint8_t)ht_ref_apply(ref, op, keys[i], &v, mode, t->value_mask);
            if (op == HIVE_OP_INSERT || op == HIVE_OP_UPSERT) {
                done++;
                inserted += rexp[i] == HIVE_RESULT_INSERTED;
            }
        }
        vexp[i] = v; /* a found value, else the input untouched */
    }
    hive_status want = bad_ops ? HIVE_ERROR_INVALID_ARGUMENT
                       : reserved ? HIVE_ERROR_RESERVED_KEY
                                  : HIVE_SUCCESS;

    hive_stats before, after;
    stats_or_zero(table, &before, check_steps_too && may_insert);
    ht_batch_poison_flags(b);
    hive_status s = call_hive(table, b, call, mode, pass);
    if (!HT_CHECK_STATUS(s, want, "%s: %s of %zu keys, combine %s", where,
                         ht_call_name(call), n, combine_name(mode)))
        bad++;

    int has_results = (pass & HT_PASS_RESULTS) &&
                      (call == HT_CALL_INSERT || call == HT_CALL_ERASE || call == HT_CALL_APPLY);
    int has_found = call == HT_CALL_CONTAINS || (call == HT_CALL_FIND && (pass & HT_PASS_FOUND));
    int has_values = call != HT_CALL_CONTAINS && (call != HT_CALL_FIND || (pass & HT_PASS_VALUES));
    uint64_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned want_found = rexp[i] == HIVE_RESULT_FOUND;
        uint64_t got_v = has_values ? ht_get(t, b->values, i) : vexp[i];
        int r_bad = has_results && b->results[i] != rexp[i];
        int f_bad = has_found && b->found[i] != want_found;
        int v_bad = got_v != vexp[i];
        if (!(r_bad || f_bad || v_bad))
            continue;
        bad++;
        if (shown++ < HT_SHOW)
            HT_CHECK(0,
                     "%s: %s element %zu (op %u, key %llu, value in %llu, combine %s): "
                     "result %s (expected %s), found %u (expected %u), value %llu (expected %llu)",
                     where, ht_call_name(call), i, call == HT_CALL_APPLY ? b->ops[i] : 0u,
                     (unsigned long long)keys[i], (unsigned long long)vin[i], combine_name(mode),
                     has_results ? ht_result_name(b->results[i]) : "-", ht_result_name(rexp[i]),
                     has_found ? b->found[i] : 0u, has_found ? want_found : 0u,
                     (unsigned long long)got_v, (unsigned long long)vexp[i]);
    }
    ht_pass_(n - (bad < n ? bad : n));
    if (bad > HT_SHOW)
        HT_CHECK(0, "%s: %llu of %zu elements differ from the reference", where,
                 (unsigned long long)bad, n);

    check_size(table, ref, where, &bad);
    if (check_steps_too && may_insert) {
        stats_or_zero(table, &after, 1);
        check_steps(&before, &after, done, inserted, where, &bad);
    }
    free(keys);
    free(vin);
    free(vexp);
    free(rexp);
    return bad;
}

uint64_t ht_run_repeated(const ht_target *t, hive_table *table, ht_ref *ref, ht_batch *b,
                         hive_combine mode, int use_apply, int check_steps_too, const char *where)
{
    size_t n = b->n;
    const uint64_t mask = t->value_mask;
    uint64_t *keys = host_copy(t, b->keys, n);
    uint64_t *vals = host_copy(t, b->values, n);
    uint64_t bad = 0, shown = 0;

    /* Per distinct key: copies, and the sum / min / max of their values. */
    ht_ref copies, acc, before;
    ht_ref_init(&copies);
    ht_ref_init(&acc);
    ht_ref_init(&before); /* value before the batch, for keys present then */
    for (size_t i = 0; i < n; i++) {
        uint64_t c = 0, a = 0, old = 0;
        int seen = ht_ref_get(&copies, keys[i], &c);
        ht_ref_get(&acc, keys[i], &a);
        if (!seen && ht_ref_get(ref, keys[i], &old))
            ht_ref_put(&before, keys[i], old);
        ht_ref_put(&copies, keys[i], c + 1);
        uint64_t v = vals[i];
        if (seen)
            v = mode == HIVE_COMBINE_ADD ? (a + v) & mask
                : mode == HIVE_COMBINE_MIN ? (v < a ? v : a)
                : mode == HIVE_COMBINE_MAX ? (v > a ? v : a)
                                           : a;
        ht_ref_put(&acc, keys[i], v);
    }
    size_t distinct = ht_ref_size(&copies), fresh_keys = distinct - ht_ref_size(&before);

    if (use_apply)
        for (size_t i = 0; i < n; i++)
            b->ops[i] = mode == HIVE_COMBINE_KEEP ? HIVE_OP_INSERT : HIVE_OP_UPSERT;
    /* HIVE_OP_INSERT must ignore the call's combine mode: give it ADD. */
    hive_combine passed = use_apply && mode == HIVE_COMBINE_KEEP ? HIVE_COMBINE_ADD : mode;
    hive_stats st0, st1;
    stats_or_zero(table, &st0, check_steps_too);
    ht_batch_poison_flags(b);
    hive_status s = use_apply ? hive_apply(table, n, b->ops, b->keys, b->values, passed,
                                           b->results, NULL)
                              : hive_insert(table, n, b->keys, b->values, mode, b->results, NULL);
    if (!HT_CHECK_STATUS(s, HIVE_SUCCESS, "%s: %s of %zu keys with repeats, combine %s", where,
                         use_apply ? "apply" : "insert", n, combine_name(mode)))
        bad++;

    /* Result codes: per key, one INSERTED if it was absent, else none; all
     * other copies EXISTED (KEEP) or UPDATED. */
    unsigned other = mode == HIVE_COMBINE_KEEP ? HIVE_RESULT_EXISTED : HIVE_RESULT_UPDATED;
    ht_ref ins, ins_value;
    ht_ref_init(&ins);
    ht_ref_init(&ins_value);
    for (size_t i = 0; i < n; i++) {
        if (b->results[i] == HIVE_RESULT_INSERTED) {
            uint64_t c = 0;
            ht_ref_get(&ins, keys[i], &c);
            ht_ref_put(&ins, keys[i], c + 1);
            ht_ref_put(&ins_value, keys[i], vals[i]);
        } else if (b->results[i] != other) {
            bad++;
            if (shown++ < HT_SHOW)
                HT_CHECK(0, "%s: element %zu (key %llu): result %s, expected INSERTED or %s",
                         where, i, (unsigned long long)keys[i], ht_result_name(b->results[i]),
                         ht_result_name(other));
        }
    }

    /* The stored values, read back for the distinct keys. */
    size_t j = 0;
    for (size_t i = 0; i < copies.cap; i++)
        if (copies.state[i] == HT_REF_LIVE)
            ht_put(t, b->keys, j++, copies.keys[i]);
    b->n = j;
    memset(b->found, HT_FLAG_POISON, j);
    HT_MUST(hive_find(table, j, b->keys, b->values, b->found, NULL));
    ht_ref final;
    ht_ref_init(&final);
    for (size_t i = 0; i < j; i++) {
        uint64_t k = ht_get(t, b->keys, i), got = ht_get(t, b->values, i);
        uint64_t old = 0, a = 0, c_ins = 0, iv = 0, cnt = 0;
        int was = ht_ref_get(&before, k, &old);
        ht_ref_get(&copies, k, &cnt);
        ht_ref_get(&acc, k, &a);
        ht_ref_get(&ins, k, &c_ins);
        int have_iv = ht_ref_get(&ins_value, k, &iv);
        uint64_t want = got;
        int known = 1;
        switch (mode) {
        case HIVE_COMBINE_ADD: want = was ? (old + a) & mask : a; break;
        case HIVE_COMBINE_MIN: want = was && old < a ? old : a; break;
        case HIVE_COMBINE_MAX: want = was && old > a ? old : a; break;
        case HIVE_COMBINE_KEEP: want = was ? old : have_iv ? iv : got; break;
        case HIVE_COMBINE_ASSIGN: known = 0; break; /* one of the copies: checked below */
        }
        int ok = b->found[i] == 1 && c_ins == (was ? 0u : 1u) && (!known || got == want);
        if (!ok) {
            bad++;
            if (shown++ < HT_SHOW)
                HT_CHECK(0,
                         "%s: key %llu (%s before, %llu copies in the batch, combine %s): found %u, "
                         "%llu INSERTED results (expected %u), value %llu (expected %llu)",
                         where, (unsigned long long)k, was ? "present" : "absent",
                         (unsigned long long)cnt, combine_name(mode),
                         b->found[i], (unsigned long long)c_ins, was ? 0u : 1u,
                         (unsigned long long)got, (unsigned long long)want);
        }
        ht_ref_put(&final, k, got);
        ht_ref_put(ref, k, got);
    }
    if (mode == HIVE_COMBINE_ASSIGN) {
        ht_ref matched;
        ht_ref_init(&matched);
        for (size_t i = 0; i < n; i++) {
            uint64_t f = 0;
            if (ht_ref_get(&final, keys[i], &f) && f == vals[i])
                ht_ref_put(&matched, keys[i], 1);
        }
        if (!HT_CHECK_EQ(ht_ref_size(&matched), distinct,
                         "%s: ASSIGN keys whose stored value is one of their copies' values", where))
            bad++;
        ht_ref_free(&matched);
    }
    ht_pass_(j);
    check_size(table, ref, where, &bad);
    if (check_steps_too) {
        stats_or_zero(table, &st1, 1);
        check_steps(&st0, &st1, n, fresh_keys, where, &bad);
    }
    ht_ref_free(&copies);
    ht_ref_free(&acc);
    ht_ref_free(&before);
    ht_ref_free(&ins);
    ht_ref_free(&ins_value);
    ht_ref_free(&final);
    free(keys);
    free(vals);
    return bad;
}
