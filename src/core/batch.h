/* batch.h — what every backend's batch loops share around one element
 * (core/batch_body.h): the op of element i, the counters of a batch's
 * outcomes, and the checks that tie core/outcome.h's codes to hive.h's
 * enums (this header sees both).  Plain C11, and CUDA device code. */
#ifndef HIVE_CORE_BATCH_H
#define HIVE_CORE_BATCH_H

#include <assert.h>
#include <stdint.h>

#include "atomics.h"
#include "hive.h"
#include "launch.h"
#include "outcome.h"

/* Each code of core/outcome.h is its hive.h enum's value. */
static_assert(HIVE_R_NONE == HIVE_RESULT_NONE, "hive_result");
static_assert(HIVE_R_INSERTED == HIVE_RESULT_INSERTED, "hive_result");
static_assert(HIVE_R_UPDATED == HIVE_RESULT_UPDATED, "hive_result");
static_assert(HIVE_R_EXISTED == HIVE_RESULT_EXISTED, "hive_result");
static_assert(HIVE_R_FOUND == HIVE_RESULT_FOUND, "hive_result");
static_assert(HIVE_R_NOT_FOUND == HIVE_RESULT_NOT_FOUND, "hive_result");
static_assert(HIVE_R_ERASED == HIVE_RESULT_ERASED, "hive_result");
static_assert(HIVE_R_REJECTED_RESERVED == HIVE_RESULT_REJECTED_RESERVED, "hive_result");
static_assert(HIVE_R_REJECTED_FULL == HIVE_RESULT_REJECTED_FULL, "hive_result");
static_assert(HIVE_R_DEFER > HIVE_RESULT_REJECTED_FULL && HIVE_R_DEFER_DEEP > HIVE_R_DEFER &&
                  HIVE_R_DEFER_DEEP <= UINT8_MAX,
              "the internal codes fit the result bytes they share with hive_result's, apart from them");
static_assert(HIVE_CMB_KEEP == HIVE_COMBINE_KEEP, "hive_combine");
static_assert(HIVE_CMB_ASSIGN == HIVE_COMBINE_ASSIGN, "hive_combine");
static_assert(HIVE_CMB_ADD == HIVE_COMBINE_ADD, "hive_combine");
static_assert(HIVE_CMB_MIN == HIVE_COMBINE_MIN, "hive_combine");
static_assert(HIVE_CMB_MAX == HIVE_COMBINE_MAX, "hive_combine");
/* The kernels read an op byte above HIVE_OP_ERASE as a bad one. */
static_assert(HIVE_OP_FIND == 0 && HIVE_OP_INSERT == 1 && HIVE_OP_UPSERT == 2 && HIVE_OP_ERASE == 3,
              "hive_op: the valid op codes are 0 to HIVE_OP_ERASE");

/* What a batch counts, by outcome: the CUDA kernels' tallies and counter
 * blocks are arrays of these; the CPU's tally (cpu_table.h) keeps them in
 * fields of its own. */
enum {
    HIVE_CTR_INSERTED,
    HIVE_CTR_ERASED,
    HIVE_CTR_RESERVED,
    HIVE_CTR_FULL,
    HIVE_CTR_BAD_OPS,
    HIVE_CTR_STEP0, /* .. HIVE_CTR_STEP0 + 3: insert steps (HIVE_STEP_*) */
    HIVE_CTR_EVICTIONS = HIVE_CTR_STEP0 + 4,
    HIVE_CTR_DEFERRED, /* inserts whose locked part a batch kernel left to hive_deferred_* */
    HIVE_CTR_DEFERRED_DEEP, /* of those, the ones left to hive_deferred_deep_* */
    HIVE_CTR_COUNT
};
/* An asynchronous call's status is a counter block (hive.h). */
static_assert(HIVE_CTR_COUNT <= HIVE_ASYNC_STATUS_WORDS && HIVE_CTR_INSERTED == HIVE_ASYNC_INSERTED &&
                  HIVE_CTR_ERASED == HIVE_ASYNC_ERASED && HIVE_CTR_RESERVED == HIVE_ASYNC_RESERVED &&
                  HIVE_CTR_FULL == HIVE_ASYNC_FULL && HIVE_CTR_BAD_OPS == HIVE_ASYNC_BAD_OPS,
              "hive_async_status holds the counters, each public word at its HIVE_ASYNC_* index");

/* The op of element i: its byte of a mixed batch, or the batch's own. */
HIVE_PROTO int hive_batch_op(const hive_batch *b, uint64_t i)
{
    return b->ops != NULL ? (int)b->ops[i] : (int)b->op;
}

#endif
