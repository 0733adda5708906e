/* tbb_map.h — oneTBB's tbb::concurrent_hash_map behind a C interface, for
 * cpu-compare (bench/peers/tbb_map.cpp; built only when CMake finds TBB,
 * which then defines BENCH_HAVE_TBB).
 *
 * Keys and values are passed as 64-bit words whatever the width; a KV32 map
 * stores 32-bit keys and values.  A batch is cut into `threads` contiguous
 * slices, one per std::thread, each running its elements in order. */
#ifndef HIVE_BENCH_TBB_MAP_H
#define HIVE_BENCH_TBB_MAP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_tbb_map bench_tbb_map;

/* A map of `bits` (32 or 64) keys with buckets reserved for n keys; NULL
 * when out of memory. */
bench_tbb_map *bench_tbb_create(uint32_t bits, uint64_t n);
void bench_tbb_destroy(bench_tbb_map *m);
uint64_t bench_tbb_size(const bench_tbb_map *m);

/* Element i performs ops[i] (HIVE_OP_FIND, HIVE_OP_INSERT or HIVE_OP_ERASE;
 * ops NULL: every element performs `op`) on keys[i]: INSERT stores values[i]
 * if the key is absent; FIND writes the key's value to values[i]; results[i]
 * is 1 where the key was inserted, found or erased, else 0.  Returns 0, or
 * -1 if a thread could not start or the map ran out of memory. */
int bench_tbb_apply(bench_tbb_map *m, uint64_t n, const uint8_t *ops, uint8_t op,
                    const uint64_t *keys, uint64_t *values, uint8_t *results, uint32_t threads);

#ifdef __cplusplus
}
#endif

#endif
