/* alloc.c — host allocations that honour the failure-injection hook of
 * alloc.h (the hooks themselves: test_hooks.c). */
#include "alloc.h"

#include <stdlib.h>

void *hive_host_calloc(size_t count, size_t size)
{
    if (hive_alloc_should_fail())
        return NULL;
    return calloc(count, size);
}

void *hive_host_aligned(size_t alignment, size_t size)
{
    if (hive_alloc_should_fail())
        return NULL;
    size_t rounded = (size + alignment - 1) / alignment * alignment;
    if (rounded < size)
        return NULL;
    return aligned_alloc(alignment, rounded);
}

void hive_host_free(void *p) { free(p); }
