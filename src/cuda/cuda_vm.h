/* cuda_vm.h — a device array that grows and shrinks, for the bucket and
 * lock arrays of a dictionary table, by one of two paths:
 *
 *  - the library's own (no allocator): a range of virtual addresses is
 *    reserved once (as large as the GPU's memory), and physical memory is
 *    mapped at its end as the table grows and unmapped as it shrinks (CUDA's
 *    virtual memory management).  Growing never copies the buckets and never
 *    moves them.  The driver functions come through the runtime
 *    (cudaGetDriverEntryPointByVersion): hive does not link libcuda, and runs
 *    on machines without a GPU.
 *  - the caller's allocator (hive_config.allocator), which cannot back a
 *    reserved range: the array is one allocation with headroom; growing past
 *    it allocates a larger one (base/regrow.h), copies the bytes in use
 *    (waited for) and frees the old one, and shrinking to a quarter of it
 *    moves to a smaller one.  `base` changes then: the table's view is
 *    rebuilt from it after every map and trim.
 *
 * Both paths keep the same fields: `base`, `mapped` (bytes usable from
 * base), `reserved` (the most the array may ever hold). */
#ifndef HIVE_DICT_VM_H
#define HIVE_DICT_VM_H

#include <cuda_runtime.h>
#include <stddef.h>

#include "hive.h"

typedef struct hive_vm_chunk {
    unsigned long long handle; /* CUmemGenericAllocationHandle */
    size_t bytes;
} hive_vm_chunk;

typedef struct hive_vm {
    int device;
    hive_allocator allocator; /* alloc NULL: the library's own path */
    char *base;         /* device address of the array; NULL if none */
    size_t reserved;    /* the most bytes it may hold (own path: of address space) */
    size_t mapped;      /* bytes backed by memory, from base (allocator: the allocation's size) */
    size_t granularity; /* of mappings on this device (allocator: HIVE_REGROW_UNIT) */
    hive_vm_chunk *chunks; /* own path only */
    size_t nchunks, chunk_cap;
} hive_vm;

#ifdef __cplusplus
extern "C" {
#endif

/* An array of at most `max_bytes` (rounded up to the granularity) on
 * `device`, none of it backed yet, taking its memory from `allocator` (NULL,
 * or one whose alloc is NULL: the library's own path, which reserves the
 * address range now). */
hive_status hive_vm_reserve(hive_vm *vm, int device, size_t max_bytes, const hive_allocator *allocator,
                            const char *call);

/* Backs at least `bytes` from base, keeping the first `keep` bytes' contents.
 * Own path: each mapping adds at least an eighth of what is mapped, so a
 * table grown by many small steps holds few chunks; `keep` and `stream` are
 * not needed.  Allocator: a larger allocation on `stream`, the kept bytes
 * copied on `stream` and waited for, the old allocation freed on it (base
 * moves).  OUT_OF_MEMORY (the allocator returned NULL) or a failed copy
 * leaves the array as it was, at the same base. */
hive_status hive_vm_map(hive_vm *vm, size_t bytes, size_t keep, cudaStream_t stream, const char *call);

/* Gives memory back while at least `bytes` from base stay backed, with
 * their contents.  Own path: unmaps and frees whole chunks from the end.
 * Allocator: moves to an allocation of `bytes` once they are at most a
 * quarter of the allocation (copied on `stream` and waited for); where that
 * cannot be had, the array stays as it is. */
void hive_vm_trim(hive_vm *vm, size_t bytes, cudaStream_t stream);

/* Gives everything back (allocator: freed on `stream`). */
void hive_vm_release(hive_vm *vm, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
