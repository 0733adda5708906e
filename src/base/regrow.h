/* regrow.h — the sizes of a device array that grows by moving: the bucket
 * and lock arrays of a CUDA table whose device memory comes from the
 * caller's allocator (hive_config.allocator; src/cuda/cuda_vm.h), which
 * cannot map memory at the end of a reserved range as the library's own
 * path does.  How large the next allocation is when the array must hold
 * more, and when a shrunken array moves to a smaller one.  Plain C, so that
 * a CPU test checks the arithmetic (tests/unit/regrow.c). */
#ifndef HIVE_REGROW_H
#define HIVE_REGROW_H

#include <stddef.h>

/* Allocation sizes are whole multiples of this (cudaMalloc's alignment). */
#define HIVE_REGROW_UNIT ((size_t)256)

static inline size_t hive_regrow_round(size_t bytes, size_t unit) { return (bytes + unit - 1) / unit * unit; }

/* The size of the allocation that holds `need` bytes, for an array whose
 * allocation holds `have` (< need) now and may never pass `limit` (>= need):
 * at least half as large again as `have`, so that an array grown by many
 * small steps moves O(log) times and copies fewer than three times its
 * final size in all (each copy is at most 2/3 of the next), rounded up to
 * `unit`, and capped at `limit`. */
static inline size_t hive_regrow_size(size_t have, size_t need, size_t unit, size_t limit)
{
    size_t grown = have + have / 2;
    size_t bytes = hive_regrow_round(need > grown ? need : grown, unit);
    return bytes > limit ? (limit > need ? limit : need) : bytes;
}

/* The size to move to when `keep` bytes of an allocation of `have` stay in
 * use: `keep` rounded up, once that is at most a quarter of `have`; else
 * `have` (the array stays where it is): a table that halves and doubles
 * again around one size never moves for it. */
static inline size_t hive_reshrink_size(size_t have, size_t keep, size_t unit)
{
    size_t bytes = hive_regrow_round(keep, unit);
    return bytes <= have / 4 ? bytes : have;
}

#endif
