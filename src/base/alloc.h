/* alloc.h — every allocation hive makes (host or device) first asks
 * hive_alloc_should_fail(), so tests can inject an out-of-memory failure:
 * HIVE_TEST_FAIL_ALLOC=N in the environment lets N allocations succeed and
 * fails every later one.
 *
 * Likewise every step of a CUDA resize that can fail with memory to spare
 * (a kernel launch, the read-back of the counters its kernels summed) first
 * asks hive_resize_step_should_fail(): HIVE_TEST_FAIL_RESIZE_STEP=N fails
 * the step numbered N (from 0, counted over the process) and no other, so
 * that a test can see the table recover from it; =N+ fails step N and every
 * later one, so that the recovery fails too.
 *
 * And the compute capability the CUDA backend sees for a device passes
 * through hive_test_capability(): HIVE_TEST_COMPUTE_CAPABILITY=80 makes every
 * device look like a 8.0 (A100) one, so a test on a Hopper GPU can see what
 * an older GPU gets (a fallback to the CPU, or UNSUPPORTED).
 *
 * And HIVE_TEST_CACHE_DEFER_BYTES=0 makes every CUDA cache call that copies
 * values in host memory take its keys in bucket order, as calls over large
 * host ranges do, so that the tests' small caches run that path too.
 *
 * And HIVE_TEST_TIERED_STAGED=1 makes the two-level table stage every find
 * through its own buffers, as for arrays its hot tier cannot take as they
 * are, so that the CPU runs of the tests cover that path too.
 *
 * And HIVE_TEST_FAIL_WRITE_BACK=N fails the two-level table's write-back of
 * evicted dirty copies numbered N (from 0, counted over the process; only
 * writes with copies to write count), as a failed cold write would; =N+
 * fails it and every later one (src/tiered/tiered_move.c).
 *
 * Only the tests' build of the library (hive_testing) reads these variables;
 * the installed libhive.so and libhive.a answer "no failure" without looking
 * (test_hooks.c).  In the tests' build each variable is read once per
 * process; unset, a check costs one relaxed atomic load. */
#ifndef HIVE_ALLOC_H
#define HIVE_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int hive_alloc_should_fail(void);
int hive_resize_step_should_fail(void);
/* The compute capability (major * 10 + minor) to take a device of `real`
 * for: `real` itself, except in the tests' build with the variable set. */
int hive_test_capability(int real);
/* The least host memory of a cache's values over which a call that copies
 * them takes its keys in bucket order (src/cuda/cuda_cache.cu): `real`,
 * except in the tests' build with HIVE_TEST_CACHE_DEFER_BYTES=N set (then
 * also for any batch size). */
long long hive_test_cache_defer(long long real);
/* Whether the two-level table must stage its finds and upserts (src/tiered/tiered_api.c):
 * 0, except in the tests' build with HIVE_TEST_TIERED_STAGED=1. */
int hive_test_tiered_staged(void);
/* Whether this write-back of the two-level table must fail: 0, except in
 * the tests' build with HIVE_TEST_FAIL_WRITE_BACK set. */
int hive_test_write_back_should_fail(void);
/* Called with a displacement chain frozen and its first copy made
 * (core/move_body.h), in CPU code alone: returns at once, except in the
 * tests' build with HIVE_TEST_MOVE_PAUSE_NS=N, where it sleeps N ns, so
 * that finders meet the frozen slots far more often than they would. */
void hive_test_move_pause(void);
/* calloc/aligned allocation that honours the injected failure. */
void *hive_host_calloc(size_t count, size_t size);
void *hive_host_aligned(size_t alignment, size_t size);
void hive_host_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
