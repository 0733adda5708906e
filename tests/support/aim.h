/* aim.h — keys aimed at buckets: keys of the target's width whose candidate
 * buckets (the probe buckets of the target's design: the Hive and p2
 * designs' two, the iceberg's and cuckoo's three, the double design's 16,
 * the chaining design's head bucket) lie in a chosen range of buckets of a
 * table's base index, hive_index_for(base), the index of a table created
 * with `base` buckets (src/core/index.h), under the table's hash seed
 * (hive_config.hash_seed: ht_hash_seed reads it).  The same keys spread
 * over a table with another seed.
 *
 * Every later index of that table refines the base one: bucket b of a grown
 * table only holds hashes of base bucket b mod base, and merging never goes
 * below the base.  So keys aimed at a few base buckets crowd those buckets
 * at every size, and most of all when a shrink merges the table back to its
 * base.
 *
 * A key is made from its hashes: a hash is drawn among those naming the
 * wanted buckets and the key computed from it by running the hash functions
 * backwards (src/hash/bithash.h: every step of them is a bijection of 32 or
 * 64 bits, and the seed is an xor).  A KV64 key so gets both of its hashes chosen; a KV32 key only
 * its first, and keeps trying for the second (base / count tries a key).
 * The double, iceberg and cuckoo designs' probe i is bucket_of(h1 + i * (h2 | 1)):
 * a KV64 key gets a first hash in the range and a small odd step that keeps
 * all its probes in it; a KV32 key, whose step is whatever its first hash's key
 * hashes to, only has probe 0 aimed (ht_aim_tight says 0), and its other
 * probes go where they fall.  Every key returned is checked with the
 * forward hashes and the index. */
#ifndef HT_AIM_H
#define HT_AIM_H

#include <stddef.h>
#include <stdint.h>

#include "refmap.h"
#include "rng.h"
#include "target.h"

/* A table's hash seed, as hive_get_config reports it (exits 1 on failure). */
uint64_t ht_hash_seed(const hive_table *table);

/* Hash `which` (1 or 2) of key, as tables of the target's width with hash
 * seed `seed` compute it: the tests' one copy of the seeded hashes. */
uint32_t ht_key_hash(const ht_target *t, uint64_t seed, uint64_t key, int which);

/* Probe buckets a key has in the target's design, and the one probe i names
 * under hive_index_for(base) (probe 0 is hash 1's bucket in every design). */
uint32_t ht_key_probes(const ht_target *t);
/* The hash whose bucket is probe i of a key with hashes h1, h2. */
uint32_t ht_probe_hash(const ht_target *t, uint32_t h1, uint32_t h2, uint32_t probe);
uint64_t ht_probe_base_bucket(const ht_target *t, uint64_t seed, uint64_t base, uint64_t key,
                              uint32_t probe);

/* Whether ht_aimed_keys aims every probe of a key (else probe 0 only: KV32
 * keys of the double, iceberg and cuckoo designs), so that keys aimed at too few buckets must
 * overflow into the stash. */
int ht_aim_tight(const ht_target *t);

/* Fills out[0..n) with distinct non-reserved keys whose probe buckets, under
 * hash seed `seed`, all lie in [first, first + count) of the base index
 * (probe 0 only where ht_aim_tight says 0), none of them in `taken`; adds
 * each to `taken` (value 0), so that keys of several calls stay distinct.
 * Exits 1 if the range holds too few keys for n. */
void ht_aimed_keys(const ht_target *t, uint64_t seed, ht_rng *rng, uint64_t base, uint64_t first,
                   uint64_t count, uint64_t *out, size_t n, ht_ref *taken);

#endif
