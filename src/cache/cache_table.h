/* cache_table.h — the handle behind hive_cache, and what the cache's api
 * files share: cache_config.c (the config checked, its defaults resolved,
 * the backend picked), cache_api.c (entry points, argument checks, the group
 * lock) and cache_io.c (save and load). */
#ifndef HIVE_CACHE_TABLE_H
#define HIVE_CACHE_TABLE_H

#include <stdint.h>

#include "base/check.h"
#include "cache/cache_backend.h"
#include "cache/group_lock.h"
#include "hive.h"

#define HIVE_CACHE_MAGIC 0x43414348u /* "CACH": catches freed and foreign handles */
#define HIVE_CACHE_DYING 0x44454144u /* "DEAD": hive_cache_destroy waits for the calls inside */

struct hive_cache {
    uint32_t magic;             /* HIVE_CACHE_MAGIC, HIVE_CACHE_DYING, or 0 once freed */
    hive_cache_config config;   /* resolved: no zero "defaults" left, capacity whole buckets */
    uint64_t buckets;
    uint32_t value_bytes;       /* dim * element size */
    const hive_cache_backend_ops *ops;
    void *impl;                 /* the backend's state */
    /* Read and written with __atomic builtins, as the dictionary's counters. */
    uint32_t epoch;             /* hive_cache_set_epoch's */
    uint64_t calls;             /* calls inside the API on this cache, for hive_cache_destroy */
    hive_group_lock group;      /* readers' and writers' calls (group_lock.h) */
};

/* The smallest hive_cache_config any header had (version 1: 48 bytes). */
#define HIVE_OLDEST_CACHE_CONFIG_SIZE 48u

/* cache_config.c: the bytes of a hive_cache_config the caller's header has
 * (its struct_size when that names an older header's size, else this
 * one's): what hive_cache_get_config may write. */
uint32_t hive_cache_config_bytes_of(const hive_cache_config *c);

/* cache_config.c: checks *config (upgraded from an older header's
 * layout), resolves its defaults into *resolved (capacity rounded up to
 * *buckets whole buckets, value_hbm_bytes to whole values, at most all) and
 * picks the backend. */
hive_status hive_cache_config_resolve(const hive_cache_config *config, hive_cache_config *resolved,
                                      uint64_t *buckets, const hive_cache_backend_ops **ops);

/* cache_api.c: every call but create and destroy runs between
 * hive_cache_enter and hive_cache_leave, so that hive_cache_destroy can wait
 * for it (hive.h's rule); one that touches the entries also holds c->group
 * as its group while it does. */
hive_status hive_cache_enter(hive_cache *c, const char *call);
void hive_cache_leave(hive_cache *c);

/* The whole of a public call: its last error cleared, `body` run between
 * hive_cache_enter and hive_cache_leave, its status returned. */
#define HIVE_CACHE_ENTERED(c, call, body)          \
    do {                                           \
        hive_clear_error();                        \
        HIVE_TRY(hive_cache_enter((c), (call)));   \
        hive_status entered_status_ = (body);      \
        hive_cache_leave(c);                       \
        return entered_status_;                    \
    } while (0)

/* cache_api.c: the filter that selects every entry (a NULL filter's meaning). */
extern const hive_cache_filter hive_cache_select_all;

/* cache_api.c: a batch of `op` over n keys, with the cache's policy and
 * value type, every other field empty. */
hive_cache_batch hive_cache_batch_of(const hive_cache *c, int op, uint64_t n, const uint64_t *keys);

/* cache_api.c: runs one checked batch on the backend, inside the group lock
 * as a reader or a writer by its op, with the cache's epoch; fills *outcome
 * and returns RESERVED_KEY (naming `call`) if some key was reserved. */
hive_status hive_cache_run(hive_cache *c, const hive_cache_batch *b, hive_cache_outcome *outcome,
                           hive_stream stream, const char *call);

#endif
