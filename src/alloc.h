/* alloc.h — every allocation hive makes (host or device) first asks
 * hive_alloc_should_fail(), so tests can inject an out-of-memory failure:
 * HIVE_TEST_FAIL_ALLOC=N in the environment lets N allocations succeed and
 * fails every later one.  Unset, it costs one relaxed atomic load. */
#ifndef HIVE_ALLOC_H
#define HIVE_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int hive_alloc_should_fail(void);
/* calloc/aligned allocation that honours the injected failure. */
void *hive_host_calloc(size_t count, size_t size);
void *hive_host_aligned(size_t alignment, size_t size);
void hive_host_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
