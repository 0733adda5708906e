/* cpu_pool.c — the CPU backend's worker threads (cpu_pool.h).
 *
 * The process keeps a list of pools, one per worker count, each counting
 * the tables that hold it; the list and the counts are guarded by
 * `pools_lock`, taken only when a table is created or destroyed.
 *
 * One task at a time: the caller that wins `owner` publishes the task and
 * bumps `generation` (a release store); each worker runs the task once per
 * generation and counts itself out of `pending` (release), and the caller
 * returns once it reads 0 there (acquire), so it sees everything the
 * workers wrote.  Both sides spin for HIVE_POOL_SPIN_NS before they sleep
 * on a condition variable: a call's loops come back to back (the two-level
 * table runs ten a step), and waking sleeping threads through one mutex
 * cost tens of microseconds a loop, where a spinning worker starts in
 * about one (docs/perf.md, "CPU backend").  Sleeping and waking go through
 * `lock`: a worker re-reads the generation under it before it waits, and
 * the caller broadcasts under it after the bump, so no wake-up is lost;
 * likewise for `done`. */
#include "cpu_pool.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "base/check.h"

/* How long a worker waits for the next task, and the caller for the last
 * worker, before sleeping. */
#define HIVE_POOL_SPIN_NS 100000

struct hive_cpu_pool {
    pthread_mutex_t owner; /* held by the caller whose task the workers run */
    pthread_mutex_t lock;  /* sleeping and waking */
    pthread_cond_t wake;   /* workers: a new generation, or stop */
    pthread_cond_t done;   /* the caller: pending reached 0 */
    uint64_t generation;   /* bumped once per task (__atomic) */
    uint32_t pending;      /* workers still running the current task (__atomic) */
    int stop;              /* (__atomic) */
    void (*task)(void *);  /* published by the generation's release store */
    void *arg;
    uint32_t workers;      /* threads started */
    pthread_t *threads;
    uint32_t holders;      /* tables holding the pool (pools_lock) */
    hive_cpu_pool *next;   /* the process's next pool (pools_lock) */
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spins until *word differs from `from`, for at most HIVE_POOL_SPIN_NS;
 * returns whether it did (acquire). */
static int spin_until_changed(const uint64_t *word, uint64_t from)
{
    uint64_t deadline = 0;
    for (uint32_t i = 0;; i++) {
        if (__atomic_load_n(word, __ATOMIC_ACQUIRE) != from)
            return 1;
        if ((i & 255) == 0) {
            uint64_t t = now_ns();
            if (deadline == 0)
                deadline = t + HIVE_POOL_SPIN_NS;
            else if (t > deadline)
                return 0;
        }
        cpu_relax();
    }
}

static pthread_mutex_t pools_lock = PTHREAD_MUTEX_INITIALIZER;
static hive_cpu_pool *pools; /* every pool held by some table */

static void *worker_main(void *p)
{
    hive_cpu_pool *pool = p;
    uint64_t seen = 0; /* the generation at creation: nothing to run yet */
    for (;;) {
        if (!spin_until_changed(&pool->generation, seen)) {
            pthread_mutex_lock(&pool->lock);
            while (!__atomic_load_n(&pool->stop, __ATOMIC_ACQUIRE) &&
                   __atomic_load_n(&pool->generation, __ATOMIC_ACQUIRE) == seen)
                pthread_cond_wait(&pool->wake, &pool->lock);
            pthread_mutex_unlock(&pool->lock);
        }
        if (__atomic_load_n(&pool->stop, __ATOMIC_ACQUIRE))
            break;
        seen = __atomic_load_n(&pool->generation, __ATOMIC_ACQUIRE);
        pool->task(pool->arg);
        if (__atomic_sub_fetch(&pool->pending, 1, __ATOMIC_ACQ_REL) == 0) {
            pthread_mutex_lock(&pool->lock);
            pthread_cond_signal(&pool->done);
            pthread_mutex_unlock(&pool->lock);
        }
    }
    return NULL;
}

/* Stops and joins the first `started` workers and frees the pool. */
static void pool_free(hive_cpu_pool *pool, uint32_t started)
{
    __atomic_store_n(&pool->stop, 1, __ATOMIC_RELEASE);
    __atomic_add_fetch(&pool->generation, 1, __ATOMIC_RELEASE); /* ends the spinning */
    pthread_mutex_lock(&pool->lock);
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
    pool->task = task;
    pool->arg = arg;
    __atomic_store_n(&pool->pending, pool->workers, __ATOMIC_RELAXED);
    __atomic_add_fetch(&pool->generation, 1, __ATOMIC_RELEASE);
    pthread_mutex_lock(&pool->lock);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);

    task(arg);

    uint64_t deadline = now_ns() + HIVE_POOL_SPIN_NS;
    while (__atomic_load_n(&pool->pending, __ATOMIC_ACQUIRE) != 0 && now_ns() < deadline)
        cpu_relax();
    if (__atomic_load_n(&pool->pending, __ATOMIC_ACQUIRE) != 0) {
        pthread_mutex_lock(&pool->lock);
        while (__atomic_load_n(&pool->pending, __ATOMIC_ACQUIRE) != 0)
            pthread_cond_wait(&pool->done, &pool->lock);
        pthread_mutex_unlock(&pool->lock);
    }
    pthread_mutex_unlock(&pool->owner);
}

uint32_t hive_cpu_pool_width(const hive_cpu_pool *pool) { return pool->workers + 1; }

size_t hive_cpu_pool_bytes(const hive_cpu_pool *pool)
{
    return sizeof *pool + (size_t)pool->workers * sizeof(pthread_t);
}
