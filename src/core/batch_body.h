/* batch_body.h — one element of a batch, written once for every backend: a
 * reserved key or a bad op code, the design's per-key operation, the
 * element's outputs (result byte, found flag, value) and its counts.  The CPU
 * backend calls it from its loops (cpu/cpu_kernels_body.h), the CUDA kernels
 * from theirs (src/cuda).  Included once per instance with B_*
 * defined, after core/batch.h, the design's protocol and the backend's tally;
 * it #undefs them at the end.  No include guard on purpose.
 *
 *   B_SUFFIX(name)    name##_kv32, _kv64 or _kv32_tile: names the element and the
 *                     design's functions it calls (hive_find_hashed & co.)
 *   B_KEY             the key and value type
 *   B_GEOM            the geometry those functions take: uint32_t (S), or hive_geom
 *   B_WRITER(geom)    whether this thread writes the outputs and counts: 1, or
 *                     the first lane of a tile (its lanes compute the same outcome)
 *   B_RESERVED(k)     whether k is a reserved key (core/slot.h)
 *   B_TALLY           the backend's tally of one thread
 *   B_COUNT(t, c, n)  adds n to counter c (HIVE_CTR_*) of tally t */

/* Hash `which` (0, 1) of key k in v's table: h[which] if the caller took
 * them already (the CPU, when it prefetched the key's buckets), else computed
 * here.  A GPU thread passes none and computes them where an operation needs
 * them: computed ahead of the branches, they cost the insert kernels 6
 * registers. */
HIVE_PROTO uint32_t B_SUFFIX(hive_batch_hash)(const hive_view *v, B_KEY k, const uint32_t *h, int which)
{
    return h != NULL ? h[which] : which == 0 ? B_SUFFIX(hive_hash1)(v, k) : B_SUFFIX(hive_hash2)(v, k);
}

/* A find's outputs for element i, but its result byte: the value where r is
 * HIVE_R_FOUND, and the found flag. */
HIVE_PROTO void B_SUFFIX(hive_batch_find_outputs)(const hive_batch *b, uint64_t i, int r, B_KEY value)
{
    if (r == HIVE_R_FOUND && b->values_out != NULL)
        ((B_KEY *)b->values_out)[i] = value;
    if (b->found != NULL)
        b->found[i] = r == HIVE_R_FOUND;
}

/* Element i of batch b: op `op` (hive_batch_op(b, i), or a uniform batch's op
 * as a constant); h: its key's two hashes, or NULL.  `part`: 0 the whole
 * operation; 1 only the lock-free part of an insert, which returns
 * HIVE_R_DEFER for a key that needs the locked part and counts it; 2 only the
 * short locked part, for such a key, which returns HIVE_R_DEFER_DEEP for one
 * it cannot place and counts it; 3 the locked part for those, from the second
 * level of the eviction search on (HIVE_EVICT_TWO_MOVES: the first found
 * nothing moments before).  Returns the outcome (HIVE_R_*); the caller keeps
 * the batch's marks (core/marks.h) from it. */
HIVE_PROTO int B_SUFFIX(hive_batch_one)(const hive_view *v, B_GEOM geom, const hive_batch *b,
                                        uint64_t i, int op, const uint32_t *h, B_TALLY *t, int part)
{
    B_KEY key = ((const B_KEY *)b->keys)[i];
    int writer = B_WRITER(geom);
    int r;
    if (B_RESERVED(key) && (unsigned)op <= HIVE_OP_ERASE) { /* a bad op code wins */
        r = HIVE_R_REJECTED_RESERVED;
        B_COUNT(t, HIVE_CTR_RESERVED, writer);
        if (writer && op == HIVE_OP_FIND && b->found != NULL)
            b->found[i] = 0;
    } else if (op == HIVE_OP_FIND) {
        B_KEY value;
        r = B_SUFFIX(hive_find_hashed)(v, geom, key, B_SUFFIX(hive_batch_hash)(v, key, h, 0),
                                       B_SUFFIX(hive_batch_hash)(v, key, h, 1), &value);
        if (writer)
            B_SUFFIX(hive_batch_find_outputs)(b, i, r, value);
    } else if (op == HIVE_OP_INSERT || op == HIVE_OP_UPSERT) {
        int step;
        uint32_t moves = 0;
        int mode = op == HIVE_OP_INSERT ? HIVE_CMB_KEEP : (int)b->combine;
        B_KEY val = ((const B_KEY *)b->values_in)[i];
        uint32_t h1 = B_SUFFIX(hive_batch_hash)(v, key, h, 0), h2 = B_SUFFIX(hive_batch_hash)(v, key, h, 1);
        r = part >= 2 ? HIVE_R_DEFER : B_SUFFIX(hive_upsert_lockfree)(v, geom, key, h1, h2, val, mode, &step);
        if (r == HIVE_R_DEFER && part != 1)
            r = B_SUFFIX(hive_upsert_deferred)(v, geom, key, h1, h2, val, mode,
                                               part == 2   ? HIVE_EVICT_ONE_MOVE
                                               : part == 3 ? HIVE_EVICT_TWO_MOVES
                                                           : HIVE_EVICT_ALL,
                                               &step, &moves);
        if (r == HIVE_R_DEFER) {
            B_COUNT(t, HIVE_CTR_DEFERRED, writer);
        } else if (r == HIVE_R_DEFER_DEEP) {
            B_COUNT(t, HIVE_CTR_DEFERRED_DEEP, writer);
        } else if (r == HIVE_R_REJECTED_FULL) {
            B_COUNT(t, HIVE_CTR_FULL, writer);
        } else {
            /* Constant indices keep a GPU thread's tally in registers (indexed
             * by `step`, it lived in local memory: 48 bytes of stack in the
             * batch kernels); the deferred kernels (parts 2 and 3), whose
             * tallies are in shared memory, index them. */
            if (part >= 2) {
                B_COUNT(t, HIVE_CTR_STEP0 + step, writer);
            } else {
                HIVE_UNROLL
                for (int s = 0; s < 4; s++)
                    B_COUNT(t, HIVE_CTR_STEP0 + s, writer && step == s);
            }
            B_COUNT(t, HIVE_CTR_EVICTIONS, writer ? moves : 0);
            if (r == HIVE_R_INSERTED)
                B_COUNT(t, HIVE_CTR_INSERTED, writer);
        }
    } else if (op == HIVE_OP_ERASE) {
        r = B_SUFFIX(hive_erase_hashed)(v, geom, key, B_SUFFIX(hive_batch_hash)(v, key, h, 0),
                                        B_SUFFIX(hive_batch_hash)(v, key, h, 1));
        if (r == HIVE_R_ERASED)
            B_COUNT(t, HIVE_CTR_ERASED, writer);
    } else {
        r = HIVE_R_NONE;
        B_COUNT(t, HIVE_CTR_BAD_OPS, writer);
    }
    if (writer && b->results != NULL)
        b->results[i] = (uint8_t)r;
    return r;
}

#undef B_SUFFIX
#undef B_KEY
#undef B_GEOM
#undef B_WRITER
#undef B_RESERVED
#undef B_TALLY
#undef B_COUNT
