/* child.c — see child.h. */
#define _POSIX_C_SOURCE 200809L
#include "child.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "check.h"

extern char **environ;

/* This process's environment without `name`, plus `setting` (name=value). */
static char **environment_with(const char *name, char *setting)
{
    size_t count = 0, len = strlen(name);
    while (environ[count] != NULL)
        count++;
    char **envp = malloc((count + 2) * sizeof *envp);
    if (envp == NULL)
        ht_fatal("out of host memory for a child's environment");
    size_t k = 0;
    for (size_t i = 0; i < count; i++)
        if (strncmp(environ[i], name, len) != 0 || environ[i][len] != '=')
            envp[k++] = environ[i];
    envp[k++] = setting;
    envp[k] = NULL;
    return envp;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int ht_run_child(char *const argv[], const char *name, const char *value, unsigned timeout_s)
{
    size_t setting_len = strlen(name) + strlen(value) + 2;
    char *setting = malloc(setting_len);
    if (setting == NULL)
        ht_fatal("out of host memory for a child's environment");
    snprintf(setting, setting_len, "%s=%s", name, value);
    char **envp = environment_with(name, setting);
    fflush(stdout);
    fflush(stderr);
    pid_t pid;
    int e = posix_spawn(&pid, argv[0], NULL, NULL, argv, envp);
    free(envp);
    free(setting);
    if (e != 0)
        ht_fatal("cannot run %s as a child: %s", argv[0], strerror(e));

    double deadline = seconds_now() + timeout_s;
    int status = 0;
    for (;;) {
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid)
            break;
        if (got < 0 && errno != EINTR)
            ht_fatal("waitpid: %s", strerror(errno));
        if (seconds_now() > deadline) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            return HT_CHILD_TIMED_OUT;
        }
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int ht_oom_sweep(char *const argv[], int limit, int *seen, int places)
{
    for (int i = 0; i < places; i++)
        seen[i] = 0;
    for (int n = 0; n < limit; n++) {
        char value[16];
        snprintf(value, sizeof value, "%d", n);
        int code = ht_run_child(argv, "HIVE_TEST_FAIL_ALLOC", value, 60);
        if (code == 0)
            return 1;
        if (code == HT_EXIT_SKIP)
            return -1;
        if (code >= HT_OOM_EXIT && code < HT_OOM_EXIT + places)
            seen[code - HT_OOM_EXIT]++;
        else
            HT_CHECK(0, "child with HIVE_TEST_FAIL_ALLOC=%d exited %d", n, code);
    }
    HT_CHECK(0, "no HIVE_TEST_FAIL_ALLOC below %d let the child through", limit);
    return 0;
}
