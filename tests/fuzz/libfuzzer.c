/* libfuzzer.c — hive-fuzz: the fuzz target (fuzz_one.h) under libFuzzer.  A
 * mismatch with the reference aborts, so that libFuzzer saves the input as
 * crash-<sha1>; `make fuzz` prints it in hex for tests/fuzz/corpus/. */
#include <stdlib.h>

#include "hivetest.h"
#include "fuzz_one.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    ht_begin("hive-fuzz");
    fz_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fz_run(data, size) != 0)
        abort();
    return 0;
}
