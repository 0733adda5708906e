/* designs.h — every design's per-key operations and resize steps, for every
 * key width, and the names the backends call them by.  The one header the
 * CPU loops and the CUDA kernels include.
 *
 * A design (src/designs/NAME/) is a set of inline functions over the shared
 * slot protocol (src/core: slot words and sentinels, the bucket scan, the
 * locks, the stash, R4's early stop, the resize steps every design shares):
 * which buckets a key may live in and in what order they are probed, and
 * how a key is placed (first fit, eviction).  Each is instantiated below
 * once per key width and mode (one thread or one tile of lanes per key);
 * designs/dispatch_body.h then defines hive_find_kv32, hive_upsert_kv64 and
 * the rest, which run the design in hive_view.design.  Designs:
 *
 *   hive    (HIVE_DESIGN_HIVE, the default) two buckets, cuckoo eviction,
 *           the stash: designs/hive/protocol.h, docs/design.md
 *   double  (HIVE_DESIGN_DOUBLE) bucketized double hashing: up to
 *           HIVE_DOUBLE_PROBES buckets, first fit, the stash:
 *           designs/double/, core/probe_body.h, docs/designs/double.md
 *   p2      (HIVE_DESIGN_P2) two choices: a new key goes to the less full
 *           of its two buckets, the stash: designs/p2/, docs/designs/p2.md
 *   iceberg (HIVE_DESIGN_ICEBERG) a front-yard bucket, first fit, then two
 *           back-yard buckets by two choices, the stash: designs/iceberg/,
 *           docs/designs/iceberg.md
 *   cuckoo  (HIVE_DESIGN_CUCKOO) three buckets, first fit, eviction by a
 *           bounded random walk, the stash: designs/cuckoo/,
 *           docs/designs/cuckoo.md
 *   chaining (HIVE_DESIGN_CHAINING) WarpSpeed's ChainingHT over hive's
 *           buckets: a head bucket per key, its overflow in chains of
 *           bucket-sized nodes from a node pool (the stash's memory):
 *           designs/chaining/, docs/designs/chaining.md
 *   double_m, p2_m, iceberg_m (HIVE_DESIGN_*_M) WarpSpeed's metadata
 *           variants: the design named, with a 16-bit tag per slot that
 *           scans read first (core/tag_body.h): designs/NAME/NAME_m_body.h,
 *           docs/designs/metadata.md
 *
 * A new design that is a probe sequence is a folder with its probe order
 * and placement policy and an include of designs/probe_design.h
 * (double_body.h is the example; chaining_body.h also brings its own
 * overflow store, D_OV), an ID and a line of HIVE_PROBE_DESIGNS in
 * core/view.h, a line in designs/instantiate.h; on the GPU, a file that
 * compiles the shared kernel macros with HIVE_ONLY_DESIGN and
 * HIVE_ONLY_NAME set to it (src/cuda/cuda_kernels32_double.cu). */
#ifndef HIVE_DESIGNS_DESIGNS_H
#define HIVE_DESIGNS_DESIGNS_H

#include <stdint.h>

#include "hive/protocol.h"
#include "cuckoo/probe.h"
#include "double/probe.h"
#include "iceberg/probe.h"
#include "p2/probe.h"
#include "chaining/pool.h"

/* 32-bit words beside a stash (or node pool) of `buckets` buckets, in
 * hive_view's stash_used: one bit a bucket, or the chaining design's chain
 * heads, links and bump counter (chaining/pool.h).  Host and device. */
HIVE_HD uint64_t hive_stash_side_words(uint32_t design, uint64_t buckets)
{
    return design == HIVE_DESIGN_ID_CHAINING ? hive_chain_words(buckets) : (buckets + 31) / 32;
}

/* The hash whose bucket a key's operation reads second, where its first
 * (the bucket of h1, in every design) does not end it: the Hive design's b2
 * and each probe design's probe 1.  The chaining design's second read is a
 * chain node, not a bucket by hash: h1 (nothing more to fetch ahead).  Host
 * and device; the CPU's loops prefetch by it. */
HIVE_HD uint32_t hive_design_second_hash(uint32_t design, uint32_t h1, uint32_t h2)
{
    switch (design) {
    case HIVE_DESIGN_ID_HIVE: return h2;
    case HIVE_DESIGN_ID_DOUBLE: case HIVE_DESIGN_ID_DOUBLE_M: return hive_double_probe_hash(h1, h2, 1);
    case HIVE_DESIGN_ID_P2: case HIVE_DESIGN_ID_P2_M: return hive_p2_probe_hash(h1, h2, 1);
    case HIVE_DESIGN_ID_ICEBERG: case HIVE_DESIGN_ID_ICEBERG_M: return hive_iceberg_probe_hash(h1, h2, 1);
    case HIVE_DESIGN_ID_CUCKOO: return hive_cuckoo_probe_hash(h1, h2, 1);
    default: return h1;
    }
}

/* Whether a key's find that its first two buckets do not end reads a third
 * by hash (the cuckoo design's third choice, the double design's probe 2;
 * the other designs' finds end at their second bucket or the stash, or go
 * on to probes too far ahead to fetch), and that hash in *third.  Host and
 * device; the CPU's split finds prefetch by it. */
HIVE_HD int hive_design_third_hash(uint32_t design, uint32_t h1, uint32_t h2, uint32_t *third)
{
    switch (design) {
    case HIVE_DESIGN_ID_DOUBLE: *third = hive_double_probe_hash(h1, h2, 2); return 1;
    case HIVE_DESIGN_ID_CUCKOO: *third = hive_cuckoo_probe_hash(h1, h2, 2); return 1;
    default: return 0;
    }
}

/* How the dispatch, where it chooses at run time, calls a design other than
 * Hive: out of line on the GPU (dispatch_body.h says why), inline where the
 * compiler likes on the host. */
#ifdef __CUDACC__
#define HIVE_DESIGN_CALL static __device__ __noinline__
#else
#define HIVE_DESIGN_CALL static inline
#endif

/* An operation's outputs, returned by value from a design called out of
 * line (designs/calls_body.h), for every key width. */
typedef struct hive_design_outcome {
    int r;          /* HIVE_R_* */
    int step;       /* HIVE_STEP_* (upserts) */
    uint32_t moves; /* pairs an eviction moved (upserts); the first bucket's HIVE_FIRST_*
                     * flags (the first part of a CPU find in two parts) */
    uint64_t val;   /* the value found (finds) */
} hive_design_outcome;

/* Each instantiation below defines P_HASH1(seed, k) and P_HASH2(seed, k),
 * its width's bucket hashes of key k under hash seed `seed`
 * (hash/bithash.h), and P_VIEW_SEED(v), the seed of view v's table loaded
 * as that width uses it (core/view.h says why); these are k's hashes in
 * that table. */
#define P_VIEW_HASH1(v, k) P_HASH1(P_VIEW_SEED(v), (k))
#define P_VIEW_HASH2(v, k) P_HASH2(P_VIEW_SEED(v), (k))

/* ---------------------------------------------------------------- KV32 */
#define P_SUFFIX(name) name##_kv32
#define P_KEY uint32_t
#define P_VAL uint32_t
#define P_SLOT uint64_t
#define P_WORDS 1
#define P_LOAD(p) hive_load64(p)
#define P_CAS(p, e, d) hive_cas64((p), (e), (d))
#define P_STORE(p, w) hive_store64((p), (w))
#define P_KEY_OF(s) ((uint32_t)(s))
#define P_VAL_OF(s) ((uint32_t)((s) >> 32))
#define P_MAKE(k, v) hive_pack32((k), (v))
#define P_EMPTY HIVE_K32_EMPTY
#define P_TOMB HIVE_K32_TOMB
#define P_MOVING HIVE_K32_MOVING
#define P_VACANT HIVE_K32_VACANT
#define P_RESERVED(k) hive_k32_reserved(k)
#define P_HASH1(seed, k) hive_hash1_k32((k), (seed))
#define P_HASH2(seed, k) hive_hash2_k32((k), (seed))
#define P_VIEW_SEED(v) hive_view_seed_halves(v)
#define P_COMBINE(m, a, b) hive_combine32((m), (a), (b))
#define P_HINTED_FULL(v, b) hive_hinted_full((v), (b))
#include "../core/protocol_mode_thread.h"
#include "instantiate.h"

/* ---------------------------------------------------------------- KV32, tile */
#ifdef __CUDACC__
#define P_SUFFIX(name) name##_kv32_tile
#define P_KEY uint32_t
#define P_VAL uint32_t
#define P_SLOT uint64_t
#define P_WORDS 1
#define P_LOAD(p) hive_load64(p)
#define P_CAS(p, e, d) hive_tile_cas64(g, (p), (e), (d))
#define P_STORE(p, w) hive_tile_store64(g, (p), (w))
#define P_KEY_OF(s) ((uint32_t)(s))
#define P_VAL_OF(s) ((uint32_t)((s) >> 32))
#define P_MAKE(k, v) hive_pack32((k), (v))
#define P_EMPTY HIVE_K32_EMPTY
#define P_TOMB HIVE_K32_TOMB
#define P_MOVING HIVE_K32_MOVING
#define P_VACANT HIVE_K32_VACANT
#define P_RESERVED(k) hive_k32_reserved(k)
#define P_HASH1(seed, k) hive_hash1_k32((k), (seed))
#define P_HASH2(seed, k) hive_hash2_k32((k), (seed))
#define P_VIEW_SEED(v) hive_view_seed_halves(v)
#define P_COMBINE(m, a, b) hive_combine32((m), (a), (b))
#define P_HINTED_FULL(v, b) 0 /* tiles run no deferred kernels */
#include "../core/protocol_mode_tile.h"
#include "instantiate.h"
#endif

/* ---------------------------------------------------------------- KV64 */
#define P_SUFFIX(name) name##_kv64
#define P_KEY uint64_t
#define P_VAL uint64_t
#define P_SLOT hive_u128
#define P_WORDS 2
#define P_LOAD(p) hive_load128(p)
#define P_CAS(p, e, d) hive_cas128((p), (e), (d))
#define P_STORE(p, w) hive_store128((p), (w))
#define P_KEY_OF(s) ((uint64_t)(s))
#define P_VAL_OF(s) ((uint64_t)((s) >> 64))
#define P_MAKE(k, v) (((hive_u128)(v) << 64) | (hive_u128)(k))
#define P_EMPTY HIVE_K64_EMPTY
#define P_TOMB HIVE_K64_TOMB
#define P_MOVING HIVE_K64_MOVING
#define P_VACANT HIVE_K64_VACANT
#define P_RESERVED(k) hive_k64_reserved(k)
#define P_HASH1(seed, k) hive_hash1_k64((k), (seed))
#define P_HASH2(seed, k) hive_hash2_k64((k), (seed))
#define P_VIEW_SEED(v) hive_view_seed(v)
#define P_COMBINE(m, a, b) hive_combine64((m), (a), (b))
#define P_HINTED_FULL(v, b) 0 /* KV64 tables take no full bits */
#include "../core/protocol_mode_thread.h"
#include "instantiate.h"

#endif
