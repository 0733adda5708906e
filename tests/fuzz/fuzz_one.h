/* fuzz_one.h — the fuzz target: one input (any byte string) chooses a table
 * configuration, a universe of keys and a sequence of hive calls, and every
 * call is checked against the reference map (tests/support).  The input
 * format is described in fuzz_one.c.
 *
 * Two programs run it: hive-fuzz (libFuzzer, built with clang and
 * -DHIVE_FUZZ=ON), which aborts on a mismatch so that libFuzzer keeps the
 * input, and hive-fuzz-replay, which runs every file of a corpus directory
 * (the inputs kept as regression tests). */
#ifndef FZ_FUZZ_ONE_H
#define FZ_FUZZ_ONE_H

#include <stddef.h>
#include <stdint.h>

/* Reads HIVE_FUZZ_TRACE (1: print every call to stderr, as it is run).  Call
 * once, after ht_begin. */
void fz_init(void);

/* Runs one input; returns the number of failed checks (0: hive behaved as the
 * reference says).  The failures are printed as they happen (check.h). */
uint64_t fz_run(const uint8_t *data, size_t size);

#endif
