/* cpu_loop.c — see cpu_loop.h. */
#include "cpu_loop.h"

/* Chunks per thread: enough to even out threads that run at different
 * speeds, few enough that claiming one is noise. */
#define CHUNKS_PER_THREAD 8u

static void loop_task(void *arg)
{
    hive_cpu_loop *loop = arg;
    for (;;) {
        uint64_t begin = __atomic_fetch_add(&loop->next, loop->chunk, __ATOMIC_RELAXED);
        if (begin >= loop->n)
            break;
        loop->range(loop, begin, loop->n - begin < loop->chunk ? loop->n : begin + loop->chunk);
    }
}

void hive_cpu_loop_run(hive_cpu_pool *pool, hive_cpu_loop *loop, uint64_t n, uint64_t cost)
{
    uint32_t width = hive_cpu_pool_width(pool);
    loop->n = n;
    loop->next = 0;
    if (n == 0)
        return;
    if (n * cost < HIVE_CPU_LOOP_PARALLEL_MIN || width == 1) {
        loop->chunk = n;
        loop_task(loop);
        return;
    }
    uint64_t chunk = n / ((uint64_t)width * CHUNKS_PER_THREAD);
    uint64_t min_chunk = HIVE_CPU_LOOP_PARALLEL_MIN / 8 / cost + 1;
    loop->chunk = chunk < min_chunk ? min_chunk : chunk;
    hive_cpu_pool_run(pool, loop_task, loop);
}
