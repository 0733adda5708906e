/* cache_body.h — the cache table's per-key element, shared by the CPU loops
 * and the CUDA kernels: where a key is, how a writer takes a slot, what it
 * stores, and what the backend must copy in between.  The backends add only
 * the loop over keys and the value copies (a memcpy on the CPU; on the GPU a
 * warp copies its keys' values together, coalesced).
 *
 * The protocol (docs/cache.md):
 *   - Readers (FIND, CONTAINS) never overlap writers (api's group lock), so
 *     they read without locks.
 *   - A writer of a present key locks its slot: CAS key -> LOCKED, writes,
 *     then stores the key back with release order (hive_cache_end).
 *   - A writer that may store a new key and did not find it takes its
 *     bucket's lock (both, in index order, when dual), looks again (only lock
 *     holders store new keys in a bucket, so the second look is the truth),
 *     then locks a free slot, or the lowest-scored slot if the new key's
 *     admission score is not below it, writes the new digest, and keeps the
 *     bucket lock until the new entry is published (one fence orders both):
 *     another writer of the same key that takes the bucket lock later sees
 *     the key, or a LOCKED slot with its digest, and waits.
 *   - Nothing waits while holding anything: a writer that meets a lock returns
 *     BUSY, having released what it took, and its backend runs it again.  So a
 *     GPU warp whose lanes hold slot and bucket locks until a collective copy
 *     ends can never wait on itself.
 *
 * Include after core/atomics.h. */
#ifndef HIVE_CACHE_BODY_H
#define HIVE_CACHE_BODY_H

#include <string.h>

#include "../core/atomics.h"
#include "cache_view.h"

/* ---------------------------------------------------------------- memory operations */

#if defined(__CUDACC__)
HIVE_PROTO void hive_cache_store64_release(uint64_t *p, uint64_t v)
{
    hive_fence();
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

HIVE_PROTO void hive_cache_store64(uint64_t *p, uint64_t v)
{
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

HIVE_PROTO void hive_cache_store8(uint8_t *p, uint8_t v)
{
    asm volatile("st.relaxed.gpu.global.u8 [%0], %1;" ::"l"(p), "h"((unsigned short)v) : "memory");
}

/* The n digests at p (n = 8, 16 or 32; p n-byte aligned), as eight words,
 * those past n zero.  `stable`: no writer runs (a reader's kernel), so the
 * read-only path may cache them. */
HIVE_PROTO void hive_cache_load_digests(const uint8_t *p, int stable, uint32_t n, uint32_t w[8])
{
    uint4 a = make_uint4(0, 0, 0, 0), b = make_uint4(0, 0, 0, 0);
    if (n == 8) {
        const uint2 *q = (const uint2 *)p;
        if (stable) {
            uint2 t = __ldg(q);
            a.x = t.x, a.y = t.y;
        } else
            asm volatile("ld.relaxed.gpu.global.v2.u32 {%0, %1}, [%2];" : "=r"(a.x), "=r"(a.y) : "l"(q) : "memory");
    } else {
        const uint4 *q = (const uint4 *)p;
        if (stable) {
            a = __ldg(q);
            if (n == 32)
                b = __ldg(q + 1);
        } else {
            asm volatile("ld.relaxed.gpu.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(a.x), "=r"(a.y), "=r"(a.z), "=r"(a.w)
                         : "l"(q)
                         : "memory");
            if (n == 32)
                asm volatile("ld.relaxed.gpu.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                             : "=r"(b.x), "=r"(b.y), "=r"(b.z), "=r"(b.w)
                             : "l"(q + 1)
                             : "memory");
        }
    }
    w[0] = a.x, w[1] = a.y, w[2] = a.z, w[3] = a.w;
    w[4] = b.x, w[5] = b.y, w[6] = b.z, w[7] = b.w;
}

/* A word no writer changes while the kernel runs (a reader's): the
 * read-only path, which the compiler may schedule freely. */
HIVE_PROTO uint64_t hive_cache_load64_stable(const uint64_t *p) { return __ldg((const unsigned long long *)p); }

HIVE_PROTO uint32_t hive_cache_ctz(uint32_t m) { return (uint32_t)__ffs((int)m) - 1u; }
HIVE_PROTO uint32_t hive_cache_popc(uint32_t m) { return (uint32_t)__popc(m); }

/* Nanoseconds of the GPU's global timer. */
HIVE_PROTO uint64_t hive_cache_clock(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
#else
HIVE_PROTO void hive_cache_store64_release(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
HIVE_PROTO void hive_cache_store64(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
HIVE_PROTO void hive_cache_store8(uint8_t *p, uint8_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

HIVE_PROTO void hive_cache_load_digests(const uint8_t *p, int stable, uint32_t n, uint32_t w[8])
{
    (void)stable;
    const uint32_t *q = (const uint32_t *)(const void *)p;
    for (uint32_t j = 0; j < 8; j++)
        w[j] = j < n / 4 ? __atomic_load_n(q + j, __ATOMIC_RELAXED) : 0;
}

HIVE_PROTO uint64_t hive_cache_load64_stable(const uint64_t *p) { return *p; }

HIVE_PROTO uint32_t hive_cache_ctz(uint32_t m) { return (uint32_t)__builtin_ctz(m); }
HIVE_PROTO uint32_t hive_cache_popc(uint32_t m) { return (uint32_t)__builtin_popcount(m); }

/* The CPU backend reads CLOCK_REALTIME once per call and passes it in. */
#endif

/* ---------------------------------------------------------------- digests */

/* Bit j set for each byte j of w equal to the byte of `pattern` (which
 * repeats one byte): exact, no false positives. */
HIVE_HD uint32_t hive_cache_match4(uint32_t w, uint32_t pattern)
{
    uint32_t x = w ^ pattern;
    uint32_t t = ~(((x & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | x | 0x7F7F7F7Fu);
    return ((t >> 7) & 1u) | ((t >> 14) & 2u) | ((t >> 21) & 4u) | ((t >> 28) & 8u);
}

/* The bits of a group's slots (the digests past them load as 0, which
 * would match a free slot). */
HIVE_HD uint32_t hive_cache_group_bits(const hive_cache_view *v)
{
    uint32_t n = hive_cache_group(v);
    return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1u;
}

/* Slots of the group at `first` whose digest is `digest` (0: the free ones). */
HIVE_PROTO uint32_t hive_cache_match(const hive_cache_view *v, uint64_t first, uint8_t digest, int stable)
{
    uint32_t w[8], m = 0, pattern = 0x01010101u * digest;
    hive_cache_load_digests(v->digests + first, stable, hive_cache_group(v), w);
    HIVE_UNROLL
    for (int j = 0; j < 8; j++)
        m |= hive_cache_match4(w[j], pattern) << (4 * j);
    return m & hive_cache_group_bits(v);
}

/* The same for two digests from one load: *m of `digest`, *f free. */
HIVE_PROTO void hive_cache_match2(const hive_cache_view *v, uint64_t first, uint8_t digest, uint32_t *m,
                                  uint32_t *f)
{
    uint32_t w[8], pattern = 0x01010101u * digest, bits = hive_cache_group_bits(v);
    hive_cache_load_digests(v->digests + first, 0, hive_cache_group(v), w);
    *m = 0, *f = 0;
    HIVE_UNROLL
    for (int j = 0; j < 8; j++) {
        *m |= hive_cache_match4(w[j], pattern) << (4 * j);
        *f |= hive_cache_match4(w[j], 0) << (4 * j);
    }
    *m &= bits, *f &= bits;
}

/* The slot of `key` in bucket b, or HIVE_CACHE_NO_SLOT.  *busy is set when a
 * LOCKED slot carries the key's digest (the key may be there, being
 * written): a writer must then try again rather than conclude it is absent. */
HIVE_PROTO uint64_t hive_cache_find_in(const hive_cache_view *v, uint64_t b, uint8_t digest, uint64_t key,
                                       int stable, int *busy)
{
    for (uint32_t g = 0; g < v->slots; g += HIVE_CACHE_GROUP) {
        uint64_t first = b * v->slots + g;
        uint32_t m = hive_cache_match(v, first, digest, stable);
        while (m) {
            uint64_t s = first + hive_cache_ctz(m);
            m &= m - 1;
            uint64_t k = stable ? hive_cache_load64_stable(&v->keys[s]) : hive_load64(&v->keys[s]);
            if (k == key)
                return s;
            if (k == HIVE_CACHE_KEY_LOCKED)
                *busy = 1;
        }
    }
    return HIVE_CACHE_NO_SLOT;
}

HIVE_PROTO uint64_t hive_cache_find_key(const hive_cache_view *v, hive_cache_place p, uint64_t key, int stable,
                                        int *busy)
{
    uint64_t s = hive_cache_find_in(v, p.b1, p.digest, key, stable, busy);
    if (s == HIVE_CACHE_NO_SLOT && p.b2 != p.b1)
        s = hive_cache_find_in(v, p.b2, p.digest, key, stable, busy);
    return s;
}

/* ---------------------------------------------------------------- claims */

/* Locks slot s if it holds `expected`; the holder's reads of the slot's
 * score and value then come after the lock (an acquire: the CAS itself is
 * relaxed on the GPU). */
HIVE_PROTO int hive_cache_lock_slot(hive_cache_view *v, uint64_t s, uint64_t expected)
{
    if (hive_cas64(&v->keys[s], expected, HIVE_CACHE_KEY_LOCKED) != expected)
        return 0;
    hive_order_reads();
    return 1;
}

enum {
    HIVE_CACHE_FOUND = 0,   /* the key is present: its slot (locked, for a writer) */
    HIVE_CACHE_FREE = 1,    /* a new key, in a free slot, locked */
    HIVE_CACHE_EVICT = 2,   /* a new key, in place of the entry old_key/old_score, locked */
    HIVE_CACHE_REFUSED = 3, /* a new key below the bucket's minimum: not stored */
    HIVE_CACHE_ABSENT = 4,  /* not present, and this element does not insert */
    HIVE_CACHE_BUSY = 5,    /* another writer holds what this needs: run it again */
    HIVE_CACHE_SKIP = 6     /* nothing to do (reserved key, or an element the op ignores) */
};

typedef struct hive_cache_claim {
    int kind;
    uint64_t slot;
    uint64_t old_key;   /* EVICT: the entry that leaves */
    uint64_t old_score; /* FOUND: the stored score (where the claim was asked to read it, else 0);
                           EVICT: the leaving entry's */
    uint64_t lock_lo, lock_hi; /* FREE, EVICT: the bucket locks still held (else HIVE_CACHE_NO_SLOT) */
} hive_cache_claim;

HIVE_PROTO uint32_t *hive_cache_lock_word(const hive_cache_view *v, uint64_t b) { return &v->locks[b / 32]; }
HIVE_PROTO uint32_t hive_cache_lock_bit(uint64_t b) { return 1u << (b % 32); }

/* Locks a free slot among `mask` of the group at `first`: one whose key is
 * EMPTY or ERASED (an eraser clears the digest before it frees the key). */
HIVE_PROTO uint64_t hive_cache_take_masked(hive_cache_view *v, uint64_t first, uint32_t mask, uint64_t *was)
{
    while (mask) {
        uint64_t s = first + hive_cache_ctz(mask);
        mask &= mask - 1;
        uint64_t k = hive_load64(&v->keys[s]);
        if ((k == HIVE_CACHE_KEY_EMPTY || k == HIVE_CACHE_KEY_ERASED) && hive_cache_lock_slot(v, s, k)) {
            *was = k;
            return s;
        }
    }
    return HIVE_CACHE_NO_SLOT;
}

/* Locks a free slot of bucket b (digest 0), looking at every group. */
HIVE_PROTO uint64_t hive_cache_take_free(hive_cache_view *v, uint64_t b, uint64_t *was)
{
    for (uint32_t g = 0; g < v->slots; g += HIVE_CACHE_GROUP) {
        uint64_t first = b * v->slots + g;
        uint64_t s = hive_cache_take_masked(v, first, hive_cache_match(v, first, 0, 0), was);
        if (s != HIVE_CACHE_NO_SLOT)
            return s;
    }
    return HIVE_CACHE_NO_SLOT;
}

/* One look at bucket b's digests, with its lock held: the slot of `key` if
 * a writer of it got here first (or *busy, as hive_cache_find_in), and the
 * bucket's free slots: how many, and the first group that has any. */
typedef struct hive_cache_frees {
    uint32_t count;
    uint32_t mask;  /* free slots of the group at `first` */
    uint64_t first;
} hive_cache_frees;

HIVE_PROTO uint64_t hive_cache_scan_locked(const hive_cache_view *v, uint64_t b, uint8_t digest, uint64_t key,
                                           int *busy, hive_cache_frees *fr)
{
    fr->count = 0, fr->mask = 0, fr->first = 0;
    for (uint32_t g = 0; g < v->slots; g += HIVE_CACHE_GROUP) {
        uint64_t first = b * v->slots + g;
        uint32_t m, f;
        hive_cache_match2(v, first, digest, &m, &f);
        if (f != 0 && fr->mask == 0)
            fr->mask = f, fr->first = first;
        fr->count += hive_cache_popc(f);
        while (m) {
            uint64_t s = first + hive_cache_ctz(m);
            m &= m - 1;
            uint64_t k = hive_load64(&v->keys[s]);
            if (k == key)
                return s;
            if (k == HIVE_CACHE_KEY_LOCKED)
                *busy = 1;
        }
    }
    return HIVE_CACHE_NO_SLOT;
}

/* The lowest score of bucket b's slots, lowering *min and setting *slot.
 * A group's scores (up to 32; past a smaller bucket's slots, UINT64_MAX,
 * which never wins) are loaded before any is compared, so that a GPU thread
 * has all its loads in flight at once (the compiler alone issued them four
 * at a time: 7% of an evicting upsert's rate). */
HIVE_PROTO void hive_cache_min_in(const hive_cache_view *v, uint64_t b, uint64_t *min, uint64_t *slot)
{
    uint32_t n = hive_cache_group(v);
    for (uint32_t g = 0; g < v->slots; g += HIVE_CACHE_GROUP) {
        uint64_t first = b * v->slots + g, sc[HIVE_CACHE_GROUP];
        HIVE_UNROLL
        for (uint32_t j = 0; j < HIVE_CACHE_GROUP; j += 2) {
            uint64_t lo = UINT64_MAX, hi = UINT64_MAX;
            if (j < n)
                hive_load64x2(&v->scores[first + j], &lo, &hi);
            sc[j] = lo, sc[j + 1] = hi;
        }
        if (*slot == HIVE_CACHE_NO_SLOT)
            *min = sc[0], *slot = first;
        HIVE_UNROLL
        for (uint32_t j = 0; j < HIVE_CACHE_GROUP; j++)
            if (sc[j] < *min)
                *min = sc[j], *slot = first + j;
    }
}

/* The bucket of a two-bucket place that a writer would store `key` in now,
 * as hive_cache_claim_locked decides it: the bucket the key is in, else the
 * emptier with a free slot (the first on a tie), else, where `inserts`, the
 * one holding the lower score (the one it would evict from).  Read without
 * locks: a hint for the order of a call over host values (cuda_cache.cu),
 * which the call's own writes may overtake at the cost of the order only. */
HIVE_PROTO uint64_t hive_cache_bucket_hint(const hive_cache_view *v, hive_cache_place p, uint64_t key, int inserts)
{
    int busy = 0;
    hive_cache_frees f1, f2;
    if (p.b2 == p.b1 || hive_cache_scan_locked(v, p.b1, p.digest, key, &busy, &f1) != HIVE_CACHE_NO_SLOT)
        return p.b1;
    if (hive_cache_scan_locked(v, p.b2, p.digest, key, &busy, &f2) != HIVE_CACHE_NO_SLOT)
        return p.b2;
    if (f1.count > 0 || f2.count > 0)
        return f2.count > f1.count ? p.b2 : p.b1;
    if (!inserts)
        return p.b1;
    uint64_t min = 0, slot = HIVE_CACHE_NO_SLOT;
    hive_cache_min_in(v, p.b1, &min, &slot);
    hive_cache_min_in(v, p.b2, &min, &slot);
    return slot / v->slots;
}

/* A present key's stored score, read after its slot is locked where the
 * write needs it (`old`), else 0: writes that do not (the LRU, epoch-LRU and
 * custom policies' but for assign_values and accum_or_assign) skip the
 * read, one round trip to memory of each. */
HIVE_PROTO uint64_t hive_cache_old_score(const hive_cache_view *v, uint64_t s, int old)
{
    return old ? hive_load64(&v->scores[s]) : 0;
}

/* The new key's place, with its bucket lock(s) held: the key after all (a
 * writer of it got there first; its score read where `old`), else a free
 * slot (the emptier bucket first, when dual), else the lowest-scored entry
 * of the bucket(s). */
HIVE_PROTO hive_cache_claim hive_cache_claim_locked(hive_cache_view *v, hive_cache_place p, uint64_t key,
                                                    uint64_t admission, int old)
{
    hive_cache_claim c = {HIVE_CACHE_BUSY, HIVE_CACHE_NO_SLOT, 0, 0, HIVE_CACHE_NO_SLOT, HIVE_CACHE_NO_SLOT};
    int busy = 0;
    hive_cache_frees f1, f2 = {0, 0, 0};
    uint64_t s = hive_cache_scan_locked(v, p.b1, p.digest, key, &busy, &f1);
    if (s == HIVE_CACHE_NO_SLOT && p.b2 != p.b1)
        s = hive_cache_scan_locked(v, p.b2, p.digest, key, &busy, &f2);
    if (s != HIVE_CACHE_NO_SLOT) {
        if (hive_cache_lock_slot(v, s, key))
            c.kind = HIVE_CACHE_FOUND, c.slot = s, c.old_score = hive_cache_old_score(v, s, old);
        return c;
    }
    if (busy)
        return c;

    /* A free slot: the emptier bucket first, when dual. */
    if (f2.count > f1.count) {
        hive_cache_frees t = f1;
        f1 = f2, f2 = t;
    }
    uint64_t was = 0;
    if (f1.mask)
        s = hive_cache_take_masked(v, f1.first, f1.mask, &was);
    if (s == HIVE_CACHE_NO_SLOT && f2.mask)
        s = hive_cache_take_masked(v, f2.first, f2.mask, &was);
    if (s == HIVE_CACHE_NO_SLOT && (f1.count > 0 || f2.count > 0)) {
        /* The first free group's slots were still being erased: the rest. */
        s = hive_cache_take_free(v, p.b1, &was);
        if (s == HIVE_CACHE_NO_SLOT && p.b2 != p.b1)
            s = hive_cache_take_free(v, p.b2, &was);
    }
    if (s == HIVE_CACHE_NO_SLOT) {
        uint64_t min = 0;
        hive_cache_min_in(v, p.b1, &min, &s);
        if (p.b2 != p.b1)
            hive_cache_min_in(v, p.b2, &min, &s);
        if (admission < min) {
            c.kind = HIVE_CACHE_REFUSED;
            return c;
        }
        uint64_t k = hive_load64(&v->keys[s]);
        if (k == HIVE_CACHE_KEY_LOCKED || !hive_cache_lock_slot(v, s, k))
            return c; /* being written: look again */
        uint64_t score = hive_load64(&v->scores[s]);
        if (score != min) { /* rescored between the scan and the lock: look again */
            hive_cache_store64_release(&v->keys[s], k);
            return c;
        }
        was = k;
        c.old_score = score;
    }
    c.slot = s;
    if (was == HIVE_CACHE_KEY_EMPTY || was == HIVE_CACHE_KEY_ERASED) {
        c.kind = HIVE_CACHE_FREE;
    } else {
        c.kind = HIVE_CACHE_EVICT;
        c.old_key = was;
    }
    hive_cache_store8(&v->digests[s], p.digest);
    return c;
}

HIVE_PROTO void hive_cache_unlock_buckets(hive_cache_view *v, uint64_t lo, uint64_t hi)
{
    if (hi != lo)
        hive_lock_release_fenced(hive_cache_lock_word(v, hi), hive_cache_lock_bit(hi));
    hive_lock_release_fenced(hive_cache_lock_word(v, lo), hive_cache_lock_bit(lo));
}

/* A writer's claim on `key`: FOUND (locked; its score read where `old`),
 * ABSENT when it may not insert, else FREE / EVICT (locked) / REFUSED, or
 * BUSY. */
HIVE_PROTO hive_cache_claim hive_cache_claim_key(hive_cache_view *v, hive_cache_place p, uint64_t key,
                                                 int may_insert, uint64_t admission, int old)
{
    hive_cache_claim c = {HIVE_CACHE_BUSY, HIVE_CACHE_NO_SLOT, 0, 0, HIVE_CACHE_NO_SLOT, HIVE_CACHE_NO_SLOT};
    int busy = 0;
    uint64_t s = hive_cache_find_key(v, p, key, 0, &busy);
    if (s != HIVE_CACHE_NO_SLOT) {
        if (hive_cache_lock_slot(v, s, key))
            c.kind = HIVE_CACHE_FOUND, c.slot = s, c.old_score = hive_cache_old_score(v, s, old);
        return c;
    }
    if (busy)
        return c;
    if (!may_insert) {
        c.kind = HIVE_CACHE_ABSENT;
        return c;
    }
    uint64_t lo = p.b1 < p.b2 ? p.b1 : p.b2, hi = p.b1 < p.b2 ? p.b2 : p.b1;
    if (!hive_lock_try(hive_cache_lock_word(v, lo), hive_cache_lock_bit(lo)))
        return c;
    if (hi != lo && !hive_lock_try(hive_cache_lock_word(v, hi), hive_cache_lock_bit(hi))) {
        hive_lock_release(hive_cache_lock_word(v, lo), hive_cache_lock_bit(lo));
        return c;
    }
    c = hive_cache_claim_locked(v, p, key, admission, old);
    if (c.kind == HIVE_CACHE_FREE || c.kind == HIVE_CACHE_EVICT) {
        /* Held until the new entry is published (hive_cache_end): the
         * publication's fence then orders the digest written here too, one
         * fence a new key instead of two. */
        c.lock_lo = lo, c.lock_hi = hi;
        return c;
    }
    /* Nothing was written under the locks (a restored key has its own
     * fence): they go without one. */
    hive_cache_unlock_buckets(v, lo, hi);
    return c;
}

/* Lets a locked slot go, holding `key` with `score` (all of its value
 * written before, by whichever threads wrote it). */
HIVE_PROTO void hive_cache_publish(hive_cache_view *v, uint64_t slot, uint64_t key, uint64_t score)
{
    hive_cache_store64(&v->scores[slot], score);
    hive_cache_store64_release(&v->keys[slot], key);
}

/* Frees a locked slot (erase). */
HIVE_PROTO void hive_cache_release_free(hive_cache_view *v, uint64_t slot)
{
    hive_cache_store8(&v->digests[slot], 0);
    hive_cache_store64(&v->scores[slot], 0);
    hive_cache_store64_release(&v->keys[slot], HIVE_CACHE_KEY_ERASED);
}

/* ---------------------------------------------------------------- one element */

/* What one key of a batch does, decided by hive_cache_begin; the backend
 * then makes the copies (first `out`, then `in`), and calls hive_cache_end. */
typedef struct hive_cache_step {
    int kind;           /* HIVE_CACHE_* of the claim (BUSY: run begin again) */
    int locked;         /* the slot is locked: hive_cache_end publishes or frees it */
    uint64_t slot;
    uint64_t key;       /* what end stores back in the slot */
    uint64_t score;     /* what end stores as its score */
    uint8_t result;     /* hive_result, for results[] */
    uint8_t found;      /* for found[] */
    /* Copies, in this order: value bytes from out_src to the caller (out_dst,
     * or, when emit is set, the emitted entry's place in out_values), then
     * from in_src into the slot (in_dst), added element-wise if accumulate. */
    const uint8_t *out_src;
    uint8_t *out_dst;
    const uint8_t *in_src;
    uint8_t *in_dst;
    int accumulate;
    /* emit: one compact record for out_keys/out_scores (evicted or refused
     * entry; a missed key with its index); the backend takes its index. */
    int emit;
    uint64_t emit_key, emit_score;
    uint64_t lock_lo, lock_hi; /* bucket locks end releases (HIVE_CACHE_NO_SLOT: none) */
} hive_cache_step;

HIVE_PROTO const uint8_t *hive_cache_value_in(const hive_cache_batch *b, uint32_t vb, uint64_t i)
{
    return (const uint8_t *)b->values_in + i * vb;
}

/* Decides element i.  `clock`: the LRU clock for this element (the GPU's
 * timer now, or the CPU call's). */
HIVE_PROTO void hive_cache_begin(hive_cache_view *v, const hive_cache_batch *b, uint64_t i, uint64_t clock,
                                 hive_cache_step *st)
{
    uint64_t key = b->keys[i];
    uint32_t vb = v->value_bytes;
    memset(st, 0, sizeof *st);
    st->slot = HIVE_CACHE_NO_SLOT;
    st->lock_lo = st->lock_hi = HIVE_CACHE_NO_SLOT;
    st->key = key;
    if (hive_k64_reserved(key)) {
        st->kind = HIVE_CACHE_SKIP;
        st->result = HIVE_RESULT_REJECTED_RESERVED;
        return;
    }
    hive_cache_place p = hive_cache_place_of(key, v->buckets, v->dual, v->seed);
    int busy = 0;

    if (b->op == HIVE_CACHE_FIND || b->op == HIVE_CACHE_CONTAINS) {
        uint64_t s = hive_cache_find_key(v, p, key, 1, &busy);
        st->slot = s;
        if (s == HIVE_CACHE_NO_SLOT) {
            st->kind = HIVE_CACHE_ABSENT;
            st->result = HIVE_RESULT_NOT_FOUND;
            st->emit = b->out_keys != NULL;
            st->emit_key = key;
            st->emit_score = i; /* the missed key's index */
            return;
        }
        st->kind = HIVE_CACHE_FOUND;
        st->found = 1;
        st->result = HIVE_RESULT_FOUND;
        st->score = b->scores_out ? v->scores[s] : 0;
        if (b->op == HIVE_CACHE_FIND && b->values_out) {
            st->out_src = hive_cache_value_at(v, s);
            st->out_dst = (uint8_t *)b->values_out + i * vb;
        }
        return;
    }

    if (b->op == HIVE_CACHE_ERASE) {
        uint64_t s = hive_cache_find_key(v, p, key, 0, &busy);
        if (s == HIVE_CACHE_NO_SLOT) {
            st->kind = busy ? HIVE_CACHE_BUSY : HIVE_CACHE_ABSENT;
            st->result = HIVE_RESULT_NOT_FOUND;
        } else if (!hive_cache_lock_slot(v, s, key)) {
            st->kind = HIVE_CACHE_BUSY;
        } else {
            st->kind = HIVE_CACHE_FOUND;
            st->locked = 1;
            st->slot = s;
            st->key = HIVE_CACHE_KEY_ERASED;
            st->found = 1;
            st->result = HIVE_RESULT_ERASED;
        }
        return;
    }

    /* Writers that take a value and/or a score. */
    uint64_t inc = b->scores_in ? b->scores_in[i] : 0;
    int may_insert = hive_cache_op_inserts(b->op) && (b->op != HIVE_CACHE_ACCUM || !b->flags[i]);
    /* The stored score of a present key matters to LFU sums and to the ops
     * that keep it. */
    int old = b->policy == HIVE_SCORE_LFU || b->policy == HIVE_SCORE_EPOCH_LFU || b->op == HIVE_CACHE_ASSIGN_VALUES ||
              b->op == HIVE_CACHE_ACCUM;
    hive_cache_claim c =
        hive_cache_claim_key(v, p, key, may_insert, hive_cache_admission(b->policy, inc, clock, v->epoch), old);
    st->kind = c.kind;
    st->slot = c.slot;
    st->lock_lo = c.lock_lo, st->lock_hi = c.lock_hi;
    if (c.kind == HIVE_CACHE_BUSY)
        return;
    if (c.kind == HIVE_CACHE_ABSENT) {
        st->result = b->op == HIVE_CACHE_ACCUM ? HIVE_RESULT_NONE : HIVE_RESULT_NOT_FOUND;
        return;
    }
    if (c.kind == HIVE_CACHE_REFUSED) {
        st->result = HIVE_RESULT_REFUSED;
        if (b->out_keys) { /* insert_and_evict: the refused key goes out with its input */
            st->emit = 1;
            st->emit_key = key;
            st->emit_score = hive_cache_score(b->policy, 0, 0, inc, clock, v->epoch);
            st->out_src = hive_cache_value_in(b, vb, i);
        }
        return;
    }

    st->locked = 1;
    uint8_t *slot_value = hive_cache_value_at(v, c.slot);
    int existed = c.kind == HIVE_CACHE_FOUND;
    st->score = hive_cache_score(b->policy, existed, c.old_score, inc, clock, v->epoch);
    st->found = (uint8_t)existed;
    if (c.kind == HIVE_CACHE_EVICT && b->out_keys) {
        st->emit = 1;
        st->emit_key = c.old_key;
        st->emit_score = c.old_score;
        st->out_src = slot_value;
    }
    if (!existed) {
        st->result = c.kind == HIVE_CACHE_EVICT ? HIVE_RESULT_EVICTED : HIVE_RESULT_INSERTED;
        st->in_src = hive_cache_value_in(b, vb, i);
        st->in_dst = slot_value;
        return;
    }
    st->result = HIVE_RESULT_UPDATED;
    switch (b->op) {
    case HIVE_CACHE_FIND_OR_INSERT:
        st->result = HIVE_RESULT_FOUND;
        st->out_src = slot_value;
        st->out_dst = (uint8_t *)b->values_out + i * vb;
        break;
    case HIVE_CACHE_ASSIGN_VALUES:
        st->score = c.old_score;
        /* fall through */
    case HIVE_CACHE_UPSERT:
    case HIVE_CACHE_ASSIGN:
        st->in_src = hive_cache_value_in(b, vb, i);
        st->in_dst = slot_value;
        break;
    case HIVE_CACHE_ASSIGN_SCORES:
        st->score = inc;
        break;
    case HIVE_CACHE_ACCUM:
        if (b->flags[i]) {
            st->in_src = hive_cache_value_in(b, vb, i);
            st->in_dst = slot_value;
            st->accumulate = 1;
        } else { /* present, flag 0: nothing changes */
            st->score = c.old_score;
            st->result = HIVE_RESULT_NONE;
        }
        break;
    default:
        break;
    }
}

/* Writes element i's per-key outputs (all a reader's end). */
HIVE_PROTO void hive_cache_end_outputs(const hive_cache_batch *b, uint64_t i, const hive_cache_step *st)
{
    if (b->found)
        b->found[i] = st->found;
    if (b->results)
        b->results[i] = st->result;
    if (b->scores_out && st->found && b->op != HIVE_CACHE_ERASE)
        b->scores_out[i] = st->score;
}

/* Finishes element i after its copies: lets its slot go and writes its
 * per-key outputs. */
HIVE_PROTO void hive_cache_end(hive_cache_view *v, const hive_cache_batch *b, uint64_t i,
                               const hive_cache_step *st)
{
    if (st->locked) {
        if (st->key == HIVE_CACHE_KEY_ERASED)
            hive_cache_release_free(v, st->slot);
        else
            hive_cache_publish(v, st->slot, st->key, st->score);
    }
    /* After the publication's fence, which orders the new digest too; a
     * writer that takes the bucket before it sees the key may see LOCKED with
     * the new digest, and tries again. */
    if (st->lock_lo != HIVE_CACHE_NO_SLOT)
        hive_cache_unlock_buckets(v, st->lock_lo, st->lock_hi);
    hive_cache_end_outputs(b, i, st);
}

/* erase_if on slot i: 1 erased, 0 not selected, -1 busy (run it again). */
HIVE_PROTO int hive_cache_erase_slot_if(hive_cache_view *v, uint64_t i, const hive_cache_filter *f)
{
    uint64_t k = hive_load64(&v->keys[i]);
    if (hive_k64_reserved(k))
        return k == HIVE_CACHE_KEY_LOCKED ? -1 : 0;
    if (!hive_cache_filter_match(f, k, hive_load64(&v->scores[i])))
        return 0;
    if (!hive_cache_lock_slot(v, i, k))
        return -1;
    if (!hive_cache_filter_match(f, k, hive_load64(&v->scores[i]))) {
        hive_cache_store64_release(&v->keys[i], k);
        return 0;
    }
    hive_cache_release_free(v, i);
    return 1;
}

#endif
