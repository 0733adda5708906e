/* check.h — check-and-return helpers.  A failure records which call and which
 * argument in this thread's last-error text (hive_last_error), logs it when
 * HIVE_DEBUG is set, and returns its status; the first error is the one kept. */
#ifndef HIVE_CHECK_H
#define HIVE_CHECK_H

#include "hive.h"

#if defined(__GNUC__)
#define HIVE_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define HIVE_PRINTF(a, b)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Records "call: message" as the last error and returns status. */
hive_status hive_fail(hive_status status, const char *call, const char *fmt, ...) HIVE_PRINTF(3, 4);
/* Clears the last-error text at the start of a public call. */
void hive_clear_error(void);
/* Logs a message when HIVE_DEBUG is set. */
void hive_debug(const char *fmt, ...) HIVE_PRINTF(1, 2);

#ifdef __cplusplus
}
#endif

/* Return INVALID_ARGUMENT from `call` unless cond holds. */
#define HIVE_CHECK_ARG(cond, call, ...)                                    \
    do {                                                                   \
        if (!(cond))                                                       \
            return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call, __VA_ARGS__); \
    } while (0)

/* Return the status of expr unless it succeeded. */
#define HIVE_TRY(expr)                     \
    do {                                   \
        hive_status hive_try_ = (expr);    \
        if (hive_try_ != HIVE_SUCCESS)     \
            return hive_try_;              \
    } while (0)

/* Keep the first failure in `status` and jump to `label` for clean-up. */
#define HIVE_TRY_GOTO(expr, status, label)  \
    do {                                    \
        hive_status hive_try_ = (expr);     \
        if (hive_try_ != HIVE_SUCCESS) {    \
            status = hive_try_;             \
            goto label;                     \
        }                                   \
    } while (0)

#endif
