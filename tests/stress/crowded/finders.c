/* finders.c — threads that look keys up while the main thread inserts and
 * erases: each with its own batch arrays (and, on a CUDA table, its own
 * stream, so that their finds run beside the main thread's calls and the
 * resizes between them).  Their keys are the pool's stable keys, which no
 * call changes (found, with their first value), and its decoys, which no
 * call inserts (not found, value entries untouched). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crowded.h"

#define MAX_FINDERS 8
#define SHOWN_PER_FINDER 3
#define PAUSE_NS 500000 /* between a finder's rounds */

typedef struct finder {
    finder_crew *crew;
    unsigned id;
    pthread_t thread;
    ht_batch batch;
    uint64_t rounds, looked_up, missing, wrong_value, ghost, touched;
} finder;

struct finder_crew {
    crowd *w;
    const char *name;
    uint64_t seed;
    unsigned count;
    uint64_t *stable, *decoys; /* keys */
    size_t n_stable, n_decoys;
    atomic_int stop;
    pthread_barrier_t start;
    finder f[MAX_FINDERS];
};

static void flag(finder *f, const char *fmt, ...) HT_PRINTF(2, 3);

/* n random picks of keys[0..count) into the batch; values: present keys get
 * a value they must overwrite, absent ones the value they must keep. */
static size_t pick(finder *f, ht_rng *rng, const uint64_t *keys, size_t count, int present)
{
    const ht_target *t = f->crew->w->t;
    ht_batch *b = &f->batch;
    size_t n = count < b->cap ? count : b->cap;
    for (size_t j = 0; j < n; j++) {
        uint64_t key = keys[ht_rng_below(rng, count)];
        ht_put(t, b->keys, j, key);
        ht_put(t, b->values, j,
               present ? ~crowd_value(t, key, 1) & t->value_mask : crowd_absent_value(t, key));
    }
    memset(b->found, HT_FLAG_POISON, n);
    return n;
}

static void look_up(finder *f, ht_rng *rng, int present)
{
    const finder_crew *crew = f->crew;
    const ht_target *t = crew->w->t;
    ht_batch *b = &f->batch;
    size_t n = present ? pick(f, rng, crew->stable, crew->n_stable, 1)
                       : pick(f, rng, crew->decoys, crew->n_decoys, 0);
    if (n == 0)
        return;
    if (!HT_CHECK_STATUS(hive_find(crew->w->table, n, b->keys, b->values, b->found, b->stream),
                         HIVE_SUCCESS, "finder %u: find of %zu %s keys", f->id, n,
                         present ? "stable" : "decoy"))
        return;
    uint64_t bad = 0;
    for (size_t j = 0; j < n; j++) {
        uint64_t key = ht_get(t, b->keys, j), got = ht_get(t, b->values, j);
        uint64_t want = present ? crowd_value(t, key, 1) : crowd_absent_value(t, key);
        unsigned found = b->found[j];
        if (present && found != 1) {
            f->missing++;
            flag(f, "stable key %llu not found (found %u)", (unsigned long long)key, found);
        } else if (present && got != want) {
            f->wrong_value++;
            flag(f, "stable key %llu: value %llu, expected %llu", (unsigned long long)key,
                 (unsigned long long)got, (unsigned long long)want);
        } else if (!present && found != 0) {
            f->ghost++;
            flag(f, "never-inserted key %llu found (found %u, value %llu)",
                 (unsigned long long)key, found, (unsigned long long)got);
        } else if (!present && got != want) {
            f->touched++;
            flag(f, "never-inserted key %llu: its value entry changed from %llu to %llu",
                 (unsigned long long)key, (unsigned long long)want, (unsigned long long)got);
        } else {
            continue;
        }
        bad++;
    }
    ht_pass_(n - bad);
    f->looked_up += n;
}

static void flag(finder *f, const char *fmt, ...)
{
    if (f->missing + f->wrong_value + f->ghost + f->touched > SHOWN_PER_FINDER)
        return;
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    HT_CHECK(0, "finder %u, round %llu: %s", f->id, (unsigned long long)f->rounds, msg);
}

static void *finder_main(void *arg)
{
    finder *f = arg;
    finder_crew *crew = f->crew;
    ht_rng rng;
    ht_rng_seed(&rng, crew->seed * 1000 + f->id);
    ht_context("%s: finder %u", crew->name, f->id);
    pthread_barrier_wait(&crew->start);
    /* A pause between rounds: a resize waits for every call in flight to
     * end, and finders back to back could hold it off for long. */
    const struct timespec pause = {0, PAUSE_NS};
    do {
        f->rounds++;
        look_up(f, &rng, 1);
        look_up(f, &rng, 0);
        nanosleep(&pause, NULL);
    } while (!atomic_load(&crew->stop));
    return NULL;
}

static int stable_present(const crowd *w, uint64_t id)
{
    return w->pool.stable[id] && ht_ref_get(&w->ref, w->pool.keys[id], NULL);
}

finder_crew *finders_start(crowd *w, unsigned count, size_t batch_cap)
{
    finder_crew *crew = calloc(1, sizeof *crew);
    if (crew == NULL || count == 0 || count > MAX_FINDERS)
        ht_fatal("finders_start: %u finders (1..%d)", count, MAX_FINDERS);
    crew->w = w;
    crew->name = w->name;
    crew->seed = w->rng.seed;
    crew->count = count;
    crew->stable = malloc((w->pool.n + 1) * sizeof *crew->stable);
    crew->decoys = malloc((w->pool.n + 1) * sizeof *crew->decoys);
    if (crew->stable == NULL || crew->decoys == NULL)
        ht_fatal("out of host memory");
    for (uint64_t id = 0; id < w->pool.n; id++) {
        if (w->pool.kind[id] == KIND_DECOY)
            crew->decoys[crew->n_decoys++] = w->pool.keys[id];
        else if (stable_present(w, id))
            crew->stable[crew->n_stable++] = w->pool.keys[id];
    }
    atomic_init(&crew->stop, 0);
    pthread_barrier_init(&crew->start, NULL, count + 1);
    for (unsigned i = 0; i < count; i++) {
        finder *f = &crew->f[i];
        f->crew = crew;
        f->id = i;
        ht_batch_init(&f->batch, w->t, batch_cap);
        if (pthread_create(&f->thread, NULL, finder_main, f) != 0)
            ht_fatal("pthread_create failed");
    }
    pthread_barrier_wait(&crew->start);
    printf("  %u finders started: %zu stable keys, %zu decoys, %zu keys a find\n", count,
           crew->n_stable, crew->n_decoys, batch_cap);
    return crew;
}

void finders_stop(finder_crew *crew)
{
    atomic_store(&crew->stop, 1);
    for (unsigned i = 0; i < crew->count; i++) {
        finder *f = &crew->f[i];
        pthread_join(f->thread, NULL);
        printf("  finder %u: %llu rounds, %llu keys looked up: %llu stable keys missing, %llu "
               "wrong values, %llu never-inserted keys found, %llu value entries of absent keys "
               "written\n",
               f->id, (unsigned long long)f->rounds, (unsigned long long)f->looked_up,
               (unsigned long long)f->missing, (unsigned long long)f->wrong_value,
               (unsigned long long)f->ghost, (unsigned long long)f->touched);
        HT_CHECK(f->missing + f->wrong_value + f->ghost + f->touched == 0,
                 "finder %u: %llu stable keys missing, %llu wrong values, %llu never-inserted keys "
                 "found, %llu absent keys' value entries written",
                 f->id, (unsigned long long)f->missing, (unsigned long long)f->wrong_value,
                 (unsigned long long)f->ghost, (unsigned long long)f->touched);
        HT_CHECK(f->looked_up > 0, "finder %u looked nothing up", f->id);
        ht_batch_free(&f->batch);
    }
    pthread_barrier_destroy(&crew->start);
    free(crew->stable);
    free(crew->decoys);
    free(crew);
}
