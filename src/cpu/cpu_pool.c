/* cpu_pool.c — the CPU backend's worker threads (cpu_pool.h).
 *
 * The process keeps a list of pools, one per worker count, each counting
 * the tables that hold it; the list and the counts are guarded by
 * `pools_lock`, taken only when a table is created or destroyed.
 *
 * One task at a time: the caller that wins `owner` publishes the task under
 * `lock`, bumps `generation` and wakes every worker; each worker runs the
 * task once per generation and the last one to finish signals `done`.  All
 * hand-offs go through the mutex, so the caller sees everything the workers
 * wrote (results, outcome counters) once hive_cpu_pool_run returns. */
#include "cpu_pool.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "base/alloc.h"
#include "base/check.h"

struct hive_cpu_pool {
    pthread_mutex_t owner; /* held by the caller whose task the workers run */
    pthread_mutex_t lock;  /* guards everything below */
    pthread_cond_t wake;   /* workers: a new generation, or stop */
    pthread_cond_t done;   /* the caller: pending reached 0 */
    uint64_t generation;   /* bumped once per task */
    uint32_t pending;      /* workers still running the current task */
    int stop;
    void (*task)(void *);
    void *arg;
    uint32_t workers;      /* threads started */
    pthread_t *threads;
    uint32_t holders;      /* tables holding the pool (pools_lock) */
    hive_cpu_pool *next;   /* the process's next pool (pools_lock) */
};

static pthread_mutex_t pools_lock = PTHREAD_MUTEX_INITIALIZER;
static hive_cpu_pool *pools; /* every pool held by some table */

static void *worker_main(void *p)
{
    hive_cpu_pool *pool = p;
    uint64_t seen = 0; /* the generation at creation: nothing to run yet */
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->stop && pool->generation == seen)
            pthread_cond_wait(&pool->wake, &pool->lock);
        if (pool->stop)
            break;
        seen = pool->generation;
        void (*task)(void *) = pool->task;
        void *arg = pool->arg;
        pthread_mutex_unlock(&pool->lock);
        task(arg);
        pthread_mutex_lock(&pool->lock);
        if (--pool->pending == 0)
            pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

/* Stops and joins the first `started` workers and frees the pool. */
static void pool_free(hive_cpu_pool *pool, uint32_t started)
{
    pthread_mutex_lock(&pool->lock);
    pool->stop = 1;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (uint32_t i = 0; i < started; i++)
        pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->done);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    pthread_mutex_destroy(&pool->owner);
    hive_host_free(pool->threads);
    hive_host_free(pool);
}

static hive_status pool_start(uint32_t workers, const char *call, hive_cpu_pool **out)
{
    hive_cpu_pool *pool = hive_host_calloc(1, sizeof *pool);
    if (pool == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for the worker pool");
    pthread_t *threads = workers ? hive_host_calloc(workers, sizeof *threads) : NULL;
    if (workers && threads == NULL) {
        hive_host_free(pool);
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                         "no host memory for %u worker thread handles", workers);
    }
    /* Default attributes: these initialisations cannot fail on Linux. */
    pthread_mutex_init(&pool->owner, NULL);
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->done, NULL);
    pool->threads = threads;
    pool->workers = workers;

    /* Workers inherit a mask with every signal blocked, so the application's
     * handlers run on its own threads, never in the middle of a batch. */
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    uint32_t started = 0;
    int err = 0;
    while (started < workers &&
           (err = pthread_create(&threads[started], NULL, worker_main, pool)) == 0)
        started++;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (started < workers) {
        pool_free(pool, started);
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "cannot start worker thread %u of %u: %s",
                         started + 1, workers, strerror(err));
    }
    *out = pool;
    return HIVE_SUCCESS;
}

hive_status hive_cpu_pool_acquire(uint32_t workers, const char *call, hive_cpu_pool **out)
{
    hive_status s = HIVE_SUCCESS;
    pthread_mutex_lock(&pools_lock);
    hive_cpu_pool *pool = pools;
    while (pool != NULL && pool->workers != workers)
        pool = pool->next;
    if (pool == NULL && (s = pool_start(workers, call, &pool)) == HIVE_SUCCESS) {
        pool->next = pools;
        pools = pool;
    }
    if (s == HIVE_SUCCESS) {
        pool->holders++;
        *out = pool;
    }
    pthread_mutex_unlock(&pools_lock);
    return s;
}

void hive_cpu_pool_release(hive_cpu_pool *pool)
{
    if (pool == NULL)
        return;
    pthread_mutex_lock(&pools_lock);
    int last = --pool->holders == 0;
    if (last) {
        hive_cpu_pool **link = &pools;
        while (*link != pool)
            link = &(*link)->next;
        *link = pool->next;
    }
    pthread_mutex_unlock(&pools_lock);
    if (last)
        pool_free(pool, pool->workers);
}

void hive_cpu_pool_run(hive_cpu_pool *pool, void (*task)(void *), void *arg)
{
    if (pool->workers == 0 || pthread_mutex_trylock(&pool->owner) != 0) {
        task(arg);
        return;
    }
    pthread_mutex_lock(&pool->lock);
    pool->task = task;
    pool->arg = arg;
    pool->pending = pool->workers;
    pool->generation++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);

    task(arg);

    pthread_mutex_lock(&pool->lock);
    while (pool->pending != 0)
        pthread_cond_wait(&pool->done, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
    pthread_mutex_unlock(&pool->owner);
}

uint32_t hive_cpu_pool_width(const hive_cpu_pool *pool) { return pool->workers + 1; }

size_t hive_cpu_pool_bytes(const hive_cpu_pool *pool)
{
    return sizeof *pool + (size_t)pool->workers * sizeof(pthread_t);
}
