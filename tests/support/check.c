/* check.c — counted checks, failure reports with context, exit codes. */
#include "check.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "target.h"

static const char *test_name = "hive test";
static _Atomic uint64_t checks;
static _Atomic uint64_t failures;
static _Thread_local char context[256];

void ht_begin(const char *name)
{
    test_name = name;
    atomic_store(&checks, 0);
    atomic_store(&failures, 0);
    setvbuf(stdout, NULL, _IOLBF, 0);
}

void ht_context(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(context, sizeof context, fmt, ap);
    va_end(ap);
}

const char *ht_context_text(void) { return context; }

uint64_t ht_check_count(void) { return atomic_load(&checks); }
uint64_t ht_failure_count(void) { return atomic_load(&failures); }

void ht_pass_(uint64_t ok) { atomic_fetch_add(&checks, ok); }

/* Counts a failure; returns 1 if it should still be printed. */
static int count_failure(void)
{
    uint64_t f = atomic_fetch_add(&failures, 1);
    if (f == HT_MAX_REPORTS)
        fprintf(stderr, "(further failures are counted, not printed)\n");
    return f < HT_MAX_REPORTS;
}

static void report(const char *file, int line, const char *what, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fprintf(stderr, "FAIL %s:%d: %s%s%s [%s]\n", file, line, what, msg[0] ? ": " : "", msg,
            context[0] ? context : "no context");
}

int ht_check_(int ok, const char *file, int line, const char *expr, const char *fmt, ...)
{
    atomic_fetch_add(&checks, 1);
    if (ok)
        return 1;
    if (count_failure()) {
        char what[320];
        snprintf(what, sizeof what, "check (%s) is false", expr);
        va_list ap;
        va_start(ap, fmt);
        report(file, line, what, fmt, ap);
        va_end(ap);
    }
    return 0;
}

int ht_check_eq_(uint64_t got, uint64_t want, const char *file, int line, const char *got_expr,
                 const char *want_expr, const char *fmt, ...)
{
    atomic_fetch_add(&checks, 1);
    if (got == want)
        return 1;
    if (count_failure()) {
        char what[400];
        snprintf(what, sizeof what, "%s == %s: expected %llu (0x%llx), got %llu (0x%llx)",
                 got_expr, want_expr, (unsigned long long)want, (unsigned long long)want,
                 (unsigned long long)got, (unsigned long long)got);
        va_list ap;
        va_start(ap, fmt);
        report(file, line, what, fmt, ap);
        va_end(ap);
    }
    return 0;
}

int ht_check_status_(hive_status got, hive_status want, const char *file, int line,
                     const char *expr, const char *fmt, ...)
{
    atomic_fetch_add(&checks, 1);
    if (got == want)
        return 1;
    if (count_failure()) {
        char what[600];
        snprintf(what, sizeof what, "%s: expected %s, got %s (last error: \"%s\")", expr,
                 hive_status_string(want), hive_status_string(got), hive_last_error());
        va_list ap;
        va_start(ap, fmt);
        report(file, line, what, fmt, ap);
        va_end(ap);
    }
    return 0;
}

int ht_finish(void)
{
    long long live = ht_live_buffers();
    HT_CHECK(live == 0, "%lld test buffers still allocated at the end", live);
    uint64_t c = atomic_load(&checks), f = atomic_load(&failures);
    if (f == 0) {
        printf("%s: %llu checks passed\n", test_name, (unsigned long long)c);
        return HT_EXIT_PASS;
    }
    printf("%s: %llu of %llu checks FAILED\n", test_name, (unsigned long long)f,
           (unsigned long long)c);
    return HT_EXIT_FAIL;
}

void ht_skip(const char *fmt, ...)
{
    if (atomic_load(&failures) > 0)
        ht_fatal("asked to skip after %llu failed checks", (unsigned long long)atomic_load(&failures));
    va_list ap;
    va_start(ap, fmt);
    printf("%s: SKIPPED: ", test_name);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    exit(HT_EXIT_SKIP);
}

void ht_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FATAL: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    printf("%s: FAILED (fatal error after %llu checks, %llu failed)\n", test_name,
           (unsigned long long)atomic_load(&checks), (unsigned long long)atomic_load(&failures));
    fflush(stdout);
    exit(HT_EXIT_FAIL);
}

const char *ht_result_name(unsigned r)
{
    switch (r) {
    case HIVE_RESULT_NONE: return "NONE";
    case HIVE_RESULT_INSERTED: return "INSERTED";
    case HIVE_RESULT_UPDATED: return "UPDATED";
    case HIVE_RESULT_EXISTED: return "EXISTED";
    case HIVE_RESULT_FOUND: return "FOUND";
    case HIVE_RESULT_NOT_FOUND: return "NOT_FOUND";
    case HIVE_RESULT_ERASED: return "ERASED";
    case HIVE_RESULT_REJECTED_RESERVED: return "REJECTED_RESERVED";
    case HIVE_RESULT_REJECTED_FULL: return "REJECTED_FULL";
    }
    return "(not a hive_result)";
}
