/* replay.c — hive-fuzz-replay: runs inputs of the fuzz target (fuzz_one.h)
 * without libFuzzer, so that the inputs kept in tests/fuzz/corpus/ (seeds and
 * every crash found) run as a regression test with any compiler:
 *
 *   hive-fuzz-replay <file or directory>...
 *
 * A directory's files run in name order (names starting with '.' skipped).
 * Prints one line per failing input; fails if any input fails, or if no input
 * was found (a corpus that went missing must not pass).  HIVE_FUZZ_TRACE=1
 * prints every call of every input. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hivetest.h"
#include "fuzz_one.h"

static size_t inputs, failed;

static void run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        ht_fatal("cannot open %s", path);
    uint8_t *data = NULL;
    size_t size = 0, cap = 0, got;
    do {
        if (size == cap) {
            cap = cap ? 2 * cap : 4096;
            data = realloc(data, cap);
            if (data == NULL)
                ht_fatal("out of host memory reading %s", path);
        }
        got = fread(data + size, 1, cap - size, f);
        size += got;
    } while (got > 0);
    fclose(f);
    inputs++;
    uint64_t bad = fz_run(data, size);
    if (bad != 0) {
        failed++;
        fprintf(stderr, "FAILED input %s (%zu bytes): %llu checks failed\n", path, size,
                (unsigned long long)bad);
    }
    free(data);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        ht_fatal("cannot open directory %s", dir);
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, (n + 1) * sizeof *names);
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if (names == NULL || (names[n] = malloc(len)) == NULL)
            ht_fatal("out of host memory listing %s", dir);
        snprintf(names[n++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        run_file(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    ht_begin("fuzz replay");
    fz_init();
    if (argc < 2) {
        fprintf(stderr, "usage: %s <file or directory>...\n", argv[0]);
        return HT_EXIT_FAIL;
    }
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0)
            ht_fatal("cannot stat %s", argv[i]);
        if (S_ISDIR(sb.st_mode))
            run_dir(argv[i]);
        else
            run_file(argv[i]);
    }
    HT_CHECK(inputs > 0, "no inputs found in the arguments");
    printf("fuzz replay: %zu inputs, %zu failed\n", inputs, failed);
    return ht_finish();
}
