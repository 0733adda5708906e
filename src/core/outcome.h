/* outcome.h — the codes a per-key operation shares with hive.h, spelled as
 * plain #defines so that design and device code need not include the public
 * header: the outcome of one key (enum hive_result) and how an upsert merges
 * values (enum hive_combine).  core/batch.h, which sees both, checks with
 * static_asserts that each value here is hive.h's. */
#ifndef HIVE_CORE_OUTCOME_H
#define HIVE_CORE_OUTCOME_H

/* Per-key outcomes: the values of enum hive_result. */
#define HIVE_R_NONE 0
#define HIVE_R_INSERTED 1
#define HIVE_R_UPDATED 2
#define HIVE_R_EXISTED 3
#define HIVE_R_FOUND 4
#define HIVE_R_NOT_FOUND 5
#define HIVE_R_ERASED 6
#define HIVE_R_REJECTED_RESERVED 7
#define HIVE_R_REJECTED_FULL 8
/* Internal, never a result: the key needs the locked path of an insert; and
 * the short form of that path found no one-move eviction for it.  They share
 * the result bytes of a batch with the codes above (core/marks.h). */
#define HIVE_R_DEFER 0x40
#define HIVE_R_DEFER_DEEP 0x41
/* What the first part of a find in two parts (core/probe_body.h) leaves for
 * the second to know of the first bucket: an EMPTY slot there (the key is
 * not in the stash), a frozen or half-written slot there. */
#define HIVE_FIRST_ENDED 1u
#define HIVE_FIRST_MOVING 2u

/* Upsert merge modes: the values of enum hive_combine (core/combine.h). */
#define HIVE_CMB_KEEP 0
#define HIVE_CMB_ASSIGN 1
#define HIVE_CMB_ADD 2
#define HIVE_CMB_MIN 3
#define HIVE_CMB_MAX 4
#define HIVE_CMB_USER 5 /* device code's own (core/combine.h); never a hive_combine */

#endif
