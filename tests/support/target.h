/* target.h — the backend and key width a test runs on, and "table memory":
 * arrays that the backend under test can read and write (host memory for a
 * CPU table, CUDA managed memory for a CUDA table, or mapped pinned host
 * memory where a test asks for it: ht_target.memory), so that one test body
 * serves every backend.  Either kind is also readable from the host once
 * a hive call has returned (every hive call synchronises its stream).
 *
 * A CUDA run on a machine without a GPU skips (exit 77), unless the
 * environment sets HIVE_REQUIRE_GPU=1: then a missing GPU is a failure. */
#ifndef HT_TARGET_H
#define HT_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "hive.h"

/* Where a CUDA table's test memory lives: managed memory (the default; pages
 * move to whichever side touches them), or pinned host memory mapped for the
 * GPU (no pages move: the GPU reads and writes it across the bus), for tests
 * that fill every batch on the host and stream through many of them. */
typedef enum ht_memory { HT_MEMORY_MANAGED = 0, HT_MEMORY_MAPPED = 1 } ht_memory;

typedef struct ht_target {
    hive_backend backend;    /* HIVE_BACKEND_CPU or HIVE_BACKEND_CUDA */
    ht_memory memory;        /* CUDA table memory; ht_target_init sets managed */
    hive_key_width width;    /* HIVE_KV32 or HIVE_KV64 */
    const char *backend_name; /* "cpu", "cuda" */
    const char *width_name;   /* "kv32", "kv64" */
    size_t kv_bytes;          /* bytes of one key or value: 4 or 8 */
    uint64_t reserved_min;    /* the first reserved key of the width */
    uint64_t value_mask;      /* all ones of the width */
    hive_design design;       /* the tables' design; ht_target_init sets HIVE_DESIGN_HIVE */
    const char *design_name;  /* "hive", "double", ... (src/designs/names.h) */
} ht_target;

void ht_target_init(ht_target *t, hive_backend backend, hive_key_width width);
/* "cpu"/"cuda" and "kv32"/"kv64"; return 0 on an unknown name. */
int ht_parse_backend(const char *s, hive_backend *backend);
int ht_parse_width(const char *s, hive_key_width *width);
/* "SxT" (hive-bench's --geometry form): S slots per bucket and T lanes per
 * key, both positive; returns 0 on anything else.  Which geometries make a
 * table is hive_create's rule, not the parser's. */
int ht_parse_geometry(const char *s, uint32_t *bucket_slots, uint32_t *lanes_per_op);
/* "hive"/"double"; returns 0 on an unknown name. */
int ht_parse_design(const char *s, hive_design *design);
/* Parses argv[first] as backend and argv[first + 1] as width (either may be
 * NULL to default to cpu / kv32); exits 1 with a usage line on bad input. */
void ht_target_from_args(ht_target *t, int argc, char **argv, int first, const char *usage);
/* Takes "--design NAME" (src/designs/names.h) out of argv (wherever it is after argv[0],
 * shifting the rest down and updating *argc), before a program parses the
 * rest, and returns the design named (HIVE_DESIGN_HIVE without one).  Exits
 * 1 with a usage line on a bad or missing name. */
hive_design ht_take_design(int *argc, char **argv, const char *usage);
/* The load up to which hive_reserve and growth make room in a table of
 * config c with `slots` slots per bucket: max_load_factor, or less where c's
 * design cannot hold that many keys in its buckets (src/designs/names.h). */
double ht_design_load(const hive_config *c, uint32_t slots);
/* Sets t's design (after ht_target_init or ht_target_from_args). */
void ht_target_set_design(ht_target *t, hive_design design);

/* 1 when HIVE_REQUIRE_GPU=1 is set. */
int ht_require_gpu(void);
/* After a failed create on `t`: for a CUDA target without a usable GPU
 * (or a build without CUDA), skips the test, or fails it under
 * HIVE_REQUIRE_GPU=1; returns otherwise.  `what` names the object. */
void ht_skip_without_gpu(const ht_target *t, hive_status s, const char *what);

/* The tests' fixed hash seed, for tables and caches: 0, or
 * HIVE_TEST_HASH_SEED from the environment. */
uint64_t ht_test_hash_seed(void);

/* HIVE_CONFIG_INIT with the target's backend, width and design, and a fixed
 * hash seed: ht_test_hash_seed(). */
hive_config ht_config(const ht_target *t);

/* Creates a table, or leaves the process: exit 77 for a CUDA table without a
 * GPU or from a build without CUDA (exit 1 under HIVE_REQUIRE_GPU=1); exit 1
 * for any other failure, a geometry the CUDA build has no kernels for
 * included. */
hive_table *ht_open(const ht_target *t, const hive_config *config);
/* Destroys and checks the status. */
void ht_close(hive_table *table);
/* Creates and destroys a small table of the target, so that a program skips
 * (or fails, see ht_open) before it allocates table memory for a backend that
 * is not there. */
void ht_require_backend(const ht_target *t);

/* ---------------------------------------------------------------- table memory */

/* `bytes` of table memory (of t->memory's kind for a CUDA table), filled
 * with 0xA5 (never NULL: exits 1 instead).  Set t->memory before the first
 * ht_alloc and keep it: ht_free frees by it. */
void *ht_alloc(const ht_target *t, size_t bytes);
void ht_free(const ht_target *t, void *p);
/* Test buffers not yet freed (checked to be 0 by ht_finish). */
long long ht_live_buffers(void);

/* Element i of a key or value array of the target's width. */
static inline uint64_t ht_get(const ht_target *t, const void *a, size_t i)
{
    return t->kv_bytes == 4 ? ((const uint32_t *)a)[i] : ((const uint64_t *)a)[i];
}

static inline void ht_put(const ht_target *t, void *a, size_t i, uint64_t v)
{
    if (t->kv_bytes == 4)
        ((uint32_t *)a)[i] = (uint32_t)v;
    else
        ((uint64_t *)a)[i] = v;
}

/* One batch's arrays in table memory, with room for `cap` elements. */
typedef struct ht_batch {
    const ht_target *t;
    size_t cap;
    size_t n;        /* elements in use */
    void *keys;      /* (cap) keys */
    void *values;    /* (cap) values */
    uint8_t *results; /* (cap) hive_result */
    uint8_t *found;  /* (cap) 0/1 */
    uint8_t *ops;    /* (cap) hive_op */
    hive_stream stream; /* the batch's own stream (NULL for a CPU table), so that
                           threads with their own batches launch concurrently */
} ht_batch;

void ht_batch_init(ht_batch *b, const ht_target *t, size_t cap);
void ht_batch_free(ht_batch *b);
/* Fills results with 0xEE and found with 0xEE, so untouched entries show. */
void ht_batch_poison_flags(ht_batch *b);

#define HT_FLAG_POISON 0xEEu

#endif
