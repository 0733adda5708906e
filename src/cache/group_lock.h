/* group_lock.h — the cache table's call lock (hive.h, "Concurrency").  Calls
 * come in groups: readers and writers, whose members hold the lock together
 * with others of their group but never with the other group, and callers
 * that must be alone (clear, which rewrites every slot and lock bit).
 *
 * No group starves: while callers of another group wait, new callers of the
 * group inside wait too; when the group inside has drained, the last one out
 * lets in the next group that has waiters, in turn after its own (readers,
 * writers, alone, readers, ...): every waiter of a shared group at once,
 * one caller of the alone group.  Waiters of a group enter in the order they
 * came. */
#ifndef HIVE_CACHE_GROUP_LOCK_H
#define HIVE_CACHE_GROUP_LOCK_H

#include <pthread.h>
#include <stdint.h>

typedef enum hive_group {
    HIVE_GROUP_READERS = 0,
    HIVE_GROUP_WRITERS = 1,
    HIVE_GROUP_ALONE = 2
} hive_group;

#define HIVE_GROUPS 3

typedef struct hive_group_lock {
    pthread_mutex_t mutex;           /* guards everything below */
    pthread_cond_t turn[HIVE_GROUPS]; /* per group: some of its waiters were let in */
    int inside;                      /* the group holding the lock while holders > 0 */
    uint64_t holders;
    /* Per group, over the lock's life: tickets handed to waiters, tickets
     * let in (a waiter enters once its ticket is below), and waiters left. */
    uint64_t tickets[HIVE_GROUPS];
    uint64_t admitted[HIVE_GROUPS];
    uint64_t waiting[HIVE_GROUPS];
} hive_group_lock;

/* 0, or -1 when the lock's mutex or conditions cannot be had. */
int hive_group_lock_init(hive_group_lock *l);
/* No caller may hold or wait for it. */
void hive_group_lock_destroy(hive_group_lock *l);

void hive_group_enter(hive_group_lock *l, hive_group g);
void hive_group_leave(hive_group_lock *l, hive_group g);

#endif
