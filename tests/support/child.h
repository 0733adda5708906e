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

#endif
