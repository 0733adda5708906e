/* groupby.cu — a GROUP BY aggregation with hive's device API: every row of a
 * table (group, amount) is folded into two hive tables from one kernel, the
 * sum per group and the largest amount per group, as a database's hash
 * aggregation does.  The result is checked against a CPU reference.
 *
 *   SELECT grp, SUM(amount), MAX(amount) FROM rows GROUP BY grp
 *
 * Exit status 0 when the aggregates match, 1 when not, 77 without a GPU
 * (1 under HIVE_REQUIRE_GPU=1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hive/device.cuh"

#define ROWS (1u << 22)
#define GROUPS (1u << 16)

/* Each thread folds its rows into both tables: ADD and MAX are upserts. */
__global__ void aggregate(hive_device_view sums, hive_device_view maxima, const uint32_t *groups,
                          const uint32_t *amounts, uint32_t rows, unsigned long long *rejected)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += gridDim.x * blockDim.x) {
        int a = hive_device_upsert32(sums, groups[i], amounts[i], HIVE_COMBINE_ADD);
        int b = hive_device_upsert32(maxima, groups[i], amounts[i], HIVE_COMBINE_MAX);
        if (a == HIVE_RESULT_REJECTED_FULL || b == HIVE_RESULT_REJECTED_FULL)
            atomicAdd(rejected, 1ull);
    }
}

static int gpu_missing(hive_status s)
{
    if (s != HIVE_ERROR_NO_DEVICE && s != HIVE_ERROR_UNSUPPORTED)
        return 0;
    const char *require = getenv("HIVE_REQUIRE_GPU");
    int required = require != NULL && strcmp(require, "1") == 0;
    fprintf(stderr, "groupby: no usable GPU (%s)%s\n", hive_last_error(), required ? "" : ": skipped");
    exit(required ? 1 : 77);
}

/* Ends the program where a hive call failed. */
static void must(hive_status s, const char *what)
{
    if (s != HIVE_SUCCESS) {
        fprintf(stderr, "groupby: %s: %s\n", what, hive_last_error());
        exit(1);
    }
}

/* A CUDA table with room for `keys` keys, or the program ends. */
static hive_table *table_for(uint64_t keys)
{
    hive_config c = HIVE_CONFIG_INIT;
    c.backend = HIVE_BACKEND_CUDA;
    hive_table *t = NULL;
    hive_status s = hive_create(&c, &t);
    if (s != HIVE_SUCCESS && !gpu_missing(s)) {
        fprintf(stderr, "groupby: hive_create: %s\n", hive_last_error());
        exit(1);
    }
    must(hive_reserve(t, keys, NULL), "hive_reserve");
    return t;
}

int main(void)
{
    hive_table *sums = table_for(GROUPS), *maxima = table_for(GROUPS);

    /* Rows: skewed groups (the square of a uniform draw favours small ids). */
    uint32_t *groups, *amounts;
    unsigned long long *rejected;
    cudaMallocManaged(&groups, ROWS * sizeof *groups);
    cudaMallocManaged(&amounts, ROWS * sizeof *amounts);
    cudaMallocManaged(&rejected, sizeof *rejected);
    uint64_t *want_sum = (uint64_t *)calloc(GROUPS, sizeof *want_sum);
    uint32_t *want_max = (uint32_t *)calloc(GROUPS, sizeof *want_max);
    uint64_t seed = 12345;
    for (uint32_t i = 0; i < ROWS; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(seed >> 11) / 9007199254740992.0;
        uint32_t g = (uint32_t)(u * u * GROUPS);
        groups[i] = g + 1; /* any key below HIVE_KV32_RESERVED_MIN */
        amounts[i] = (uint32_t)(seed >> 40) % 1000;
        want_sum[g] += amounts[i];
        if (amounts[i] > want_max[g])
            want_max[g] = amounts[i];
    }
    *rejected = 0;

    hive_device_view sums_view, maxima_view;
    must(hive_device_view_acquire(sums, &sums_view), "hive_device_view_acquire");
    must(hive_device_view_acquire(maxima, &maxima_view), "hive_device_view_acquire");
    aggregate<<<1024, 256>>>(sums_view, maxima_view, groups, amounts, ROWS, rejected);
    must(hive_device_view_release(sums, NULL), "hive_device_view_release");
    must(hive_device_view_release(maxima, NULL), "hive_device_view_release");
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        fprintf(stderr, "groupby: the kernel failed: %s\n", cudaGetErrorString(e));
        return 1;
    }

    /* Every group of the reference, looked up in both tables. */
    uint32_t *keys, *sum_of, *max_of;
    uint8_t *found_sum, *found_max;
    cudaMallocManaged(&keys, GROUPS * sizeof *keys);
    cudaMallocManaged(&sum_of, GROUPS * sizeof *sum_of);
    cudaMallocManaged(&max_of, GROUPS * sizeof *max_of);
    cudaMallocManaged(&found_sum, GROUPS);
    cudaMallocManaged(&found_max, GROUPS);
    for (uint32_t g = 0; g < GROUPS; g++)
        keys[g] = g + 1;
    must(hive_find(sums, GROUPS, keys, sum_of, found_sum, NULL), "hive_find");
    must(hive_find(maxima, GROUPS, keys, max_of, found_max, NULL), "hive_find");
    uint64_t present = 0, wrong = 0, size = 0;
    for (uint32_t g = 0; g < GROUPS; g++) {
        int want = want_sum[g] != 0 || want_max[g] != 0;
        present += found_sum[g];
        /* A group whose amounts were all 0 still exists; one never drawn does not. */
        wrong += want && (!found_sum[g] || sum_of[g] != want_sum[g] || !found_max[g] || max_of[g] != want_max[g]);
    }
    must(hive_size(sums, &size), "hive_size");
    printf("groupby: %u rows into %llu groups (table size %llu); %llu wrong, %llu rejected for room\n", ROWS,
           (unsigned long long)present, (unsigned long long)size, (unsigned long long)wrong, *rejected);
    int ok = wrong == 0 && *rejected == 0 && size == present;
    hive_destroy(sums);
    hive_destroy(maxima);
    free(want_sum);
    free(want_max);
    cudaFree(groups);
    cudaFree(amounts);
    cudaFree(rejected);
    cudaFree(keys);
    cudaFree(sum_of);
    cudaFree(max_of);
    cudaFree(found_sum);
    cudaFree(found_max);
    return ok ? 0 : 1;
}
