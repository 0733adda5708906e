/* capability.c — what a GPU of another generation gets.  The tests' build of
 * the library takes every device for the compute capability in
 * HIVE_TEST_COMPUTE_CAPABILITY (base/alloc.h), so on a Hopper GPU this
 * program sees what an A100 (80) or a pre-Turing GPU (70) would: KV32
 * dictionaries and caches from the oldest generation the build has code for
 * (HIVE_CUDA_OLDEST_CC: 7.5 for an installed build, 9.0 for make gpu-check's),
 * KV64 dictionaries from 9.0, UNSUPPORTED naming the capability otherwise,
 * and HIVE_BACKEND_AUTO taking the CPU wherever a table would not run.
 * Needs a GPU (skips without one, fails under HIVE_REQUIRE_GPU=1); CTest runs
 * it once per capability. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hivetest.h"

static hive_status create_table(hive_backend backend, hive_key_width width, hive_backend *got)
{
    hive_config c = HIVE_CONFIG_INIT;
    c.backend = backend;
    c.key_width = width;
    hive_table *t = NULL;
    hive_status s = hive_create(&c, &t);
    if (s != HIVE_SUCCESS)
        return s;
    hive_config resolved = HIVE_CONFIG_INIT;
    HT_CHECK_STATUS(hive_get_config(t, &resolved), HIVE_SUCCESS, "hive_get_config");
    *got = resolved.backend;
    if (resolved.backend == HIVE_BACKEND_CUDA && width == HIVE_KV32) {
        /* Runs on the GPU at hand: this checks the table works, not the
         * other generation's code. */
        ht_target target;
        ht_target_init(&target, HIVE_BACKEND_CUDA, HIVE_KV32);
        ht_batch b;
        ht_batch_init(&b, &target, 1000);
        for (uint64_t i = 0; i < 1000; i++) { /* managed memory: written here, read there */
            ht_put(&target, b.keys, i, i * 7 + 1);
            ht_put(&target, b.values, i, i);
        }
        HT_CHECK_STATUS(hive_insert(t, 1000, b.keys, b.values, HIVE_COMBINE_ASSIGN, NULL, NULL), HIVE_SUCCESS,
                        "insert");
        uint64_t size = 0;
        HT_CHECK_STATUS(hive_size(t, &size), HIVE_SUCCESS, "hive_size");
        HT_CHECK_EQ(size, 1000u, "keys in the table");
        ht_batch_free(&b);
    }
    HT_CHECK_STATUS(hive_destroy(t), HIVE_SUCCESS, "hive_destroy");
    return s;
}

static hive_status create_cache(hive_backend backend, hive_backend *got)
{
    hive_cache_config c = HIVE_CACHE_CONFIG_INIT;
    c.backend = backend;
    c.capacity = 4096;
    hive_cache *cache = NULL;
    hive_status s = hive_cache_create(&c, &cache);
    if (s != HIVE_SUCCESS)
        return s;
    hive_cache_config resolved = HIVE_CACHE_CONFIG_INIT;
    HT_CHECK_STATUS(hive_cache_get_config(cache, &resolved), HIVE_SUCCESS, "hive_cache_get_config");
    *got = resolved.backend;
    HT_CHECK_STATUS(hive_cache_destroy(cache), HIVE_SUCCESS, "hive_cache_destroy");
    return s;
}

/* An explicit CUDA request: success where `runs`, else UNSUPPORTED whose text
 * names the capability needed. */
static void expect_cuda(hive_status s, int runs, const char *needed, const char *what)
{
    if (runs) {
        HT_CHECK_STATUS(s, HIVE_SUCCESS, "%s on the CUDA backend", what);
        return;
    }
    HT_CHECK_STATUS(s, HIVE_ERROR_UNSUPPORTED, "%s on the CUDA backend", what);
    HT_CHECK(strstr(hive_last_error(), needed) != NULL, "the error names %s: %s", needed, hive_last_error());
}

int main(void)
{
    const char *pretend = getenv("HIVE_TEST_COMPUTE_CAPABILITY");
    if (pretend == NULL || pretend[0] == '\0') {
        fprintf(stderr, "capability: set HIVE_TEST_COMPUTE_CAPABILITY (e.g. 80)\n");
        return HT_EXIT_FAIL;
    }
    int cc = atoi(pretend);
    static char name[64];
    snprintf(name, sizeof name, "capability %d.%d cuda", cc / 10, cc % 10);
    ht_begin(name);

    hive_backend got = HIVE_BACKEND_AUTO;
    hive_cache_config probe = HIVE_CACHE_CONFIG_INIT;
    probe.backend = HIVE_BACKEND_CUDA;
    probe.capacity = 64;
    hive_cache *cache = NULL;
    hive_status s = hive_cache_create(&probe, &cache);
    if (s == HIVE_ERROR_NO_DEVICE || (s == HIVE_ERROR_UNSUPPORTED && strstr(hive_last_error(), "no CUDA"))) {
        if (ht_require_gpu())
            ht_fatal("HIVE_REQUIRE_GPU=1 but no GPU: %s", hive_last_error());
        ht_skip("no GPU: %s", hive_last_error());
    }
    if (s == HIVE_SUCCESS)
        hive_cache_destroy(cache);

    const int oldest = HIVE_CUDA_OLDEST_CC, kv64 = oldest > 90 ? oldest : 90;
    char oldest_text[8], kv64_text[8];
    snprintf(oldest_text, sizeof oldest_text, "%d.%d", oldest / 10, oldest % 10);
    snprintf(kv64_text, sizeof kv64_text, "%d.%d", kv64 / 10, kv64 % 10);

    ht_context("explicit CUDA tables at %d.%d (built from %s)", cc / 10, cc % 10, oldest_text);
    expect_cuda(create_table(HIVE_BACKEND_CUDA, HIVE_KV32, &got), cc >= oldest, oldest_text, "a KV32 table");
    expect_cuda(create_table(HIVE_BACKEND_CUDA, HIVE_KV64, &got), cc >= kv64, kv64_text, "a KV64 table");
    expect_cuda(create_cache(HIVE_BACKEND_CUDA, &got), cc >= oldest, oldest_text, "a cache table");

    ht_context("HIVE_BACKEND_AUTO at %d.%d (built from %s)", cc / 10, cc % 10, oldest_text);
    hive_backend kv32_backend = cc >= oldest ? HIVE_BACKEND_CUDA : HIVE_BACKEND_CPU;
    HT_CHECK_STATUS(create_table(HIVE_BACKEND_AUTO, HIVE_KV32, &got), HIVE_SUCCESS, "AUTO KV32 table");
    HT_CHECK_EQ((int)got, (int)kv32_backend, "backend AUTO took for KV32");
    HT_CHECK_STATUS(create_table(HIVE_BACKEND_AUTO, HIVE_KV64, &got), HIVE_SUCCESS, "AUTO KV64 table");
    HT_CHECK_EQ((int)got, (int)(cc >= kv64 ? HIVE_BACKEND_CUDA : HIVE_BACKEND_CPU), "backend AUTO took for KV64");
    HT_CHECK_STATUS(create_cache(HIVE_BACKEND_AUTO, &got), HIVE_SUCCESS, "AUTO cache table");
    HT_CHECK_EQ((int)got, (int)kv32_backend, "backend AUTO took for the cache");
    return ht_finish();
}
