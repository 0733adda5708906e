/* finders.c — host threads that look keys up all along, each on its own
 * stream (on a CUDA table their finds run beside the main thread's batches
 * and wait for its resizes): every round one hive_find of every stable key
 * (each must be found with its value: the main thread never touches them)
 * and every never-inserted key (none may be found, their value entries stay
 * untouched).  A gate holds them between rounds while the main thread
 * clears the table and puts the stable keys back.  After each round a
 * finder may rest for `rest` times the round's duration: on the CPU
 * backend the finders' lookups run on the same cores as everything else,
 * and flat out they would take most of them. */
#include "soak.h"

#include <stdlib.h>

#define MAX_FINDERS 16

typedef struct finder {
    soak_finders *all;
    unsigned id;
    pthread_t thread;
    ht_batch batch; /* stable keys, then never-inserted keys; its own stream */
} finder;

struct soak_finders {
    soak_run *r;
    unsigned count;
    finder f[MAX_FINDERS];
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int paused, stop;
    unsigned parked; /* finders waiting at the gate */
    double rest;
    atomic_uint_fast64_t rounds, missed, wrong, stray;
};

/* Waits while paused; returns 0 once the finders are to stop. */
static int gate(soak_finders *all)
{
    pthread_mutex_lock(&all->lock);
    if (all->paused && !all->stop) {
        all->parked++;
        pthread_cond_broadcast(&all->cond);
        while (all->paused && !all->stop)
            pthread_cond_wait(&all->cond, &all->lock);
        all->parked--;
    }
    int go = !all->stop;
    pthread_mutex_unlock(&all->lock);
    return go;
}

static void round_of_finds(finder *f, uint64_t round)
{
    soak_finders *all = f->all;
    soak_run *r = all->r;
    const ht_target *t = r->t;
    ht_batch *b = &f->batch;
    uint64_t untouched = SOAK_UNTOUCHED & t->value_mask, bad = 0;
    for (size_t i = 0; i < b->n; i++) {
        ht_put(t, b->values, i, untouched);
        b->found[i] = HT_FLAG_POISON;
    }
    if (!HT_CHECK_STATUS(hive_find(r->table, b->n, b->keys, b->values, b->found, b->stream),
                         HIVE_SUCCESS, "finder %u, round %llu", f->id, (unsigned long long)round))
        soak_mismatches(r, 1);
    for (size_t i = 0; i < b->n; i++) {
        uint64_t idx = r->u.mutable_n + i;
        unsigned stable = i < r->u.stable_n;
        uint64_t want = stable ? soak_stable_value(&r->u, idx) : untouched;
        uint64_t v = ht_get(t, b->values, i);
        if (b->found[i] == stable && v == want)
            continue;
        atomic_fetch_add(!stable ? &all->stray : b->found[i] != 1 ? &all->missed : &all->wrong, 1);
        if (bad++ >= SOAK_SHOW)
            continue;
        HT_CHECK(0, "finder %u, round %llu: %s key %llu (index %llu): found %u (expected %u), "
                    "value %llu (expected %llu)",
                 f->id, (unsigned long long)round, stable ? "stable" : "never-inserted",
                 (unsigned long long)ht_get(t, b->keys, i), (unsigned long long)idx, b->found[i],
                 stable, (unsigned long long)v, (unsigned long long)want);
    }
    ht_pass_(b->n - bad);
    soak_mismatches(r, bad);
}

static void *finder_main(void *p)
{
    finder *f = p;
    ht_context("soak finder %u", f->id);
    for (uint64_t round = 0; gate(f->all); round++) {
        double t0 = soak_now();
        round_of_finds(f, round);
        atomic_fetch_add(&f->all->rounds, 1);
        double pause = f->all->rest * (soak_now() - t0);
        if (pause > 0) {
            struct timespec ts = {(time_t)pause, (long)((pause - (double)(time_t)pause) * 1e9)};
            nanosleep(&ts, NULL);
        }
    }
    return NULL;
}

soak_finders *soak_finders_start(soak_run *r, unsigned count, double rest)
{
    soak_finders *all = calloc(1, sizeof *all);
    if (all == NULL)
        ht_fatal("out of host memory");
    if (count > MAX_FINDERS)
        count = MAX_FINDERS;
    all->r = r;
    all->count = count;
    all->rest = rest;
    pthread_mutex_init(&all->lock, NULL);
    pthread_cond_init(&all->cond, NULL);
    atomic_init(&all->rounds, 0);
    atomic_init(&all->missed, 0);
    atomic_init(&all->wrong, 0);
    atomic_init(&all->stray, 0);
    uint64_t n = r->u.stable_n + r->u.absent_n;
    for (unsigned i = 0; i < count; i++) {
        finder *f = &all->f[i];
        f->all = all;
        f->id = i;
        ht_batch_init(&f->batch, r->t, n);
        f->batch.n = n;
        for (uint64_t j = 0; j < n; j++)
            ht_put(r->t, f->batch.keys, j, soak_key(&r->u, r->u.mutable_n + j));
    }
    for (unsigned i = 0; i < count; i++)
        if (pthread_create(&all->f[i].thread, NULL, finder_main, &all->f[i]) != 0)
            ht_fatal("pthread_create failed");
    return all;
}

void soak_finders_pause(soak_finders *all)
{
    pthread_mutex_lock(&all->lock);
    all->paused = 1;
    while (all->parked < all->count)
        pthread_cond_wait(&all->cond, &all->lock);
    pthread_mutex_unlock(&all->lock);
}

void soak_finders_resume(soak_finders *all)
{
    pthread_mutex_lock(&all->lock);
    all->paused = 0;
    pthread_cond_broadcast(&all->cond);
    pthread_mutex_unlock(&all->lock);
}

uint64_t soak_finders_rounds(soak_finders *all) { return atomic_load(&all->rounds); }

void soak_finders_errors(soak_finders *all, uint64_t *missed, uint64_t *wrong, uint64_t *stray)
{
    *missed = atomic_load(&all->missed);
    *wrong = atomic_load(&all->wrong);
    *stray = atomic_load(&all->stray);
}

void soak_finders_stop(soak_finders *all)
{
    pthread_mutex_lock(&all->lock);
    all->stop = 1;
    pthread_cond_broadcast(&all->cond);
    pthread_mutex_unlock(&all->lock);
    for (unsigned i = 0; i < all->count; i++) {
        pthread_join(all->f[i].thread, NULL);
        ht_batch_free(&all->f[i].batch);
    }
    pthread_cond_destroy(&all->cond);
    pthread_mutex_destroy(&all->lock);
    free(all);
}
