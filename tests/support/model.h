/* model.h — run one batch through hive and through the reference map, and
 * check every outcome: the status, each per-key result code, each found flag,
 * each value written (and each one that must stay untouched), the size, and
 * (single-threaded use) the insert_steps counters of hive_stats.
 *
 * Two kinds of batch:
 *   unique keys  any call, any combine mode, any mix of ops: the outcome is
 *                fully determined, so it is compared element by element.
 *   repeated keys  inserts only (hive_insert, or hive_apply with UPSERT/INSERT
 *                ops): hive applies the copies "one after another in an
 *                unspecified order", so per key: ADD sums every copy, MIN/MAX
 *                take the extreme, KEEP stores the value of the one copy that
 *                reports INSERTED, ASSIGN stores one of the copies' values;
 *                an absent key reports exactly one INSERTED. */
#ifndef HT_MODEL_H
#define HT_MODEL_H

#include <stdint.h>

#include "hive.h"
#include "refmap.h"
#include "target.h"

typedef enum ht_call {
    HT_CALL_INSERT,   /* hive_insert(combine) */
    HT_CALL_FIND,     /* hive_find */
    HT_CALL_CONTAINS, /* hive_contains */
    HT_CALL_ERASE,    /* hive_erase */
    HT_CALL_APPLY     /* hive_apply(b->ops, combine) */
} ht_call;

/* Which optional arrays a call is given (the others are passed as NULL). */
#define HT_PASS_RESULTS 1u /* insert, erase, apply */
#define HT_PASS_VALUES 2u  /* find */
#define HT_PASS_FOUND 4u   /* find */
#define HT_PASS_ALL 7u

const char *ht_call_name(ht_call call);

/* b->n elements of b->keys (distinct), b->values (inputs) and for APPLY
 * b->ops.  Reserved keys and op codes outside hive_op may be among them: the
 * call must then skip those elements and return HIVE_ERROR_RESERVED_KEY or
 * HIVE_ERROR_INVALID_ARGUMENT (hive.h).  Updates ref.  check_steps: compare
 * the insert_steps deltas (only when no other thread uses the table).
 * Returns the number of mismatches. */
uint64_t ht_run_unique(const ht_target *t, hive_table *table, ht_ref *ref, ht_batch *b,
                       ht_call call, hive_combine mode, unsigned pass, int check_steps,
                       const char *where);

/* b->n inserts whose keys may repeat: hive_insert(mode), or with
 * use_apply hive_apply with b->ops (each HIVE_OP_UPSERT, or HIVE_OP_INSERT
 * for KEEP semantics).  Updates ref to what hive stored once that is checked
 * to be a legal outcome.  Returns the number of mismatches. */
uint64_t ht_run_repeated(const ht_target *t, hive_table *table, ht_ref *ref, ht_batch *b,
                         hive_combine mode, int use_apply, int check_steps, const char *where);

#endif
