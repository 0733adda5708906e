/* table.h — the handle behind hive_table, and what api's three files share:
 * api.c (entry points, argument checks), config.c (the config checked, its
 * defaults resolved, the backend picked) and policy.c (growth, shrinking,
 * stash relief, retries; blind to the backend). */
#ifndef HIVE_TABLE_H
#define HIVE_TABLE_H

#include <pthread.h>
#include <stdint.h>

#include "backend.h"
#include "hive.h"
#include "resize.h"

#define HIVE_TABLE_MAGIC 0x48495645u /* "HIVE": catches freed and foreign handles */
#define HIVE_TABLE_DYING 0x44454144u /* "DEAD": hive_destroy waits for the calls inside */

/* The hash is 32 bits wide, so a table addresses at most 2^32 buckets; with
 * buckets of at most 32 slots that is 2^37 slots. */
#define HIVE_MAX_SLOTS (1ull << 37)

struct hive_table {
    uint32_t magic;               /* HIVE_TABLE_MAGIC, HIVE_TABLE_DYING, or 0 once freed */
    hive_config config;           /* resolved: no zero "defaults" left */
    const hive_backend_ops *ops;
    void *impl;                   /* the backend's state */
    /* Counters read and written with __atomic builtins (this header is also
     * compiled as C++ by nvcc, where _Atomic is not available). */
    uint64_t size;                /* live keys, updated from batch outcomes */
    uint64_t insert_steps[4], evictions; /* lifetime sums of batch outcomes, for hive_stats */
    uint64_t grows, shrinks, shrinks_undone;
    uint64_t shrink_below;        /* a shrink is tried only while size < this (hysteresis) */
    uint64_t erased_since_tidy;   /* erases since the last resize or compaction: at most that many
                                     tombstones in the buckets (policy.c, churn relief) */
    hive_resize_state resized;    /* the resize driver's (src/resize.c) */
    uint64_t calls;               /* calls inside the API on this table, for hive_destroy */
    /* Work the host did not wait for (asynchronous inserts and erases, user
     * kernels through device views) changes the size where the backend
     * keeps its counts; hive_policy_settle folds them into `size`.
     * unsettled: such calls (and released views) since the last settle;
     * async_bound: the keys those calls may have added (a view's count is
     * unbounded: view_unsettled). */
    uint64_t unsettled, async_bound, view_unsettled;
    /* 1 once an asynchronous insert or erase was captured in a CUDA Graph:
     * its launches go unseen, so every settle then asks the backend. */
    uint32_t graphs_mutate;
    /* Device views out (hive_device_view_acquire): while any is, the layout
     * stays as it is (no growth, shrink or compaction). */
    uint64_t pins;
    pthread_rwlock_t resize_lock; /* operations share it; resizing takes it alone */
};

/* Larger batches are surely a mistake (over 4 TiB of keys). */
#define HIVE_MAX_BATCH (1ull << 40)

/* api.c: every call but hive_create and hive_destroy runs between enter and
 * leave, so that hive_destroy can wait for the calls inside. */
hive_status hive_table_enter(hive_table *t, const char *call);
void hive_table_leave(hive_table *t);

/* The body of a public call, run between hive_table_enter and hive_table_leave. */
#define HIVE_ENTERED(t, call, body)                  \
    do {                                             \
        hive_clear_error();                          \
        HIVE_TRY(hive_table_enter((t), (call)));     \
        hive_status entered_status_ = (body);        \
        hive_table_leave(t);                         \
        return entered_status_;                      \
    } while (0)

/* api.c: an array argument: NULL only where not required, aligned to its
 * elements (`align` bytes: a misaligned key array would fault a GPU's
 * context for every table on it), and in memory the backend can reach. */
hive_status hive_check_array(const hive_table *t, const void *p, int required, size_t align,
                             const char *call, const char *what);
/* api.c: a find's arrays (hive_find and hive_find_async): keys required,
 * values and found optional but not both NULL. */
hive_status hive_check_find_arrays(const hive_table *t, const void *keys, const void *values, const uint8_t *found,
                                   const char *call);
/* api.c: bytes of one key or value of the table. */
size_t hive_kv_bytes(const hive_table *t);
/* api.c: INVALID_ARGUMENT for a batch larger than HIVE_MAX_BATCH. */
hive_status hive_check_batch_n(uint64_t n, const char *call);

/* The sizes of older headers' hive_config: versions 1 and 2, 80 bytes;
 * version 3, 112. */
#define HIVE_OLDEST_CONFIG_SIZE 80u
#define HIVE_V3_CONFIG_SIZE 112u

/* config.c: the bytes of a hive_config the caller's header has (its
 * struct_size when that names an older header's size, else this one's):
 * what hive_get_config may write. */
uint32_t hive_config_bytes_of(const hive_config *c);

/* config.c: checks *config (upgraded from an older header's layout),
 * resolves its defaults into *resolved and picks the backend that will hold
 * the table. */
hive_status hive_config_resolve(const hive_config *config, hive_config *resolved,
                                const hive_backend_ops **ops);

/* api.c: HIVE_ERROR_CUDA naming `call` if a failed resize broke the table
 * (resize.h), else HIVE_SUCCESS. */
hive_status hive_refuse_if_broken(const hive_table *t, const char *call);

/* policy.c */
/* Slots the main table has now. */
uint64_t hive_policy_capacity(const hive_table *t);
/* Runs one checked batch: grows first if it may insert (and again for keys
 * that found no room), relieves a crowded stash, shrinks after if it may
 * erase, and turns the outcome into a status naming `call`. */
hive_status hive_policy_run(hive_table *t, const hive_request *r, int may_erase, hive_stream stream,
                            const char *call, hive_batch_outcome *outcome);
/* Folds into the size what work the host did not wait for has counted
 * (backend.h: settle): waits for that work.  Nothing to do, and no wait,
 * where no such work ran since the last settle. */
hive_status hive_policy_settle(hive_table *t);
/* For an asynchronous batch that may add `incoming` keys, with the resize
 * lock held for reading (and still held on return): grows first where the
 * size, plus what unsettled asynchronous work may have added, plus
 * `incoming`, would pass max_load_factor, settling first where that bound
 * is all that passes it. */
hive_status hive_policy_room_for_async(hive_table *t, uint64_t incoming, hive_stream stream);
/* Whether a device view pins the layout; and INVALID_ARGUMENT naming `call`
 * where one does. */
int hive_policy_pinned(const hive_table *t);
hive_status hive_policy_refuse_if_pinned(const hive_table *t, const char *call);
/* hive_reserve: grows to hold `keys` keys under max_load_factor. */
hive_status hive_policy_reserve(hive_table *t, uint64_t keys, hive_stream stream);
/* hive_clear, with the resize lock held for writing: the emptied table. */
hive_status hive_policy_clear(hive_table *t, hive_stream stream);

#endif
