/* child.h — runs a test program again as a child process with one more
 * environment variable, under a time limit.  The library reads its
 * failure-injection variables once per process (src/base/alloc.h), so a test that
 * sweeps an injection point runs one child per value; the time limit turns a
 * hang into a failure that names the value. */
#ifndef HT_CHILD_H
#define HT_CHILD_H

/* What ht_run_child returns for a child that ran over its time (and was
 * killed), as timeout(1) reports it. */
#define HT_CHILD_TIMED_OUT 124

/* Runs argv (argv[0]: the program's path, argv NULL-terminated) with
 * name=value in its environment (replacing any value it had) and waits for it
 * at most timeout_s seconds, then kills it.  Returns its exit code, 128 + the
 * signal that ended it, or HT_CHILD_TIMED_OUT.  A failure to start it is
 * fatal (ht_fatal). */
int ht_run_child(char *const argv[], const char *name, const char *value, unsigned timeout_s);

/* Where a child of an out-of-memory sweep may report running out: exit code
 * HT_OOM_EXIT + i for place i. */
#define HT_OOM_EXIT 10

/* The injected-out-of-memory sweep: runs argv with HIVE_TEST_FAIL_ALLOC = 0,
 * 1, 2, ... (fewer than `limit` values, 60 s each) until a child exits 0,
 * having had memory for everything.  A child that ran out where it can
 * report exits HT_OOM_EXIT + i, counted in seen[i] (i < places); any other
 * code is a failed check naming the value.  Returns 1 once a child got
 * through, 0 if none did (a failed check), -1 if one skipped (no GPU). */
int ht_oom_sweep(char *const argv[], int limit, int *seen, int places);

#endif
