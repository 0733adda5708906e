/* cuda_alloc.h — where a dictionary table's device memory comes from: the
 * caller's allocator (hive_config.allocator) where the table has one, else
 * the library's own: cudaMalloc for what lives as long as the table or a
 * stash, the table's memory pool for a call's scratch (a batch's marks and
 * full bits).  The bucket and lock arrays go through cuda_vm.h, which takes
 * the same allocator.  An allocator's memory is stream-ordered: each
 * allocation and free names the stream it is ordered on. */
#ifndef HIVE_CUDA_ALLOC_H
#define HIVE_CUDA_ALLOC_H

#include <stdint.h>

#include "cuda_device.h"

/* What an allocator's pointers must be aligned to, as cudaMalloc's are:
 * KV64 slots take a 16-byte CAS, and a bucket that starts on a cache line
 * is read in the fewest transactions. */
#define HIVE_ALLOCATOR_ALIGNMENT 256u

static inline int has_allocator(const hive_allocator *a) { return a->alloc != NULL; }

/* `bytes` from the caller's allocator, ordered on `s`, into *p (0 bytes:
 * NULL, without a call).  OUT_OF_MEMORY where it returns NULL (or where
 * base/alloc.h injects a failure); INVALID_ARGUMENT where its pointer is
 * misaligned (then given back). */
static inline hive_status user_alloc(const hive_allocator *a, void **p, size_t bytes, cudaStream_t s,
                                     const char *call, const char *what)
{
    *p = NULL;
    if (bytes == 0)
        return HIVE_SUCCESS;
    if (hive_alloc_should_fail())
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "%s: injected allocation failure", what);
    void *q = a->alloc(a->user, bytes, (hive_stream)s);
    if (q == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "%s: config.allocator returned NULL for %zu bytes", what,
                         bytes);
    if ((uintptr_t)q % HIVE_ALLOCATOR_ALIGNMENT != 0) {
        a->free(a->user, q, bytes, (hive_stream)s);
        return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                         "%s: config.allocator returned %p, not aligned to %u bytes (as cudaMalloc's are)", what, q,
                         HIVE_ALLOCATOR_ALIGNMENT);
    }
    *p = q;
    return HIVE_SUCCESS;
}

/* Memory the table keeps (its counters, a stash): the allocator's, ordered
 * on `s`, else cudaMalloc's (device_alloc). */
static inline hive_status table_alloc(const hive_allocator *a, void **p, size_t bytes, cudaStream_t s,
                                      const char *call, const char *what)
{
    return has_allocator(a) ? user_alloc(a, p, bytes, s, call, what) : device_alloc(p, bytes, call, what);
}

/* Gives back what table_alloc returned for `bytes` (NULL: nothing). */
static inline void table_free(const hive_allocator *a, void *p, size_t bytes, cudaStream_t s)
{
    if (p == NULL)
        return;
    if (has_allocator(a))
        a->free(a->user, p, bytes, (hive_stream)s);
    else
        cudaFree(p);
}

/* A call's scratch of `bytes` (> 0) on `s`: the allocator's, else from
 * `pool`.  NULL where none can be had, with no last-error text: the caller
 * says what that means (a batch's marks: OUT_OF_MEMORY; its full bits: none,
 * and the kernels read every bucket). */
static inline void *scratch_alloc(const hive_allocator *a, cudaMemPool_t pool, size_t bytes, cudaStream_t s)
{
    void *p = NULL;
    if (has_allocator(a)) {
        p = a->alloc(a->user, bytes, (hive_stream)s);
        if (p != NULL && (uintptr_t)p % HIVE_ALLOCATOR_ALIGNMENT != 0) {
            a->free(a->user, p, bytes, (hive_stream)s);
            p = NULL;
        }
    } else if (cudaMallocFromPoolAsync(&p, bytes, pool, s) != cudaSuccess) {
        cudaGetLastError(); /* not sticky */
        p = NULL;
    }
    return p;
}

/* Gives back scratch_alloc's `bytes` at p, ordered on `s`. */
static inline void scratch_free(const hive_allocator *a, void *p, size_t bytes, cudaStream_t s)
{
    if (has_allocator(a))
        a->free(a->user, p, bytes, (hive_stream)s);
    else
        cudaFreeAsync(p, s);
}

#endif
