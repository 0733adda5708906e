/* cpu_loop.h — a loop over [0, n) shared out by a worker pool (cpu_pool.h):
 * each thread claims chunks of elements from an atomic cursor and runs the
 * loop's `range` on them.  Used by the cache's CPU backend and by the
 * two-level table's host loops. */
#ifndef HIVE_CPU_LOOP_H
#define HIVE_CPU_LOOP_H

#include <stdint.h>

#include "cpu_pool.h"

/* Work below this many units runs on the calling thread: waking the
 * workers would cost more than it saves.  What a unit is, is the caller's
 * (the cache: one slot looked at). */
#define HIVE_CPU_LOOP_PARALLEL_MIN (1u << 17)

/* A call's job embeds the loop first and adds its own fields; `range` casts
 * the loop back to the job. */
typedef struct hive_cpu_loop hive_cpu_loop;
struct hive_cpu_loop {
    void (*range)(hive_cpu_loop *loop, uint64_t begin, uint64_t end);
    uint64_t n, chunk;
    uint64_t next; /* first element of the next unclaimed chunk (__atomic) */
};

/* Runs the loop over n elements of `cost` units each, on the pool when the
 * work is worth waking it.  Returns once every thread is done, through the
 * pool's mutex: the caller then sees everything they wrote. */
void hive_cpu_loop_run(hive_cpu_pool *pool, hive_cpu_loop *loop, uint64_t n, uint64_t cost);

#endif
