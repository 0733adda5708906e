/* ck_map.h — Concurrency Kit's ck_ht for cpu-compare (bench/peers/ck_map.c;
 * built only when CMake finds ck_ht.h and libck, which then defines
 * BENCH_HAVE_CK). */
#ifndef HIVE_BENCH_CK_MAP_H
#define HIVE_BENCH_CK_MAP_H

#include <stdint.h>

/* Inserts the n pairs (no key 0) with one writer into a new table, then finds
 * the n keys with `readers` threads; times in *ti and *tf.  Returns wrong
 * results, plus one if the count is not n (0 when right), or -1 if the
 * table could not be made. */
int64_t bench_ck_run(uint64_t n, const uint64_t *keys, const uint64_t *values, uint32_t readers,
                     double *ti, double *tf);

#endif
