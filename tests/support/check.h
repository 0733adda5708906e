/* check.h — how every hive test reports: counted checks, a per-thread context
 * line (seed, configuration, batch) printed with each failure, and the exit
 * codes CTest reads (0 pass, 1 fail, 77 skip).
 *
 *   ht_begin("conformance cpu kv32 insert");
 *   ht_context("seed %llu lf %.2f", seed, lf);
 *   HT_CHECK_EQ(got, want, "key %llu", key);
 *   HT_CHECK_STATUS(hive_insert(...), HIVE_SUCCESS, "batch %d", i);
 *   return ht_finish();
 *
 * A failing check prints "FAIL file:line: what (context)"; only the first
 * HT_MAX_REPORTS failures are printed, all are counted.  Checks may be made
 * from several threads at once. */
#ifndef HT_CHECK_H
#define HT_CHECK_H

#include <stdint.h>

#include "hive.h"

#if defined(__GNUC__)
#define HT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define HT_NORETURN __attribute__((noreturn))
#else
#define HT_PRINTF(a, b)
#define HT_NORETURN
#endif

#define HT_EXIT_PASS 0
#define HT_EXIT_FAIL 1
#define HT_EXIT_SKIP 77
#define HT_MAX_REPORTS 25

/* Names the test for the summary line and resets the counters. */
void ht_begin(const char *name);
/* Sets this thread's context line, printed with every failure (printf format). */
void ht_context(const char *fmt, ...) HT_PRINTF(1, 2);
const char *ht_context_text(void);

/* Prints the summary line ("<name>: N checks passed" or the failure count)
 * and returns the exit code.  Also fails if test buffers are still live. */
int ht_finish(void);
/* Prints why and exits 77. */
HT_NORETURN void ht_skip(const char *fmt, ...) HT_PRINTF(1, 2);
/* A broken precondition (setup failed): prints why, exits 1. */
HT_NORETURN void ht_fatal(const char *fmt, ...) HT_PRINTF(1, 2);

uint64_t ht_check_count(void);
uint64_t ht_failure_count(void);

/* The functions behind the macros; each returns ok (1) or 0. */
int ht_check_(int ok, const char *file, int line, const char *expr, const char *fmt, ...)
    HT_PRINTF(5, 6);
int ht_check_eq_(uint64_t got, uint64_t want, const char *file, int line, const char *got_expr,
                 const char *want_expr, const char *fmt, ...) HT_PRINTF(7, 8);
int ht_check_status_(hive_status got, hive_status want, const char *file, int line,
                     const char *expr, const char *fmt, ...) HT_PRINTF(6, 7);
/* Counts `ok` passed checks at once (for tight loops that report failures
 * individually). */
void ht_pass_(uint64_t ok);

/* Every macro takes a printf-style message after its operands; the message
 * says which key, seed or step (pass "%s", "" when there is nothing to add). */
#define HT_CHECK(cond, ...) ht_check_((cond) ? 1 : 0, __FILE__, __LINE__, #cond, __VA_ARGS__)
#define HT_CHECK_EQ(got, want, ...)                                                      \
    ht_check_eq_((uint64_t)(got), (uint64_t)(want), __FILE__, __LINE__, #got, #want, \
                 __VA_ARGS__)
#define HT_CHECK_STATUS(expr, want, ...) \
    ht_check_status_((expr), (want), __FILE__, __LINE__, #expr, __VA_ARGS__)

/* A hive call that must succeed for the test to go on (setup, not the
 * behaviour under test): exits 1 with the status and last error otherwise. */
#define HT_MUST(expr)                                                                      \
    do {                                                                                   \
        hive_status ht_must_ = (expr);                                                     \
        if (ht_must_ != HIVE_SUCCESS)                                                      \
            ht_fatal("%s:%d: %s returned %s (%s) [%s]", __FILE__, __LINE__, #expr,         \
                     hive_status_string(ht_must_), hive_last_error(), ht_context_text()); \
    } while (0)

/* Name of a hive_result code, for messages. */
const char *ht_result_name(unsigned result);

#endif
