/* pool.c — SOAK_SLICES threads that run one job per slice, started by two
 * barriers (start, done) so that a batch costs no thread creation. */
#include "soak.h"

typedef struct worker_arg {
    soak_pool *pool;
    unsigned slice;
} worker_arg;

static worker_arg worker_args[SOAK_SLICES]; /* one pool per process */

static void *worker(void *p)
{
    worker_arg *a = p;
    soak_pool *pool = a->pool;
    ht_context("soak slice %u", a->slice);
    for (;;) {
        pthread_barrier_wait(&pool->start);
        if (pool->quit)
            return NULL;
        pool->job(pool->arg, a->slice);
        pthread_barrier_wait(&pool->done);
    }
}

void soak_pool_start(soak_pool *p)
{
    p->quit = 0;
    if (pthread_barrier_init(&p->start, NULL, SOAK_SLICES + 1) != 0 ||
        pthread_barrier_init(&p->done, NULL, SOAK_SLICES + 1) != 0)
        ht_fatal("pthread_barrier_init failed");
    for (unsigned s = 0; s < SOAK_SLICES; s++) {
        worker_args[s] = (worker_arg){p, s};
        if (pthread_create(&p->threads[s], NULL, worker, &worker_args[s]) != 0)
            ht_fatal("pthread_create failed");
    }
}

void soak_pool_run(soak_pool *p, soak_job job, void *arg)
{
    p->job = job;
    p->arg = arg;
    pthread_barrier_wait(&p->start);
    pthread_barrier_wait(&p->done);
}

void soak_pool_stop(soak_pool *p)
{
    p->quit = 1;
    pthread_barrier_wait(&p->start);
    for (unsigned s = 0; s < SOAK_SLICES; s++)
        pthread_join(p->threads[s], NULL);
    pthread_barrier_destroy(&p->start);
    pthread_barrier_destroy(&p->done);
}
