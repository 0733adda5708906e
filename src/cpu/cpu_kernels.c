/* cpu_kernels.c — the CPU backend's loops over keys and slots, one body
 * (cpu_kernels_body.h) instantiated for each key width. */
#include <string.h>

#include "core/batch.h"
#include "core/marks.h"
#include "cpu_table.h"

/* Adds n to counter c (HIVE_CTR_*, core/batch.h) of a CPU tally.  Every
 * insert runs whole here, so nothing is ever deferred. */
static inline void hive_cpu_count(hive_cpu_tally *t, int c, uint64_t n)
{
    if (c >= HIVE_CTR_STEP0 && c < HIVE_CTR_STEP0 + 4) {
        t->steps[c - HIVE_CTR_STEP0] += n;
        return;
    }
    switch (c) {
    case HIVE_CTR_INSERTED: t->out.inserted += n; break;
    case HIVE_CTR_ERASED: t->out.erased += n; break;
    case HIVE_CTR_RESERVED: t->out.reserved += n; break;
    case HIVE_CTR_FULL: t->out.full += n; break;
    case HIVE_CTR_BAD_OPS: t->out.bad_ops += n; break;
    case HIVE_CTR_EVICTIONS: t->evictions += n; break;
    default: break; /* HIVE_CTR_DEFERRED, HIVE_CTR_DEFERRED_DEEP */
    }
}

/* hive_design_second_hash out of line: inlined into the loops, its switch
 * over the designs made GCC stop inlining the Hive design's insert there
 * (hive-bench cpu-compare: inserts 5% slower). */
static __attribute__((noinline)) uint32_t hive_cpu_second_hash(uint32_t design, uint32_t h1, uint32_t h2)
{
    return hive_design_second_hash(design, h1, h2);
}

#define K_SUFFIX(name) name##_kv32
#define K_KEY uint32_t
#define K_VAL uint32_t
#define K_SLOT uint64_t
#define K_WORDS 1
#define K_KEY_OF(s) ((uint32_t)(s))
#define K_VAL_OF(s) ((uint32_t)((s) >> 32))
#define K_RESERVED(k) hive_k32_reserved(k)
#include "cpu_kernels_body.h"

#define K_SUFFIX(name) name##_kv64
#define K_KEY uint64_t
#define K_VAL uint64_t
#define K_SLOT hive_u128
#define K_WORDS 2
#define K_KEY_OF(s) ((uint64_t)(s))
#define K_VAL_OF(s) ((uint64_t)((s) >> 64))
#define K_RESERVED(k) hive_k64_reserved(k)
#include "cpu_kernels_body.h"
