/* tiered_find.c — one step of hive_tiered_find:
 *
 *   1. the step's unreserved keys staged (a compaction; at[] their positions)
 *   2. hot tier: find_missed; the hits' values and flags scattered out
 *   3. cold tier: find of the misses; their values and flags scattered out
 *   4. unless PROMOTE_NEVER, the cold hits (one in promote_one_in of them,
 *      drawn) enter the hot tier.  A key repeated among them carries one
 *      value (the cold tier's, read in this step), so its repeats may enter
 *      together: the cache gives the key one copy.
 *
 * With a lane (tiered.h) the staged keys go through 2-4 in chunks: while
 * the calling thread does 2-4 of chunk c, the lane runs the promotions of
 * chunk c-1 and then the lookup of chunk c+1.  A key of chunk c that chunk
 * c-1 promotes meanwhile is answered cold, and may be promoted again: both
 * copies carry the cold value, the one a key has within a find.
 *
 * The cold tier has every key, and a hot copy has the cold value, so a hot
 * hit and, for the keys the hot tier misses, the cold answer are final.
 * The loops run on the worker pool. */
#include <string.h>

#include "base/alloc.h"
#include "base/check.h"
#include "hash/bithash.h"
#include "tiered/tiered.h"

/* One chunk of a step: the staged keys [first, first + n), and everything
 * about them at the same offsets of the step's buffers (find_missed's
 * misses and their positions within the chunk, the cold answers, the
 * promotions). */
typedef struct find_chunk {
    hive_tiered *t;
    uint64_t first, n;
    uint64_t missed; /* the hot tier's misses, from s_keys2[first] */
    uint64_t up;     /* cold hits moving up, from s_keys[first] */
    hive_stream stream;
} find_chunk;

/* Loops over a chunk's staged keys (hits) and over its misses. */
typedef struct out_job {
    hive_cpu_loop loop;
    hive_tiered *t;
    uint64_t first;
    uint64_t *values;
    uint8_t *found;
    uint64_t salt;      /* this step's draws of promote_one_in */
    uint64_t cold_hits; /* (__atomic) */
} out_job;

/* Whether a cold hit moves up: always, or one in promote_one_in by a hash
 * of the key and the step (so that a key passed over now is drawn again
 * by the next find). */
static int promote_drawn(const out_job *o, uint64_t key)
{
    uint32_t one_in = o->t->config.promote_one_in;
    return one_in == 1 || hive_fold64(key ^ o->salt) % one_in == 0;
}

static void unmark_range(hive_cpu_loop *loop, uint64_t k0, uint64_t k1)
{
    out_job *o = (out_job *)loop;
    hive_tiered *t = o->t;
    for (uint64_t k = o->first + k0; k < o->first + k1; k++)
        t->s_flags[o->first + t->s_values2[k]] = 0; /* s_values2: find_missed's positions */
}

static void hits_range(hive_cpu_loop *loop, uint64_t j0, uint64_t j1)
{
    out_job *o = (out_job *)loop;
    hive_tiered *t = o->t;
    for (uint64_t j = o->first + j0; j < o->first + j1; j++) {
        if (!t->s_flags[j])
            continue;
        if (o->values != NULL)
            o->values[t->at[j]] = t->s_values[j];
        if (o->found != NULL)
            o->found[t->at[j]] = 1;
    }
}

static void cold_range(hive_cpu_loop *loop, uint64_t k0, uint64_t k1)
{
    out_job *o = (out_job *)loop;
    hive_tiered *t = o->t;
    uint64_t hits = 0;
    for (uint64_t k = o->first + k0; k < o->first + k1; k++) {
        uint32_t i = t->at[o->first + t->s_values2[k]];
        if (t->c_flags[k]) {
            hits++;
            if (o->values != NULL)
                o->values[i] = t->c_values[k];
        }
        if (o->found != NULL)
            o->found[i] = t->c_flags[k];
        /* s_flags, free again: which misses move up. */
        t->s_flags[k] = t->c_flags[k] && promote_drawn(o, t->s_keys2[k]);
    }
    __atomic_fetch_add(&o->cold_hits, hits, __ATOMIC_RELAXED);
}

/* The drawn cold hits of a chunk (s_flags), with their values, into its
 * part of s_keys/s_values, which its hits have been read from already. */
typedef struct up_job {
    hive_tiered_compact c;
    hive_tiered *t;
    uint64_t first;
} up_job;

static int up_keep(const hive_tiered_compact *c, uint64_t k)
{
    const up_job *u = (const up_job *)c;
    return u->t->s_flags[u->first + k];
}

static void up_move(hive_tiered_compact *c, uint64_t from, uint64_t to)
{
    up_job *u = (up_job *)c;
    hive_tiered *t = u->t;
    t->s_keys[u->first + to] = t->s_keys2[u->first + from];
    t->s_values[u->first + to] = t->c_values[u->first + from];
}

/* Steps 2-4 of a chunk on the host, once its lookup is done: answers out,
 * and c->up promotions chosen. */
static hive_status answer(find_chunk *c, uint64_t *values, uint8_t *found, uint64_t salt)
{
    hive_tiered *t = c->t;
    out_job o;
    memset(&o, 0, sizeof o);
    o.t = t;
    o.first = c->first;
    o.values = values;
    o.found = found;
    o.salt = salt;
    memset(t->s_flags + c->first, 1, c->n); /* s_flags[j]: staged key j was a hot hit */
    o.loop.range = unmark_range;
    hive_cpu_loop_run(t->pool, &o.loop, c->missed, 2);
    o.loop.range = hits_range;
    hive_cpu_loop_run(t->pool, &o.loop, c->n, 2);
    t->stats.hot_hits += c->n - c->missed;
    c->up = 0;
    if (c->missed == 0)
        return HIVE_SUCCESS;

    HIVE_TRY(hive_find(t->cold, c->missed, t->s_keys2 + c->first, t->c_values + c->first, t->c_flags + c->first,
                       NULL));
    o.loop.range = cold_range;
    hive_cpu_loop_run(t->pool, &o.loop, c->missed, 3);
    t->stats.cold_hits += o.cold_hits;
    t->stats.misses += c->missed - o.cold_hits;
    if (o.cold_hits == 0 || t->config.promote == HIVE_TIERED_PROMOTE_NEVER)
        return HIVE_SUCCESS;
    up_job uj = {{.keep = up_keep, .move = up_move}, t, c->first};
    c->up = hive_tiered_compact_run(t->pool, &uj.c, c->missed, t->offsets);
    t->stats.promoted += c->up;
    return HIVE_SUCCESS;
}

/* The hot tier's part between two chunks' host work: the promotions of
 * `admit` (or none), then the lookup of `lookup` (or none). */
typedef struct hot_job {
    find_chunk *admit, *lookup;
} hot_job;

static hive_status hot_calls(void *arg)
{
    hot_job *j = arg;
    if (j->admit != NULL) {
        hive_tiered *t = j->admit->t;
        HIVE_TRY(hive_tiered_admit(t, j->admit->up, t->s_keys + j->admit->first, t->s_values + j->admit->first,
                                   j->admit->stream));
    }
    if (j->lookup != NULL) {
        find_chunk *c = j->lookup;
        hive_tiered *t = c->t;
        HIVE_TRY(hive_cache_find_missed(t->hot, c->n, t->s_keys + c->first, t->s_values + c->first, NULL,
                                        t->s_keys2 + c->first, t->s_values2 + c->first, &c->missed, c->stream));
    }
    return HIVE_SUCCESS;
}

/* The chunks a step of u staged keys is cut into: one without a lane. */
static uint64_t chunks_of(const hive_tiered *t, uint64_t u)
{
    if (!t->lane.started)
        return 1;
    uint64_t least = (uint64_t)hive_test_tiered_lane(HIVE_TIERED_LANE_CHUNK_MIN);
    uint64_t k = least > 0 ? u / least : HIVE_TIERED_LANE_CHUNKS;
    return k < 1 ? 1 : k > HIVE_TIERED_LANE_CHUNKS ? HIVE_TIERED_LANE_CHUNKS : k;
}

hive_status hive_tiered_find_step(hive_tiered *t, uint64_t n, const uint64_t *keys, uint64_t *values,
                                  uint8_t *found, uint64_t *skipped, hive_stream stream)
{
    static const char call[] = "hive_tiered_find";
    uint64_t u = hive_tiered_stage(t, n, keys);
    *skipped += n - u;
    if (found != NULL && u < n)
        for (uint64_t i = 0; i < n; i++)
            if (keys[i] >= HIVE_KV64_RESERVED_MIN)
                found[i] = 0;
    if (u == 0)
        return HIVE_SUCCESS;

    find_chunk chunk[HIVE_TIERED_LANE_CHUNKS];
    uint64_t count = chunks_of(t, u), size = (u + count - 1) / count;
    for (uint64_t c = 0; c < count; c++) {
        uint64_t first = c * size < u ? c * size : u;
        chunk[c] = (find_chunk){t, first, u - first < size ? u - first : size, 0, 0, stream};
    }
    uint64_t salt = hive_fold64(++t->finds);
    hot_job first = {NULL, &chunk[0]};
    HIVE_TRY(hot_calls(&first));
    for (uint64_t c = 0; c < count; c++) {
        /* The lane takes the hot calls around chunk c while this thread answers it. */
        hot_job around = {c > 0 ? &chunk[c - 1] : NULL, c + 1 < count ? &chunk[c + 1] : NULL};
        int posted = around.admit != NULL || around.lookup != NULL;
        if (posted)
            hive_tiered_lane_post(&t->lane, hot_calls, &around);
        hive_status s = answer(&chunk[c], values, found, salt);
        hive_status hot = posted ? hive_tiered_lane_wait(&t->lane, call) : HIVE_SUCCESS;
        HIVE_TRY(s);
        HIVE_TRY(hot);
    }
    hot_job last = {&chunk[count - 1], NULL};
    return hot_calls(&last);
}
