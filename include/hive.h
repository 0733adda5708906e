/*
 * hive.h — the public C API of hive, a library of concurrent GPU hash tables.
 *
 * One header, C11, usable from C, C++/CUDA and (through ctypes/cffi) Python.
 * It includes no CUDA header: a CUDA stream is passed as `hive_stream`, which
 * is the same pointer type as `cudaStream_t` (so a cudaStream_t converts to it
 * without a cast), and NULL means the default stream.
 *
 * Memory spaces.  A table of backend HIVE_BACKEND_CUDA takes key, value, flag
 * and result arrays that the GPU can read and write: device memory of the
 * table's device (or of another device to which it has peer access enabled;
 * for memory from a pool, the pool's access granted to it), managed
 * memory or mapped (registered) host memory.  Plain pageable host pointers, and
 * device memory the table's device cannot reach, are rejected with
 * HIVE_ERROR_INVALID_ARGUMENT, as are key and value arrays not aligned to
 * their element size (4 or 8 bytes).  A table of backend
 * HIVE_BACKEND_CPU takes ordinary host pointers.  Below, "table memory" means
 * whichever of the two the table's backend takes.
 *
 * Key width.  A table stores either 32-bit keys with 32-bit values
 * (HIVE_KV32; key arrays are uint32_t[n], value arrays uint32_t[n]) or 64-bit
 * keys with 64-bit values (HIVE_KV64; uint64_t[n] each).  `const void *keys`
 * below points to the array of the table's width.
 *
 * Reserved keys.  The top four key values of each width are used by the
 * bucket protocol (empty slot, erased slot, slot being moved, and one kept
 * spare): HIVE_KV32_RESERVED_MIN .. 0xFFFFFFFF and
 * HIVE_KV64_RESERVED_MIN .. 0xFFFFFFFFFFFFFFFF.  A call given such a key skips
 * it (result HIVE_RESULT_REJECTED_RESERVED), processes every other key, and
 * returns HIVE_ERROR_RESERVED_KEY.  Values are unrestricted.
 *
 * Synchronisation.  Every bulk call is enqueued on `stream` and returns once
 * that work has finished (it synchronises the stream), so that its status can
 * report per-key outcomes such as reserved keys.  Calls on one table may come
 * from several host threads at once, each with its own stream: their
 * operations run concurrently on the device and are linearizable per key.
 * Resizing (growth before a batch that needs room, shrinking after erases)
 * excludes other calls on the same table for its duration.
 *
 * Errors.  Every function returns a hive_status.  hive_status_string() names
 * it; hive_last_error() gives this thread's text for the last failure (which
 * call, which argument, what the GPU said).  Setting HIVE_DEBUG=1 in the
 * environment logs every failure to stderr as it happens.  A call that fails
 * part way through a resize (a CUDA error, or memory) returns the error and
 * leaves the table usable, holding exactly the pairs it held: a growth may
 * stop between the old and the new size, a shrink is undone.  Only if that
 * recovery fails too (the GPU's context is lost, as a rule) does the table
 * refuse every later call but hive_clear and hive_destroy with
 * HIVE_ERROR_CUDA; hive_clear makes it an empty, usable table again.
 */
#ifndef HIVE_H
#define HIVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* HIVE_API marks the functions libhive.so exports: the library is built with
 * hidden visibility, so that nothing else of it is visible to a program.  In
 * a program that includes this header it expands to nothing. */
#if defined(HIVE_BUILDING_LIBRARY) && defined(__GNUC__)
#define HIVE_API __attribute__((visibility("default")))
#else
#define HIVE_API
#endif

#define HIVE_VERSION_MAJOR 0
#define HIVE_VERSION_MINOR 1
#define HIVE_VERSION_PATCH 0

/* The version of the library the program runs with, which may be newer than
 * the header it was built with: major * 10000 + minor * 100 + patch. */
HIVE_API uint32_t hive_version(void);

/* ---------------------------------------------------------------- status */

typedef enum hive_status {
    HIVE_SUCCESS = 0,
    HIVE_ERROR_INVALID_ARGUMENT = 1, /* NULL, bad size, bad config, wrong memory space */
    HIVE_ERROR_RESERVED_KEY = 2,     /* some keys were reserved sentinels; the rest were processed */
    HIVE_ERROR_OUT_OF_MEMORY = 3,    /* allocation failed; the table is unchanged */
    HIVE_ERROR_TABLE_FULL = 4,       /* some inserts found no room, the table could not grow for them
                                        (at its largest, or out of memory: see hive_last_error);
                                        the rest were processed */
    HIVE_ERROR_CUDA = 5,             /* a CUDA call failed (details in hive_last_error) */
    HIVE_ERROR_NO_DEVICE = 6,        /* a CUDA table was asked for and no usable GPU exists */
    HIVE_ERROR_UNSUPPORTED = 7,      /* valid request this build or backend cannot do */
    HIVE_ERROR_INTERNAL = 8          /* a bug in hive: please report it */
} hive_status;

/* Static text naming `status` ("success", "invalid argument", ...). */
HIVE_API const char *hive_status_string(hive_status status);

/* This thread's description of its last failed call; "" if none.  The text
 * stays valid until this thread's next hive call. */
HIVE_API const char *hive_last_error(void);

/* ---------------------------------------------------------------- config */

typedef enum hive_backend {
    HIVE_BACKEND_AUTO = 0, /* CUDA when a GPU of compute capability 9.0+ is present, else CPU */
    HIVE_BACKEND_CUDA = 1,
    HIVE_BACKEND_CPU = 2
} hive_backend;

typedef enum hive_key_width {
    HIVE_KV32 = 1, /* 32-bit key + 32-bit value packed in one 64-bit slot */
    HIVE_KV64 = 2  /* 64-bit key + 64-bit value in one 128-bit slot */
} hive_key_width;

/* Where a key may live and how it is placed: the table's design
 * (docs/designs/).  Every design keeps the same guarantees (no duplicate
 * keys, no lost keys, linearizable operations per key), the same buckets,
 * stash, geometry and resizing, and serves every call below. */
typedef enum hive_design {
    HIVE_DESIGN_HIVE = 0,  /* the default: two buckets per key, cuckoo eviction, an overflow stash
                              (docs/designs/hive.md) */
    HIVE_DESIGN_DOUBLE = 1, /* bucketized double hashing: up to 16 probe buckets per key, first
                               fit, no eviction, the same stash (docs/designs/double.md);
                               max_evictions is unused */
    HIVE_DESIGN_P2 = 2,     /* two choices: a key's two buckets; a new key takes the first while
                               it is under 3/4 full, else the less full of the two; finds read
                               both; no eviction, the same stash (docs/designs/p2.md);
                               max_evictions is unused */
    HIVE_DESIGN_ICEBERG = 3, /* a front-yard bucket, first fit, then the less full of two
                               back-yard buckets; finds stop at a front yard that has never
                               been full; no eviction, the same stash
                               (docs/designs/iceberg.md); max_evictions is unused */
    HIVE_DESIGN_CUCKOO = 4, /* three buckets per key, first fit, then cuckoo eviction by a random
                               walk of at most max_evictions moves, the same stash
                               (docs/designs/cuckoo.md) */
    HIVE_DESIGN_CHAINING = 5, /* WarpSpeed's ChainingHT over hive's buckets: one head bucket per
                                key, its overflow in chains of bucket-sized nodes from a node pool
                                that takes the stash's place and size (stash_fraction; 0: no
                                chains), never moved (docs/designs/chaining.md); max_evictions is
                                unused */
    /* WarpSpeed's metadata variants: the design above with a 16-bit fingerprint per slot, in an
       array beside the buckets (2 bytes a slot more).  A probe reads a bucket's tags first and
       only the slots whose tag is the key's, so an absent key costs a sector of tags per probe
       bucket, however large the buckets (docs/designs/metadata.md). */
    HIVE_DESIGN_DOUBLE_M = 6,
    HIVE_DESIGN_P2_M = 7,
    HIVE_DESIGN_ICEBERG_M = 8
} hive_design;

#define HIVE_KV32_RESERVED_MIN 0xFFFFFFFCu
#define HIVE_KV64_RESERVED_MIN 0xFFFFFFFFFFFFFFFCull

typedef struct CUstream_st *hive_stream; /* == cudaStream_t; NULL = default stream */

/* Raised whenever the config's layout changes.  2: `design`, which took what
 * was the struct's tail padding (its size stayed 80 bytes), so a config of
 * version 1 (an older header) is read without its padding: its design is the
 * default.  3: `hash_seed` and `allocator` at the end (112 bytes).  4:
 * `absent_filter_bits` at the end (120 bytes). */
#define HIVE_CONFIG_VERSION 4u

/* hive_config.hash_seed: a seed drawn at random for each table. */
#define HIVE_HASH_SEED_RANDOM UINT64_MAX

/* Device memory from the caller (an RMM resource, a caching pool, a
 * framework's allocator): hive_config.allocator.  `alloc` returns `bytes` of
 * device memory of the table's device, usable in work ordered on `stream`
 * (stream-ordered, as cudaMallocAsync), aligned to 256 bytes as cudaMalloc's
 * (else HIVE_ERROR_INVALID_ARGUMENT), or NULL when it has none (then
 * HIVE_ERROR_OUT_OF_MEMORY, the table unchanged); `free` gives back what
 * alloc returned, with the same size, ordered on `stream` (perhaps another
 * stream than alloc's).  `user` is passed to both.  Either both functions or
 * neither.  Called from the threads that call hive, concurrently where they
 * do; never from inside a kernel or a stream callback.  A CUDA table takes
 * every device allocation from it; its bucket arrays then move to a larger
 * block at each growth (docs/api.md).  CPU tables ignore it. */
typedef struct hive_allocator {
    void *(*alloc)(void *user, size_t bytes, hive_stream stream);
    void (*free)(void *user, void *ptr, size_t bytes, hive_stream stream);
    void *user;
} hive_allocator;

/* Table configuration.  Start from HIVE_CONFIG_INIT (or hive_config_init)
 * and change fields.  A config from an older header (a smaller struct_size
 * or an older version) is accepted, the fields it lacks taking their
 * defaults; one from a newer header, one not started from the initialiser,
 * or one whose fields are inconsistent, is rejected with
 * HIVE_ERROR_INVALID_ARGUMENT. */
typedef struct hive_config {
    uint32_t struct_size;     /* sizeof(hive_config), set by HIVE_CONFIG_INIT */
    uint32_t version;         /* HIVE_CONFIG_VERSION, set by HIVE_CONFIG_INIT */
    hive_backend backend;     /* default HIVE_BACKEND_AUTO */
    int device;               /* CUDA device ordinal; default 0 */
    hive_key_width key_width; /* default HIVE_KV32 */
    uint64_t initial_capacity; /* slots to start with (rounded up to whole buckets); default 1024 */
    double max_load_factor;   /* in (0, 1]: grow before size would pass it; default 0.9 */
    double min_load_factor;   /* in [0, max_load_factor/2]: shrink below it, 0 = never; default 0.25 */
    uint32_t resize_batch;    /* K: buckets split or merged per resize kernel launch (CPU: per pass of the workers); default 2^26 */
    uint32_t max_evictions;   /* bound on one insert's cuckoo displacement chain; default 8 */
    double stash_fraction;    /* overflow stash slots as a fraction of capacity, in [0, 0.25]; default 0.01.
                                 Resizing keeps the stash within a factor of two of it; where
                                 keys crowd a few buckets the stash is enlarged for them (to four
                                 times its pairs, up to a quarter of capacity) and returns to the
                                 fraction at a later resize or compaction once they are gone; a
                                 stash whose pairs would not all fit a smaller one keeps its
                                 size.  0: no stash.  HIVE_DESIGN_CHAINING: the node pool's
                                 share, in [0, 0.5], raised to what its overflow needs at
                                 max_load_factor (up to half; hive_get_config reports it) */
    uint32_t threads;         /* CPU backend worker threads; 0 = one per online core.  Tables and
                                 caches with the same count share one pool of workers */
    uint32_t bucket_slots;    /* CUDA geometry: slots per bucket, power of two in 4..32; 0 = tuned default
                                 (CUDA: 4, a tagged design's 16, iceberg_m's 32; CPU: a cache line) */
    uint32_t lanes_per_op;    /* CUDA geometry: lanes sharing one key, power of two in 1..bucket_slots; 0 = tuned default */
    hive_design design;       /* default HIVE_DESIGN_HIVE */
    uint64_t hash_seed;       /* mixed into both bucket hashes, so that keys aimed at few buckets under
                                 one seed spread under another; HIVE_HASH_SEED_RANDOM (the default):
                                 drawn per table, and reported by hive_get_config; any other value:
                                 that seed, for reproducible layouts (0: the unseeded hash) */
    hive_allocator allocator; /* CUDA tables: where every device allocation comes from, the buckets
                                 and their growth included; all NULL (the default): the library's own */
    uint32_t absent_filter_bits; /* CPU tables: 0 (the default), or bits per slot in 4..16 of a filter
                                 of the keys present that every find reads first: a find of an absent
                                 key then reads one cache line instead of the key's buckets (about
                                 2x such finds at 8 bits), at the cost of a line more for inserts and
                                 for finds of present keys, which a batch stops paying where most of
                                 its finds hit (docs/api.md, "Absent-key filter").
                                 CUDA tables ignore it (hive_get_config reports 0) */
} hive_config;

#define HIVE_CONFIG_INIT                                                        \
    {                                                                           \
        (uint32_t)sizeof(hive_config), HIVE_CONFIG_VERSION, HIVE_BACKEND_AUTO, 0, \
            HIVE_KV32, 1024u, 0.9, 0.25, 67108864u, 8u, 0.01, 0u, 0u, 0u,           \
            HIVE_DESIGN_HIVE, HIVE_HASH_SEED_RANDOM, { NULL, NULL, NULL }, 0u   \
    }

/* What HIVE_CONFIG_INIT gives, as a function (for bindings that cannot
 * expand a macro).  NULL is ignored. */
HIVE_API void hive_config_init(hive_config *config);

/* ---------------------------------------------------------------- table */

typedef struct hive_table hive_table;

/* Creates a table.  Returns HIVE_ERROR_NO_DEVICE for a CUDA table without a
 * usable GPU, HIVE_ERROR_OUT_OF_MEMORY when its memory cannot be had.
 * `*table` is set only on success.  A process's first CUDA table also loads
 * the kernels it uses (some 50 ms on an H100), so that its first batch does
 * not. */
HIVE_API hive_status hive_create(const hive_config *config, hive_table **table);

/* Frees the table and everything it holds.  Calls on the table that other
 * threads have already begun run to their end first; a call that begins
 * while the table is being destroyed returns HIVE_ERROR_INVALID_ARGUMENT.
 * Calling with the handle after hive_destroy has returned is the caller's
 * error (the handle's memory is gone): hive cannot detect it reliably.
 * Waits only for this table's own work, not for the whole device. */
HIVE_API hive_status hive_destroy(hive_table *table);

/* The configuration the table was created with, with defaults resolved
 * (backend, geometry, thread count); its design among them.  A config whose
 * struct_size is an older header's size gets only the fields it has. */
HIVE_API hive_status hive_get_config(const hive_table *table, hive_config *config);

/* ---------------------------------------------------------------- bulk operations */

/* How an insert treats a key that is already present. */
typedef enum hive_combine {
    HIVE_COMBINE_KEEP = 0,   /* insert-if-absent: the stored value stays */
    HIVE_COMBINE_ASSIGN = 1, /* replace the stored value */
    HIVE_COMBINE_ADD = 2,    /* stored += value (unsigned, wraps) */
    HIVE_COMBINE_MIN = 3,    /* stored = min(stored, value), unsigned */
    HIVE_COMBINE_MAX = 4     /* stored = max(stored, value), unsigned */
} hive_combine;

/* Operation codes of a mixed batch (hive_apply). */
typedef enum hive_op {
    HIVE_OP_FIND = 0,   /* value out, result FOUND / NOT_FOUND */
    HIVE_OP_INSERT = 1, /* insert if absent (combine KEEP) */
    HIVE_OP_UPSERT = 2, /* insert, or combine with the call's combine mode */
    HIVE_OP_ERASE = 3   /* result ERASED / NOT_FOUND */
} hive_op;

/* Per-key outcome codes, one uint8_t per key where a call takes `results`. */
typedef enum hive_result {
    HIVE_RESULT_NONE = 0,
    HIVE_RESULT_INSERTED = 1,          /* a new key was stored */
    HIVE_RESULT_UPDATED = 2,           /* key existed; value combined (ASSIGN/ADD/MIN/MAX) */
    HIVE_RESULT_EXISTED = 3,           /* key existed; value kept (KEEP / HIVE_OP_INSERT) */
    HIVE_RESULT_FOUND = 4,             /* find: key present, value written */
    HIVE_RESULT_NOT_FOUND = 5,         /* find or erase: key absent */
    HIVE_RESULT_ERASED = 6,            /* erase: key removed */
    HIVE_RESULT_REJECTED_RESERVED = 7, /* key is a reserved sentinel; nothing done */
    HIVE_RESULT_REJECTED_FULL = 8,     /* insert found no room; nothing done */
    HIVE_RESULT_EVICTED = 9,           /* cache: a new key was stored in place of the bucket's
                                          lowest-scored entry, which left the table */
    HIVE_RESULT_REFUSED = 10           /* cache: a new key's score was below every score of its
                                          full bucket(s); nothing done (admission control) */
} hive_result;

/* Inserts n pairs.  keys, values: table memory, (n).  results: table memory,
 * (n) uint8_t hive_result codes, or NULL.  Keys repeated within the batch are
 * applied one after another in an unspecified order (ADD sums them all).
 * Grows the table first when the batch's new keys would pass max_load_factor:
 * near that bound it first counts which keys are absent, so that updates of
 * present keys never grow it.
 * Without `results` the call uses two bits per key of table memory of its own
 * (n/4 bytes: it needs to know which keys to run again if some find no
 * room), and returns HIVE_ERROR_OUT_OF_MEMORY, having done nothing, when it
 * cannot get them; hive_apply does the same.
 * Returns HIVE_ERROR_TABLE_FULL if some key found no room, else
 * HIVE_ERROR_RESERVED_KEY if some key was reserved, else HIVE_SUCCESS. */
HIVE_API hive_status hive_insert(hive_table *table, uint64_t n, const void *keys, const void *values,
                                 hive_combine combine, uint8_t *results, hive_stream stream);

/* Looks up n keys.  values: table memory, (n), or NULL; the value of each
 * found key is written, the entries of absent keys are left as they were.
 * found: table memory, (n) uint8_t 1/0, or NULL. */
HIVE_API hive_status hive_find(hive_table *table, uint64_t n, const void *keys, void *values,
                               uint8_t *found, hive_stream stream);

/* found: table memory, (n) uint8_t 1/0 (required). */
HIVE_API hive_status hive_contains(hive_table *table, uint64_t n, const void *keys, uint8_t *found,
                                   hive_stream stream);

/* Asynchronous calls: hive_find, hive_contains, hive_insert, hive_erase and
 * hive_apply that enqueue their work on `stream` and return at once, without
 * waiting for the GPU or reading anything back, so that they overlap the
 * caller's kernels, pipeline small batches, and may be captured in a CUDA
 * Graph.  The arrays are as for the synchronous calls, and written when the
 * stream reaches the work.  The call's own outcome goes to *status (table
 * memory: device memory for a CUDA table), zeroed and then summed by the
 * work, a count per word:
 *   HIVE_ASYNC_INSERTED  new keys stored
 *   HIVE_ASYNC_ERASED    keys erased
 *   HIVE_ASYNC_RESERVED  reserved keys (not looked up, found 0; nothing done)
 *   HIVE_ASYNC_FULL      inserts rejected for room (see below)
 *   HIVE_ASYNC_BAD_OPS   elements of hive_apply_async with an op code outside hive_op
 * The return value covers only the enqueuing (bad arguments, a broken
 * table, CUDA errors); the synchronous calls' HIVE_ERROR_RESERVED_KEY,
 * TABLE_FULL and bad-op errors are these counts.
 *
 * Room: the table never grows while asynchronous work runs.  An
 * asynchronous insert (or apply with inserting elements) grows it before
 * enqueuing, and only there, where the size, plus the keys that earlier
 * asynchronous calls may have added, plus n, would pass max_load_factor:
 * then it waits for those calls, to count what they added (the one host
 * round trip; none while the bound stays below the load).  A key that still
 * finds no room is rejected: results[i] HIVE_RESULT_REJECTED_FULL, counted
 * in HIVE_ASYNC_FULL; run those keys again with hive_insert, which grows.
 * `results` is required where the call may insert (its keys' locked part
 * runs from it), and hive_apply_async requires `values`.  Asynchronous erases never shrink the table; a later
 * synchronous call may.
 *
 * The size: hive_size, hive_stats_get and the synchronous calls that insert
 * or erase first wait for the asynchronous inserts and erases enqueued
 * before them, and count what they did.
 *
 * Ordering: a call that resizes the table (an insert that grows it, an erase
 * that shrinks it, hive_reserve, hive_clear) and hive_destroy first wait for
 * the asynchronous work enqueued before them, so that it runs on the table it
 * was enqueued on; work that other calls enqueue later runs after it.  Calls
 * on one stream run in order; calls on different streams run concurrently,
 * as synchronous calls on several streams do.  A CUDA Graph is the
 * exception: its work runs when the graph is launched, so a graph holding
 * hive calls must be launched only while the table keeps the layout it was
 * captured with: re-capture it after the table grows or shrinks (hive_stats:
 * grows and shrinks) and do not launch it while such a call runs (with
 * config.allocator the buckets themselves move to new memory at a growth,
 * and the old is freed); a graph
 * that inserts or erases should be followed by hive_size or another
 * synchronous call only after it was launched and waited for.  On a CPU
 * table the calls run before returning (and may grow the table, as the
 * synchronous ones do). */
#define HIVE_ASYNC_STATUS_WORDS 16
#define HIVE_ASYNC_INSERTED 0 /* the words' meanings; the other words are the library's */
#define HIVE_ASYNC_ERASED 1
#define HIVE_ASYNC_RESERVED 2
#define HIVE_ASYNC_FULL 3
#define HIVE_ASYNC_BAD_OPS 4
typedef struct hive_async_status {
    uint64_t words[HIVE_ASYNC_STATUS_WORDS];
} hive_async_status;

HIVE_API hive_status hive_find_async(hive_table *table, uint64_t n, const void *keys, void *values,
                                     uint8_t *found, hive_async_status *status, hive_stream stream);
HIVE_API hive_status hive_contains_async(hive_table *table, uint64_t n, const void *keys, uint8_t *found,
                                         hive_async_status *status, hive_stream stream);
HIVE_API hive_status hive_insert_async(hive_table *table, uint64_t n, const void *keys, const void *values,
                                       hive_combine combine, uint8_t *results, hive_async_status *status,
                                       hive_stream stream);
HIVE_API hive_status hive_erase_async(hive_table *table, uint64_t n, const void *keys, uint8_t *results,
                                      hive_async_status *status, hive_stream stream);
HIVE_API hive_status hive_apply_async(hive_table *table, uint64_t n, const uint8_t *ops, const void *keys,
                                      void *values, hive_combine combine, uint8_t *results,
                                      hive_async_status *status, hive_stream stream);

/* Device views: the table used from the caller's own CUDA kernels, through
 * include/hive/device.cuh (find, insert, upsert with a combine mode or the
 * caller's own, erase: one key per thread).
 *
 * hive_device_view_acquire fills *view (a value the caller passes to its
 * kernels) and pins the table's layout: until the matching
 * hive_device_view_release, the table does not grow, shrink or compact.
 * Meanwhile the synchronous and asynchronous calls still work, their keys
 * without room rejected for it (HIVE_ERROR_TABLE_FULL naming the view), and
 * hive_reserve, hive_clear and hive_export refuse (INVALID_ARGUMENT).  Make
 * room first (hive_reserve): inside a kernel an insert that finds no room
 * returns HIVE_RESULT_REJECTED_FULL.
 *
 * hive_device_view_release(table, stream) ends one acquire once the
 * caller's kernels that use the view are enqueued on `stream` (for kernels on
 * several streams, make `stream` wait for them first): what later changes
 * the layout waits for that work, and hive_size counts what it inserted and
 * erased.  A view must not be used in work enqueued after its release.
 * CUDA tables only: a CPU table returns HIVE_ERROR_UNSUPPORTED. */
#define HIVE_DEVICE_VIEW_WORDS 16
typedef struct hive_device_view {
    uint64_t words[HIVE_DEVICE_VIEW_WORDS];
} hive_device_view;

HIVE_API hive_status hive_device_view_acquire(hive_table *table, hive_device_view *view);
HIVE_API hive_status hive_device_view_release(hive_table *table, hive_stream stream);

/* Erases n keys.  results: table memory, (n) hive_result (ERASED, NOT_FOUND,
 * REJECTED_RESERVED), or NULL.  May shrink the table afterwards. */
HIVE_API hive_status hive_erase(hive_table *table, uint64_t n, const void *keys, uint8_t *results,
                                hive_stream stream);

/* A mixed batch, its elements executed concurrently: element i performs
 * ops[i] (hive_op) on keys[i].  values: table memory, (n): input of
 * INSERT/UPSERT, output of FIND (absent keys leave it unchanged); may be NULL
 * when no element inserts (FIND elements then write no value), else the call
 * returns HIVE_ERROR_INVALID_ARGUMENT having done nothing.  combine applies to HIVE_OP_UPSERT.  results: (n)
 * hive_result or NULL.  An element whose op code is outside hive_op is skipped
 * (result HIVE_RESULT_NONE) while the others run, and the call then returns
 * HIVE_ERROR_INVALID_ARGUMENT.  Grows the table first, as hive_insert does,
 * only when the size after the batch could pass max_load_factor: its erases
 * of present keys make room for its new keys, so that churn at the bound
 * (as many keys erased as inserted) keeps the table's size. */
HIVE_API hive_status hive_apply(hive_table *table, uint64_t n, const uint8_t *ops, const void *keys,
                                void *values, hive_combine combine, uint8_t *results, hive_stream stream);

/* ---------------------------------------------------------------- whole-table operations */

/* Number of live keys (exact between calls). */
HIVE_API hive_status hive_size(hive_table *table, uint64_t *size);

/* Removes every key; keeps the capacity. */
HIVE_API hive_status hive_clear(hive_table *table, hive_stream stream);

/* Grows the table so that `capacity` keys fit under max_load_factor.  Never
 * shrinks.  HIVE_ERROR_OUT_OF_MEMORY leaves the table as it was. */
HIVE_API hive_status hive_reserve(hive_table *table, uint64_t capacity, hive_stream stream);

/* Copies every live pair into keys/values (table memory, (capacity) each) in
 * no particular order and sets *count (host) to the number of pairs.  If
 * capacity is smaller than the size, nothing is written, *count is set to the
 * size and HIVE_ERROR_INVALID_ARGUMENT is returned. */
HIVE_API hive_status hive_export(hive_table *table, uint64_t capacity, void *keys, void *values,
                                 uint64_t *count, hive_stream stream);

typedef struct hive_stats {
    uint64_t capacity;        /* slots in the main table (buckets * bucket_slots) */
    uint64_t size;            /* live keys, stash included */
    double load_factor;       /* size / capacity */
    uint64_t buckets;
    uint32_t bucket_slots;
    uint32_t lanes_per_op;
    uint64_t stash_capacity;  /* slots */
    uint64_t stash_size;      /* live keys in the stash */
    uint64_t grows;           /* resize steps that added buckets */
    uint64_t shrinks;         /* resize steps that removed buckets */
    uint64_t buckets_split;
    uint64_t buckets_merged;
    uint64_t evictions;       /* keys displaced by cuckoo eviction */
    uint64_t insert_steps[4]; /* inserts finished at each step of the four-step insert:
                                 0 replace (key present), 1 claim-then-commit,
                                 2 cuckoo eviction, 3 overflow stash */
    uint64_t bytes_held;      /* table memory held by the table (device bytes for CUDA) */
    uint64_t shrinks_undone;  /* shrinks that stopped short: a merge step could not place every
                                 pair and was undone, keeping every key; the next shrink is tried
                                 only once the size has halved, or after a grow or a clear */
} hive_stats;

HIVE_API hive_status hive_stats_get(hive_table *table, hive_stats *stats);

/* ================================================================ the cache table
 *
 * A table that never runs out of room: it holds at most `capacity` entries,
 * and a new key that meets a full bucket takes the place of the entry of
 * lowest score there (eviction), or is refused if its own score is lower
 * still (admission control; ties are admitted).  Built for embedding tables,
 * GPU caches in front of host data and feature stores (HierarchicalKV's
 * contract; docs/cache.md compares).
 *
 * Entries.  A 64-bit key (the top four values, HIVE_KV64_RESERVED_MIN and up,
 * are reserved as for the dictionary), a value of `dim` elements of
 * `value_type`, and a 64-bit score that the table's policy keeps.  Value
 * arrays are row-major: value i is dim elements at values + i * dim.
 *
 * Memory spaces and streams are the dictionary's (top of this file): arrays
 * named "(n)" are table memory; counts returned through `uint64_t *` are host
 * memory.  Every call is enqueued on `stream` and returns once it is done.
 *
 * Concurrency.  Calls come in two groups: readers (find, find_missed,
 * contains, export, size, save) and writers (every call that changes the
 * table).  Calls of one group run concurrently with each other, from any
 * host threads and streams (writers synchronise per key and per bucket on
 * the device, so two writers of one key are applied one after the other and
 * a key is never stored twice); a reader never overlaps a writer, so a reader
 * sees no entry half written.  HierarchicalKV lets inserters run only alone.
 *
 * Capacity is fixed at creation (rounded up to whole buckets): a cache runs
 * full by design, so it never grows or shrinks. */

/* How a score is kept.  `clock` is nanoseconds of a global timer (the GPU's
 * %globaltimer; CLOCK_REALTIME on the CPU backend); `inc` is the caller's
 * score for the key; `epoch` is set with hive_cache_set_epoch. */
typedef enum hive_score_policy {
    HIVE_SCORE_LRU = 0,       /* every write stores clock.  Calls take no scores (pass NULL) */
    HIVE_SCORE_LFU = 1,       /* new key: inc; existing key: old + inc, saturating.  A new key is
                                 always admitted (it evicts the least frequent) */
    HIVE_SCORE_EPOCH_LRU = 2, /* (epoch << 32) | (clock >> 20), about 1 ms ticks.  No scores */
    HIVE_SCORE_EPOCH_LFU = 3, /* new key: (epoch << 32) | min(inc, 2^32-1); existing key in the
                                 same epoch: low word + inc, saturating at 2^32-1 */
    HIVE_SCORE_CUSTOM = 4     /* the caller's score, stored as given */
} hive_score_policy;

/* The element type of values, which fixes its size and how
 * hive_cache_accum_or_assign adds. */
typedef enum hive_value_type {
    HIVE_VALUE_F32 = 0,
    HIVE_VALUE_F64 = 1,
    HIVE_VALUE_I32 = 2,
    HIVE_VALUE_I64 = 3,
    HIVE_VALUE_BYTES = 4 /* opaque bytes (dim = bytes per value); cannot be accumulated */
} hive_value_type;

/* Raised whenever the cache config's layout changes.  2: `value_hbm_bytes`
 * at the end (a version-1 config is 48 bytes long: its values all live in
 * device memory, the default).  3: `hash_seed` and `allocator` at the end
 * (88 bytes). */
#define HIVE_CACHE_CONFIG_VERSION 3u

/* value_hbm_bytes with no limit: every value in device memory. */
#define HIVE_CACHE_HBM_UNLIMITED UINT64_MAX

/* Cache configuration.  Start from HIVE_CACHE_CONFIG_INIT (or
 * hive_cache_config_init) and change fields.  A config from an older header
 * (a smaller struct_size, an older version) is accepted, the fields it
 * lacks taking their defaults; one from a newer header, or one whose fields
 * are inconsistent, is rejected with HIVE_ERROR_INVALID_ARGUMENT.
 *
 * Where values live (docs/cache.md, "Values in host memory").  Slot i of
 * the table keeps its value in device memory when i < value_hbm_bytes /
 * (value bytes), the budget rounded down to whole values, else in pinned
 * host memory mapped into the device's address space, which the kernels
 * read and write over PCIe (a warp's copies coalesced into whole 128-byte
 * lines).  Keys, scores and digests always stay in device memory; every
 * call works alike in either place.  Which slots a key takes does not
 * depend on the budget: about value_hbm_bytes / (capacity * value bytes) of
 * the entries, whichever keys they are, have their values in device memory.
 * The CPU backend keeps values in host memory either way, split at the
 * same slot into two arrays; hive_cache_get_config reports the budget as
 * resolved (whole values, at most all of them).  On a CUDA cache with 1.5
 * GiB or more of host values, a call of 2^14 keys or more that copies
 * values (a find, or a write that takes values) takes its keys in bucket
 * order, so that the values move in about address order, through lists the
 * cache keeps in device memory: about 32 bytes a key of the largest such
 * batch, plus the sort's scratch. */

typedef struct hive_cache_config {
    uint32_t struct_size;       /* sizeof(hive_cache_config), set by HIVE_CACHE_CONFIG_INIT */
    uint32_t version;           /* HIVE_CACHE_CONFIG_VERSION */
    hive_backend backend;       /* default HIVE_BACKEND_AUTO */
    int device;                 /* CUDA device ordinal; default 0 */
    uint64_t capacity;          /* entries; rounded up to whole buckets; default 2^20 */
    uint32_t dim;               /* elements per value, >= 1; default 1 */
    hive_value_type value_type; /* default HIVE_VALUE_F32 */
    hive_score_policy policy;   /* default HIVE_SCORE_LRU */
    uint32_t bucket_slots;      /* entries per bucket: 8, 16, 32, 64 or 128; 0 = 16 (32 with
                                   dual_bucket).  A bucket's digests fit one 32-byte sector up to
                                   32 slots, so a miss reads one sector; an eviction reads the
                                   bucket's scores (8 bytes a slot): fewer slots evict faster and
                                   choose among fewer, more fill further before the first eviction */
    uint32_t dual_bucket;       /* 1: two buckets per key; a new key fills the emptier one, and a
                                   full pair evicts the lower minimum (higher load before the first
                                   eviction, better retention; one more bucket read per miss) */
    uint32_t threads;           /* CPU backend worker threads; 0 = one per online core (shared
                                   with every table and cache of the same count) */
    uint64_t value_hbm_bytes;   /* bytes of values kept in device memory, at most (whole values);
                                   the rest in mapped host memory (above).  0: every value in
                                   host memory.  Default HIVE_CACHE_HBM_UNLIMITED.  Version 2 */
    uint64_t hash_seed;         /* mixed into the key's hash (its digest and bucket), so that keys
                                   aimed at one bucket under one seed, to evict chosen entries,
                                   spread under another; HIVE_HASH_SEED_RANDOM (the default): drawn
                                   per cache, and reported by hive_cache_get_config; any other
                                   value: that seed (0: the unseeded hash).  Version 3 */
    hive_allocator allocator;   /* CUDA caches: every device allocation (digests, keys, scores,
                                   the device values, locks, counters) from the caller's allocator,
                                   on the legacy default stream, as hive_config.allocator; values
                                   in host memory stay pinned host memory.  Default: the library's
                                   cudaMalloc.  CPU caches ignore it.  Version 3 */
} hive_cache_config;

#define HIVE_CACHE_CONFIG_INIT                                                      \
    {                                                                               \
        (uint32_t)sizeof(hive_cache_config), HIVE_CACHE_CONFIG_VERSION, HIVE_BACKEND_AUTO, 0, \
            1048576u, 1u, HIVE_VALUE_F32, HIVE_SCORE_LRU, 0u, 0u, 0u,               \
            HIVE_CACHE_HBM_UNLIMITED, HIVE_HASH_SEED_RANDOM, { NULL, NULL, NULL }   \
    }

/* What HIVE_CACHE_CONFIG_INIT gives, as a function.  NULL is ignored. */
HIVE_API void hive_cache_config_init(hive_cache_config *config);

typedef struct hive_cache hive_cache;

/* Which entries a filtering call selects: those whose key has `key_pattern`
 * in the bits of `key_mask` and whose score lies in [score_min, score_max].
 * {0, 0, 0, UINT64_MAX} selects every entry. */
typedef struct hive_cache_filter {
    uint64_t key_mask;
    uint64_t key_pattern;
    uint64_t score_min;
    uint64_t score_max;
} hive_cache_filter;

/* Creates a cache.  Errors as hive_create. */
HIVE_API hive_status hive_cache_create(const hive_cache_config *config, hive_cache **cache);
/* Frees it (rules as hive_destroy). */
HIVE_API hive_status hive_cache_destroy(hive_cache *cache);
/* The configuration, with defaults resolved, capacity rounded and
 * value_hbm_bytes resolved (the bytes of values in device memory).  A config
 * whose struct_size is an older header's size gets only the fields it has. */
HIVE_API hive_status hive_cache_get_config(const hive_cache *cache, hive_cache_config *config);

/* Scores passed to the calls below: (n) uint64_t, table memory; required by
 * LFU, EPOCH_LFU and CUSTOM, and must be NULL for LRU and EPOCH_LRU
 * (HIVE_ERROR_INVALID_ARGUMENT otherwise, with nothing done). */

/* Upsert.  A present key takes the new value and its score by the policy; a
 * new key is stored in a free slot of its bucket, else in place of the
 * bucket's lowest-scored entry, unless its score is lower than that entry's
 * (then it is refused).  results: (n) hive_result or NULL: INSERTED, UPDATED,
 * EVICTED, REFUSED, REJECTED_RESERVED.  Keys repeated in a batch are applied
 * one after another, in no particular order; on the GPU each repeat waits
 * for the one before (some microseconds), so a batch that repeats one key
 * thousands of times is slow: deduplicate such batches (HierarchicalKV
 * requires unique keys).  Returns HIVE_ERROR_RESERVED_KEY if some key was
 * reserved (the rest were processed), else HIVE_SUCCESS: evictions and
 * refusals are the cache working, not errors. */
HIVE_API hive_status hive_cache_insert_or_assign(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                                 const void *values, const uint64_t *scores,
                                                 uint8_t *results, hive_stream stream);

/* As hive_cache_insert_or_assign, and every entry that leaves the table,
 * and every refused new key with its input value and score, is written
 * compactly to evicted_keys/evicted_values/evicted_scores ((n) each, table
 * memory; evicted_scores may be NULL); *evicted_count (host) says how many.
 * Nothing is lost: the entries before the call and the batch together are
 * the entries after it and the evicted ones (a key repeated in the batch
 * counts once, with the value of the repeat applied last).  An erased slot that a new key reuses
 * is not reported. */
HIVE_API hive_status hive_cache_insert_and_evict(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                                 const void *values, const uint64_t *scores,
                                                 uint64_t *evicted_keys, void *evicted_values,
                                                 uint64_t *evicted_scores, uint64_t *evicted_count,
                                                 hive_stream stream);

/* Looks up n keys; a reader (scores are not refreshed).  values: (n * dim)
 * or NULL, written for found keys only; found: (n) 1/0 or NULL; scores: (n)
 * or NULL, the stored score of found keys. */
HIVE_API hive_status hive_cache_find(hive_cache *cache, uint64_t n, const uint64_t *keys, void *values,
                                     uint8_t *found, uint64_t *scores, hive_stream stream);

/* As hive_cache_find, and the keys not found and their positions in `keys`
 * are written compactly to missed_keys and missed_indices ((n) each, table
 * memory), in no particular order; *missed_count (host) says how many. */
HIVE_API hive_status hive_cache_find_missed(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                            void *values, uint64_t *scores, uint64_t *missed_keys,
                                            uint64_t *missed_indices, uint64_t *missed_count,
                                            hive_stream stream);

/* found: (n) 1/0, required.  A reader. */
HIVE_API hive_status hive_cache_contains(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                         uint8_t *found, hive_stream stream);

/* For each key: present → its stored value is written to values (and its
 * score to scores, when given, after the policy refreshed it); absent → it
 * is inserted with the value in values (eviction and refusal as upsert).
 * values: (n * dim), in and out.  scores: in (the policy's input) and out.
 * found: (n) 1/0 or NULL (1: the value was read; 0: inserted or refused). */
HIVE_API hive_status hive_cache_find_or_insert(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                               void *values, uint64_t *scores, uint8_t *found,
                                               hive_stream stream);

/* Existing keys only, never inserting; found: (n) 1/0 or NULL.
 * assign: the value, and the score by the policy.
 * assign_values: the value; the score stays.
 * assign_scores: the score, stored as given whatever the policy; the value stays. */
HIVE_API hive_status hive_cache_assign(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                       const void *values, const uint64_t *scores, uint8_t *found,
                                       hive_stream stream);
HIVE_API hive_status hive_cache_assign_values(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                              const void *values, uint8_t *found, hive_stream stream);
HIVE_API hive_status hive_cache_assign_scores(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                              const uint64_t *scores, uint8_t *found,
                                              hive_stream stream);

/* accum_flags: (n) uint8_t.  Flag 1 and key present: value += values[i],
 * element by element in value_type (integers wrap), score by the policy.
 * Flag 0 and key absent: insert values[i] (eviction and refusal as upsert).
 * The other two cases do nothing (result NONE).  results: (n) hive_result
 * or NULL.  HIVE_ERROR_UNSUPPORTED for HIVE_VALUE_BYTES. */
HIVE_API hive_status hive_cache_accum_or_assign(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                                const void *values, const uint8_t *accum_flags,
                                                const uint64_t *scores, uint8_t *results,
                                                hive_stream stream);

/* Erases n keys.  results: (n) ERASED / NOT_FOUND / REJECTED_RESERVED, or NULL. */
HIVE_API hive_status hive_cache_erase(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                      uint8_t *results, hive_stream stream);

/* Erases every entry `filter` (required) selects; *erased (host, or NULL) says how many. */
HIVE_API hive_status hive_cache_erase_if(hive_cache *cache, const hive_cache_filter *filter,
                                         uint64_t *erased, hive_stream stream);

/* Removes every entry. */
HIVE_API hive_status hive_cache_clear(hive_cache *cache, hive_stream stream);

/* Exports, in chunks, the live entries in slots [offset, offset + slots) of
 * the table's capacity() slots that `filter` selects (NULL: all), compactly,
 * in no particular order: keys (slots), values (slots * dim) or NULL, scores
 * (slots) or NULL, table memory.  *count (host) says how many.  Walk offset
 * from 0 to capacity in steps of `slots` to export the whole table.  A reader. */
HIVE_API hive_status hive_cache_export(hive_cache *cache, uint64_t offset, uint64_t slots,
                                       const hive_cache_filter *filter, uint64_t *keys, void *values,
                                       uint64_t *scores, uint64_t *count, hive_stream stream);

/* Live entries (exact between calls); slots; size / capacity. */
HIVE_API hive_status hive_cache_size(hive_cache *cache, uint64_t *size);
HIVE_API hive_status hive_cache_capacity(const hive_cache *cache, uint64_t *capacity);
HIVE_API hive_status hive_cache_load_factor(hive_cache *cache, double *load_factor);

/* Sets the epoch the EPOCH_* policies put in a score's high word. */
HIVE_API hive_status hive_cache_set_epoch(hive_cache *cache, uint32_t epoch);

/* Save and load.  save writes every entry (key, value, score) through
 * `write`, in chunks, after a header that names dim, value_type and policy;
 * `write` returns the bytes it took (fewer is an error: the call returns
 * HIVE_ERROR_INVALID_ARGUMENT naming the short write).  load reads a saved
 * stream through `read` (returns bytes read, 0 at the end) and inserts each
 * entry with its saved score as given (eviction applies if the cache is
 * smaller than the saved one, and may apply to a few entries of an equal
 * dual-bucket one, whose placement depends on the order of insertion);
 * *count (host, or NULL) says how many entries
 * were read.  The _fd forms read and write a file descriptor. */
typedef size_t (*hive_cache_write_fn)(void *context, const void *bytes, size_t size);
typedef size_t (*hive_cache_read_fn)(void *context, void *bytes, size_t size);
HIVE_API hive_status hive_cache_save(hive_cache *cache, hive_cache_write_fn write, void *context,
                                     uint64_t *count);
HIVE_API hive_status hive_cache_load(hive_cache *cache, hive_cache_read_fn read, void *context,
                                     uint64_t *count);
HIVE_API hive_status hive_cache_save_fd(hive_cache *cache, int fd, uint64_t *count);
HIVE_API hive_status hive_cache_load_fd(hive_cache *cache, int fd, uint64_t *count);


/* ================================================================ the two-level table
 *
 * A dictionary of 64-bit keys and 64-bit values in two tiers behind one
 * handle (docs/tiered.md): a cold tier, a CPU dictionary (HIVE_KV64) of
 * every key, of unbounded size, in host memory, and a hot tier, a cache
 * table (above) of `hot_capacity` entries, on the GPU when there is one,
 * holding copies of the keys used last (LRU).
 *
 *   - upsert writes every key to the cold tier, then updates the hot copies
 *     that exist; a key without one gets one, in the room of the least
 *     recently used entry of its hot bucket, which is dropped (with
 *     config.write_back, the keys with hot copies are written there alone,
 *     and a copy so updated is written to the cold tier as it is dropped);
 *   - find looks in the hot tier first, and the keys it misses in the cold
 *     tier; with HIVE_TIERED_PROMOTE_ON_FIND a key found cold gets a hot
 *     copy;
 *   - erase removes a key's hot copy, then the key from the cold tier.
 *
 * Invariant: every live key is in the cold tier with its latest value, and
 * a hot copy holds the same value.  Entries leave the hot tier without
 * being written anywhere, so no call can lose a key between the tiers, and
 * the size is the cold tier's.  Under write-back a hot copy holds the
 * latest value and the cold tier may hold an older one until the copy
 * leaves, within the call that evicts it.
 *
 * Memory.  Every array is host memory the host can read and write (for
 * either hot backend): the cold tier is on the host; memory only a device
 * reaches is refused with HIVE_ERROR_INVALID_ARGUMENT.  The calls stage keys
 * and values for the hot tier in buffers of their own (mapped pinned host
 * memory for a CUDA hot tier), except that a find whose keys, values and
 * found flags the hot tier can take as they are (any host memory for a CPU
 * hot tier; page-locked memory mapped for the device, as from cudaHostAlloc
 * with cudaHostAllocMapped or cudaHostRegister with cudaHostRegisterMapped,
 * or managed memory, for a CUDA one) hands them to it directly: no copy of
 * the keys, and the hot hits' values and flags land in place.  Values are 8
 * bytes (uint64_t); wider values are not supported.
 *
 * Keys are those of HIVE_KV64: HIVE_KV64_RESERVED_MIN and up are reserved; a
 * call skips them (find: found 0, value untouched; erase: result
 * REJECTED_RESERVED), does every other key, and returns
 * HIVE_ERROR_RESERVED_KEY.
 *
 * Batches.  A call works through its keys in steps of config.batch keys; a
 * key repeated in one upsert takes the value of its last occurrence, as if
 * the keys were applied in order.
 *
 * Errors.  A call that fails part way returns the first error, having
 * applied the steps before the failing one.  An upsert step whose cold
 * write fails (out of memory while the cold table grows, or crowded
 * buckets at its largest size) leaves each of its keys reading its old or
 * its new value: write-through drops the step's keys from the hot tier, so
 * that each reads as its cold tier has it; write-back has given the keys
 * with hot copies their new values there.  With write-back, should the
 * write of updated copies leaving the hot tier fail, they wait in the
 * handle, and every later upsert, find and erase writes them first and
 * fails, doing nothing else, until that succeeds.  A CUDA error of the hot
 * tier leaves it as a failed cache call does.
 *
 * Concurrency.  Calls on one handle are serialised by a lock of the handle
 * (each call runs alone); each tier runs its own threads (the CPU workers)
 * or kernels inside a call.  `stream` orders the hot tier's work on a CUDA
 * hot tier (NULL: the default stream); every call returns once done.  Calls
 * that begin while the handle is destroyed return INVALID_ARGUMENT, as for
 * tables. */

/* When a find moves a key from the cold tier to the hot one. */
typedef enum hive_tiered_promote {
    HIVE_TIERED_PROMOTE_ON_FIND = 0, /* every key a find meets in the cold tier (the paper's
                                        working set: the keys used last are hot) */
    HIVE_TIERED_PROMOTE_NEVER = 1    /* finds move nothing; only upserts give keys hot copies */
} hive_tiered_promote;

#define HIVE_TIERED_CONFIG_VERSION 4u

typedef struct hive_tiered_config {
    uint32_t struct_size;        /* sizeof(hive_tiered_config), set by HIVE_TIERED_CONFIG_INIT */
    uint32_t version;            /* HIVE_TIERED_CONFIG_VERSION */
    hive_backend hot_backend;    /* the hot tier's: default HIVE_BACKEND_AUTO (a GPU cache when a
                                    GPU of compute capability 9.0+ is present, else a CPU one) */
    int device;                  /* CUDA device ordinal of the hot tier; default 0 */
    uint64_t hot_capacity;       /* hot entries, rounded up to whole 32-slot buckets; default 2^20 */
    uint64_t cold_capacity;      /* the cold table's initial slots (it grows, never shrinks);
                                    default 2^20 */
    hive_tiered_promote promote; /* default HIVE_TIERED_PROMOTE_ON_FIND */
    uint32_t batch;              /* keys per step, which sizes the buffers: 49 bytes a key of
                                    the hot tier's staging memory (mapped pinned host memory for
                                    a CUDA hot tier) and about 50 of host memory (write-back:
                                    16 more of each); default 2^18, at most 2^28 */
    uint32_t threads;            /* CPU worker threads of both tiers; 0 = one per online core */
    uint32_t promote_one_in;     /* with PROMOTE_ON_FIND, a key found cold moves up with
                                    probability 1 / promote_one_in, drawn afresh for each find
                                    call (a key used often moves up soon; one used once rarely
                                    displaces another); 1 = always; default 1 */
    uint64_t hash_seed;          /* (version 2) the hot tier's bucket hash seed, as
                                    hive_cache_config.hash_seed: HIVE_HASH_SEED_RANDOM (the default)
                                    draws one per table, which hive_tiered_get_config reports, so
                                    that keys crowded into few hot buckets of one table spread in
                                    another; a version-1 config gets the default */
    uint32_t write_back;         /* (version 3) 0 (the default): write-through, every upsert
                                    writes the cold tier and a hot copy always holds its cold
                                    value.  1: write-back, an upsert of a key with a hot copy
                                    writes the copy alone, and a copy that leaves the hot tier
                                    updated is written to the cold tier then, within the call
                                    that evicts it (docs/tiered.md: faster where the hot tier
                                    holds most of the keys updated; at a 10% hot tier it ran
                                    slower).  Older configs get 0 */
    uint32_t hot_dual_bucket;    /* (version 4) 1 (the default): each key has two buckets in the
                                    hot tier (hive_cache_config.dual_bucket), a new copy takes the
                                    emptier and a full pair drops the older of their oldest copies,
                                    so that a hot tier the size of the keys holds nearly all of
                                    them; 0: one bucket a key, which leaves about 7% of
                                    uniformly placed keys out of a hot tier the size of the
                                    keys.  Older configs get 1 */
} hive_tiered_config;

#define HIVE_TIERED_CONFIG_INIT                                                        \
    {                                                                                  \
        (uint32_t)sizeof(hive_tiered_config), HIVE_TIERED_CONFIG_VERSION, HIVE_BACKEND_AUTO, 0, \
            1048576u, 1048576u, HIVE_TIERED_PROMOTE_ON_FIND, 262144u, 0u, 1u,           \
            HIVE_HASH_SEED_RANDOM, 0u, 1u                                              \
    }

/* What HIVE_TIERED_CONFIG_INIT gives, as a function.  NULL is ignored. */
HIVE_API void hive_tiered_config_init(hive_tiered_config *config);

typedef struct hive_tiered hive_tiered;

/* Creates a two-level table.  Errors as hive_create (NO_DEVICE for a CUDA
 * hot tier without a GPU); a config not from the initialiser, or with a
 * field out of range, is rejected with HIVE_ERROR_INVALID_ARGUMENT. */
HIVE_API hive_status hive_tiered_create(const hive_tiered_config *config, hive_tiered **tiered);
/* Frees it and both tiers (rules as hive_destroy). */
HIVE_API hive_status hive_tiered_destroy(hive_tiered *tiered);
/* The configuration, with defaults resolved (hot_backend, hot_capacity rounded, threads,
 * hash_seed). */
HIVE_API hive_status hive_tiered_get_config(const hive_tiered *tiered, hive_tiered_config *config);

/* Inserts or assigns n pairs; the latest value wins.  keys, values: host,
 * (n) uint64_t each. */
HIVE_API hive_status hive_tiered_upsert(hive_tiered *tiered, uint64_t n, const uint64_t *keys,
                                        const uint64_t *values, hive_stream stream);

/* Looks up n keys in either tier.  keys: host, (n).  values: host, (n), or
 * NULL; written for found keys only.  found: host, (n) 1/0, or NULL.  With
 * HIVE_TIERED_PROMOTE_ON_FIND it gives the keys found cold hot copies, so
 * that it is a writer of the hot tier. */
HIVE_API hive_status hive_tiered_find(hive_tiered *tiered, uint64_t n, const uint64_t *keys,
                                      uint64_t *values, uint8_t *found, hive_stream stream);

/* Erases n keys.  keys: host, (n).  results: host, (n) hive_result (ERASED,
 * NOT_FOUND, REJECTED_RESERVED), or NULL. */
HIVE_API hive_status hive_tiered_erase(hive_tiered *tiered, uint64_t n, const uint64_t *keys,
                                       uint8_t *results, hive_stream stream);

/* Live keys (the cold tier's; exact between calls; host). */
HIVE_API hive_status hive_tiered_size(hive_tiered *tiered, uint64_t *size);

/* Where the keys are and what moved, since creation. */
typedef struct hive_tiered_stats {
    uint64_t hot_size;            /* hot copies */
    uint64_t cold_size;           /* live keys: the size */
    uint64_t hot_capacity;        /* entries */
    uint64_t hot_hits;            /* keys of finds found in the hot tier */
    uint64_t cold_hits;           /* keys of finds found in the cold tier */
    uint64_t misses;              /* keys of finds found in neither */
    uint64_t promoted;            /* cold hits of finds sent to the hot tier (a key repeated in
                                     one find is sent each time, and gets one copy) */
    uint64_t evicted;             /* hot copies dropped for others */
} hive_tiered_stats;

HIVE_API hive_status hive_tiered_stats_get(hive_tiered *tiered, hive_tiered_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* HIVE_H */
