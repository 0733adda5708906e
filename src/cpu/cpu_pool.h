/* cpu_pool.h — the CPU backend's worker threads.  They are started once,
 * wait a moment spinning after each task and then sleep, so that a task that
 * follows at once starts in about a microsecond and a later one wakes them
 * with one broadcast, instead of paying pthread_create and join for every
 * call.  Every table and cache of
 * the process that asks for the same number of workers shares one pool, so
 * that a program holding hundreds of small tables does not hold hundreds of
 * idle threads per core. */
#ifndef HIVE_CPU_POOL_H
#define HIVE_CPU_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "hive.h"

typedef struct hive_cpu_pool hive_cpu_pool;

/* The process's pool of `workers` threads (0 is allowed: every task then
 * runs on its caller), started by the first table that asks for it.
 * Returns OUT_OF_MEMORY, naming `call`, if memory or a thread cannot be
 * had; nothing is left running then.  Thread-safe. */
hive_status hive_cpu_pool_acquire(uint32_t workers, const char *call, hive_cpu_pool **pool);

/* Gives the pool back; the last table to hold it stops and joins its
 * workers.  None of the caller's tasks may be running.  NULL is a no-op. */
void hive_cpu_pool_release(hive_cpu_pool *pool);

/* Runs task(arg) on every worker and on the calling thread at once and
 * returns when all of them have returned; the task shares out its own work.
 * If another caller's task holds the workers, the calling thread runs it
 * alone: the cores are busy anyway, and it needs no queue. */
void hive_cpu_pool_run(hive_cpu_pool *pool, void (*task)(void *), void *arg);

/* Threads that run a task: the workers and the caller. */
uint32_t hive_cpu_pool_width(const hive_cpu_pool *pool);

/* Host bytes the pool allocated. */
size_t hive_cpu_pool_bytes(const hive_cpu_pool *pool);

#endif
