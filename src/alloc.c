/* alloc.c — host allocations, with the test hook of alloc.h. */
#include "alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static _Atomic long long allowed = -2; /* -2: not read yet, -1: no limit */

int hive_alloc_should_fail(void)
{
    long long left = atomic_load_explicit(&allowed, memory_order_relaxed);
    if (left == -2) {
        const char *v = getenv("HIVE_TEST_FAIL_ALLOC");
        long long init = (v != NULL && v[0] != '\0') ? atoll(v) : -1;
        long long expected = -2;
        atomic_compare_exchange_strong(&allowed, &expected, init);
        left = atomic_load(&allowed);
    }
    if (left < 0)
        return 0;
    while (left > 0) {
        if (atomic_compare_exchange_weak(&allowed, &left, left - 1))
            return 0;
    }
    return 1;
}

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
