/* test_hooks.c — the failure-injection hooks of alloc.h, in two variants
 * built from this one file.
 *
 * Without HIVE_TEST_HOOKS (libhive.so and libhive.a as installed) both hooks
 * answer "no failure" and the environment is never read: a program that
 * happens to run with HIVE_TEST_FAIL_* set gets the same library as any other.
 * With HIVE_TEST_HOOKS=1 (the tests' hive_testing library: the same objects
 * with this variant beside them, src/CMakeLists.txt) they follow
 * HIVE_TEST_FAIL_ALLOC, HIVE_TEST_FAIL_RESIZE_STEP,
 * HIVE_TEST_COMPUTE_CAPABILITY, HIVE_TEST_CACHE_DEFER_BYTES,
 * HIVE_TEST_TIERED_STAGED, HIVE_TEST_FAIL_WRITE_BACK and
 * HIVE_TEST_MOVE_PAUSE_NS as alloc.h describes. */
#include "alloc.h"

#ifndef HIVE_TEST_HOOKS

int hive_alloc_should_fail(void) { return 0; }

int hive_resize_step_should_fail(void) { return 0; }

int hive_test_capability(int real) { return real; }

long long hive_test_cache_defer(long long real) { return real; }

int hive_test_tiered_staged(void) { return 0; }

int hive_test_write_back_should_fail(void) { return 0; }

void hive_test_move_pause(void) {}

#else

#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

/* Reads an injection variable, as `parse` turns it into a number, into
 * *setting on first use (-2: not read yet). */
static long long injection_load(_Atomic long long *setting, long long (*parse)(void))
{
    long long value = atomic_load_explicit(setting, memory_order_relaxed);
    if (value == -2) {
        long long expected = -2;
        atomic_compare_exchange_strong(setting, &expected, parse());
        value = atomic_load(setting);
    }
    return value;
}

/* HIVE_TEST_FAIL_ALLOC: allocations to let succeed; -1 when unset or empty. */
static long long alloc_setting(void)
{
    const char *v = getenv("HIVE_TEST_FAIL_ALLOC");
    return (v != NULL && v[0] != '\0') ? atoll(v) : -1;
}

static _Atomic long long allowed = -2; /* allocations left to succeed; -1: no limit */

int hive_alloc_should_fail(void)
{
    long long left = injection_load(&allowed, alloc_setting);
    if (left < 0)
        return 0;
    while (left > 0) {
        if (atomic_compare_exchange_weak(&allowed, &left, left - 1))
            return 0;
    }
    return 1;
}

/* A step variable as one number: 2N for "N" (step N fails), 2N + 1 for
 * "N+" (step N and every later one fail); -1 when unset. */
static long long step_setting(const char *name)
{
    const char *v = getenv(name);
    if (v == NULL || v[0] < '0' || v[0] > '9')
        return -1;
    char *end;
    long long n = strtoll(v, &end, 10);
    return 2 * n + (*end == '+');
}

/* Whether the step counted now fails, by a step variable's setting. */
static int step_fails(_Atomic long long *setting, long long (*parse)(void), _Atomic long long *taken)
{
    long long set = injection_load(setting, parse);
    if (set < 0)
        return 0;
    long long step = atomic_fetch_add(taken, 1), first = set / 2;
    return set % 2 ? step >= first : step == first;
}

static long long resize_step_setting(void) { return step_setting("HIVE_TEST_FAIL_RESIZE_STEP"); }

static _Atomic long long failing_steps = -2; /* resize_step_setting() */
static _Atomic long long steps_taken = 0;

int hive_resize_step_should_fail(void) { return step_fails(&failing_steps, resize_step_setting, &steps_taken); }

static long long write_back_setting(void) { return step_setting("HIVE_TEST_FAIL_WRITE_BACK"); }

static _Atomic long long failing_write_backs = -2; /* write_back_setting() */
static _Atomic long long write_backs_taken = 0;

int hive_test_write_back_should_fail(void)
{
    return step_fails(&failing_write_backs, write_back_setting, &write_backs_taken);
}

/* HIVE_TEST_COMPUTE_CAPABILITY: the capability every device is taken for;
 * -1 when unset or empty. */
static long long capability_setting(void)
{
    const char *v = getenv("HIVE_TEST_COMPUTE_CAPABILITY");
    return (v != NULL && v[0] != '\0') ? atoll(v) : -1;
}

static _Atomic long long pretended_capability = -2;

int hive_test_capability(int real)
{
    long long pretend = injection_load(&pretended_capability, capability_setting);
    return pretend < 0 ? real : (int)pretend;
}

/* HIVE_TEST_CACHE_DEFER_BYTES: the least host bytes of values over which a
 * find sorts; -1 when unset or empty. */
static long long defer_setting(void)
{
    const char *v = getenv("HIVE_TEST_CACHE_DEFER_BYTES");
    return (v != NULL && v[0] != '\0') ? atoll(v) : -1;
}

static _Atomic long long defer_bytes = -2;

long long hive_test_cache_defer(long long real)
{
    long long set = injection_load(&defer_bytes, defer_setting);
    return set < 0 ? real : set;
}

/* HIVE_TEST_TIERED_STAGED: 1 when set to 1. */
static long long staged_setting(void)
{
    const char *v = getenv("HIVE_TEST_TIERED_STAGED");
    return v != NULL && v[0] == '1';
}

static _Atomic long long staged = -2;

int hive_test_tiered_staged(void) { return injection_load(&staged, staged_setting) == 1; }

/* HIVE_TEST_MOVE_PAUSE_NS: nanoseconds a frozen chain waits; 0 when unset
 * or empty. */
static long long pause_setting(void)
{
    const char *v = getenv("HIVE_TEST_MOVE_PAUSE_NS");
    return (v != NULL && v[0] != '\0') ? atoll(v) : 0;
}

static _Atomic long long move_pause_ns = -2;

void hive_test_move_pause(void)
{
    long long ns = injection_load(&move_pause_ns, pause_setting);
    if (ns <= 0)
        return;
    /* A sleep rather than a spin: the finders that should meet the chain
     * get the core. */
    struct timespec ts = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
    nanosleep(&ts, NULL);
}

#endif
