/* tiered_compact.c — a step's compactions (its unreserved keys, the keys
 * the hot tier lacks, the cold hits that move up) on the worker pool: a
 * counting pass over fixed blocks, offsets by a prefix sum on the calling
 * thread, a moving pass that puts each block's kept elements at its offset
 * in order.  Out of place, so that no block overwrites what another still
 * reads.  A compaction that usually keeps everything (`in_place_first`)
 * moves each element to its own position in the counting pass, and skips
 * the moving pass when nothing was dropped: one pass over the keys instead
 * of two. */
#include "tiered/tiered.h"

static void compact_range(hive_cpu_loop *loop, uint64_t b0, uint64_t b1)
{
    hive_tiered_compact *c = (hive_tiered_compact *)loop;
    for (uint64_t b = b0; b < b1; b++) {
        uint64_t end = (b + 1) * HIVE_TIERED_BLOCK < c->n ? (b + 1) * HIVE_TIERED_BLOCK : c->n;
        uint64_t kept = 0, to = c->offsets[b];
        for (uint64_t i = b * HIVE_TIERED_BLOCK; i < end; i++) {
            if (!c->keep(c, i))
                continue;
            if (c->moving)
                c->move(c, i, to++);
            else {
                if (c->in_place_first)
                    c->move(c, i, i);
                kept++;
            }
        }
        if (!c->moving)
            c->offsets[b] = kept;
    }
}

uint64_t hive_tiered_compact_run(hive_cpu_pool *pool, hive_tiered_compact *c, uint64_t n, uint64_t *offsets)
{
    uint64_t blocks = (n + HIVE_TIERED_BLOCK - 1) / HIVE_TIERED_BLOCK, total = 0;
    c->loop.range = compact_range;
    c->n = n;
    c->offsets = offsets;
    c->moving = 0;
    hive_cpu_loop_run(pool, &c->loop, blocks, HIVE_TIERED_KEY_COST * HIVE_TIERED_BLOCK);
    for (uint64_t b = 0; b < blocks; b++) {
        uint64_t kept = offsets[b];
        offsets[b] = total;
        total += kept;
    }
    if (total == n && c->in_place_first)
        return total;
    c->moving = 1;
    hive_cpu_loop_run(pool, &c->loop, blocks, 2 * HIVE_TIERED_KEY_COST * HIVE_TIERED_BLOCK);
    return total;
}

/* ---------------------------------------------------------------- staging */

typedef struct stage_job {
    hive_tiered_compact c;
    const uint64_t *keys;
    hive_tiered *t;
} stage_job;

static int stage_keep(const hive_tiered_compact *c, uint64_t i)
{
    return ((const stage_job *)c)->keys[i] < HIVE_KV64_RESERVED_MIN;
}

static void stage_move(hive_tiered_compact *c, uint64_t from, uint64_t to)
{
    stage_job *j = (stage_job *)c;
    j->t->s_keys[to] = j->keys[from];
    j->t->at[to] = (uint32_t)from;
}

uint64_t hive_tiered_stage(hive_tiered *t, uint64_t n, const uint64_t *keys)
{
    stage_job j = {{.keep = stage_keep, .move = stage_move, .in_place_first = 1}, keys, t};
    return hive_tiered_compact_run(t->pool, &j.c, n, t->offsets);
}
