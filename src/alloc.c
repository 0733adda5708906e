/* alloc.c — host allocations, with the failure-injection hooks of alloc.h. */
#include "alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The number an injection variable holds, or -1 when it is unset or empty. */
static long long injection_setting(const char *name)
{
    const char *v = getenv(name);
    return (v != NULL && v[0] != '\0') ? atoll(v) : -1;
}

/* Reads the variable into *setting on first use (-2: not read yet). */
static long long injection_load(_Atomic long long *setting, const char *name)
{
    long long value = atomic_load_explicit(setting, memory_order_relaxed);
    if (value == -2) {
        long long expected = -2;
        atomic_compare_exchange_strong(setting, &expected, injection_setting(name));
        value = atomic_load(setting);
    }
    return value;
}

static _Atomic long long allowed = -2; /* allocations left to succeed; -1: no limit */

int hive_alloc_should_fail(void)
{
    long long left = injection_load(&allowed, "HIVE_TEST_FAIL_ALLOC");
    if (left < 0)
        return 0;
    while (left > 0) {
        if (atomic_compare_exchange_weak(&allowed, &left, left - 1))
            return 0;
    }
    return 1;
}

static _Atomic long long failing_step = -2; /* the resize step to fail; -1: none */
static _Atomic long long steps_taken = 0;

int hive_resize_step_should_fail(void)
{
    long long target = injection_load(&failing_step, "HIVE_TEST_FAIL_RESIZE_STEP");
    return target >= 0 && atomic_fetch_add(&steps_taken, 1) == target;
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
