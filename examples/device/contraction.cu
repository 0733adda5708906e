/* contraction.cu — sparse tensor contraction with hive's device API:
 *
 *   C[i, j, l] = sum over k of A[i, j, k] * B[k, l]
 *
 * A is a sparse 3-mode tensor (coordinates and values), B a sparse matrix
 * stored by rows.  Each thread takes one nonzero of A and adds its products
 * with row k of B into C, a hive table keyed by (i, j, l) packed into 64
 * bits, whose values are doubles summed by a merge of the program's own
 * (HIVE_USER_COMBINE64): the accumulation of sparse contraction kernels
 * (WarpSpeed's SpTC benchmark).  The result is checked against a CPU
 * reference (the same products, sorted by coordinate and summed).
 *
 * Exit status 0 when C matches, 1 when not, 77 without a GPU that runs KV64
 * tables (1 under HIVE_REQUIRE_GPU=1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Doubles held in the values' bits, summed atomically by the slot's CAS loop. */
#define HIVE_USER_COMBINE64(stored, incoming) \
    ((uint64_t)__double_as_longlong(__longlong_as_double((long long)(stored)) + \
                                    __longlong_as_double((long long)(incoming))))
#include "hive/device.cuh"

#define DIM 2048u         /* every mode's extent */
#define A_NONZEROS (1u << 18)
#define B_PER_ROW 8u      /* nonzeros in each row of B */

static uint64_t coordinate(uint64_t i, uint64_t j, uint64_t l) { return (i * DIM + j) * DIM + l; }

__global__ void contract(hive_device_view c, const uint32_t *ai, const uint32_t *aj, const uint32_t *ak,
                         const double *av, const uint32_t *b_col, const double *b_val, uint32_t nonzeros,
                         unsigned long long *rejected)
{
    for (uint32_t n = blockIdx.x * blockDim.x + threadIdx.x; n < nonzeros; n += gridDim.x * blockDim.x) {
        uint64_t k = ak[n];
        for (uint32_t e = 0; e < B_PER_ROW; e++) {
            uint64_t at = k * B_PER_ROW + e;
            double product = av[n] * b_val[at];
            uint64_t key = ((uint64_t)ai[n] * DIM + aj[n]) * DIM + b_col[at];
            int r = hive_device_upsert64(c, key, (uint64_t)__double_as_longlong(product), HIVE_DEVICE_COMBINE_USER);
            if (r == HIVE_RESULT_REJECTED_FULL)
                atomicAdd(rejected, 1ull);
        }
    }
}

typedef struct term {
    uint64_t key;
    double value;
} term;

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const term *)a)->key, y = ((const term *)b)->key;
    return x < y ? -1 : x > y;
}

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

static void must(hive_status s, const char *what)
{
    if (s != HIVE_SUCCESS) {
        fprintf(stderr, "contraction: %s: %s\n", what, hive_last_error());
        exit(1);
    }
}

int main(void)
{
    hive_config config = HIVE_CONFIG_INIT;
    config.backend = HIVE_BACKEND_CUDA;
    config.key_width = HIVE_KV64;
    hive_table *c = NULL;
    hive_status s = hive_create(&config, &c);
    if (s == HIVE_ERROR_NO_DEVICE || s == HIVE_ERROR_UNSUPPORTED) {
        const char *require = getenv("HIVE_REQUIRE_GPU");
        int required = require != NULL && strcmp(require, "1") == 0;
        fprintf(stderr, "contraction: no GPU for a KV64 table (%s)%s\n", hive_last_error(),
                required ? "" : ": skipped");
        return required ? 1 : 77;
    }
    must(s, "hive_create");

    uint32_t *ai, *aj, *ak, *b_col;
    double *av, *b_val;
    unsigned long long *rejected;
    cudaMallocManaged(&ai, A_NONZEROS * sizeof *ai);
    cudaMallocManaged(&aj, A_NONZEROS * sizeof *aj);
    cudaMallocManaged(&ak, A_NONZEROS * sizeof *ak);
    cudaMallocManaged(&av, A_NONZEROS * sizeof *av);
    cudaMallocManaged(&b_col, DIM * B_PER_ROW * sizeof *b_col);
    cudaMallocManaged(&b_val, DIM * B_PER_ROW * sizeof *b_val);
    cudaMallocManaged(&rejected, sizeof *rejected);
    *rejected = 0;
    uint64_t seed = 2024;
    /* A's nonzeros crowd a few hundred (i, j) fibres, so that products of
     * many of them land on the same entries of C and sum there. */
    for (uint32_t n = 0; n < A_NONZEROS; n++) {
        ai[n] = (uint32_t)(next(&seed) % 24);
        aj[n] = (uint32_t)(next(&seed) % 24);
        ak[n] = (uint32_t)(next(&seed) % DIM);
        av[n] = (double)(next(&seed) % 2001) / 1000.0 - 1.0;
    }
    for (uint32_t at = 0; at < DIM * B_PER_ROW; at++) {
        b_col[at] = (uint32_t)(next(&seed) % DIM);
        b_val[at] = (double)(next(&seed) % 2001) / 1000.0 - 1.0;
    }

    /* The reference: every product, sorted by its coordinate and summed. */
    uint64_t products = (uint64_t)A_NONZEROS * B_PER_ROW;
    term *terms = (term *)malloc(products * sizeof *terms);
    for (uint32_t n = 0; n < A_NONZEROS; n++)
        for (uint32_t e = 0; e < B_PER_ROW; e++) {
            uint32_t at = ak[n] * B_PER_ROW + e;
            terms[(uint64_t)n * B_PER_ROW + e] = (term){coordinate(ai[n], aj[n], b_col[at]), av[n] * b_val[at]};
        }
    qsort(terms, products, sizeof *terms, by_key);
    uint64_t entries = 0;
    for (uint64_t t = 0; t < products; t++) {
        if (entries > 0 && terms[entries - 1].key == terms[t].key)
            terms[entries - 1].value += terms[t].value;
        else
            terms[entries++] = terms[t];
    }

    must(hive_reserve(c, entries, NULL), "hive_reserve");
    hive_device_view view;
    must(hive_device_view_acquire(c, &view), "hive_device_view_acquire");
    contract<<<1024, 256>>>(view, ai, aj, ak, av, b_col, b_val, A_NONZEROS, rejected);
    must(hive_device_view_release(c, NULL), "hive_device_view_release");
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        fprintf(stderr, "contraction: the kernel failed: %s\n", cudaGetErrorString(e));
        return 1;
    }

    uint64_t size = 0;
    must(hive_size(c, &size), "hive_size");
    uint64_t *keys, *values;
    uint8_t *found;
    cudaMallocManaged(&keys, entries * sizeof *keys);
    cudaMallocManaged(&values, entries * sizeof *values);
    cudaMallocManaged(&found, entries);
    for (uint64_t t = 0; t < entries; t++)
        keys[t] = terms[t].key;
    must(hive_find(c, entries, keys, values, found, NULL), "hive_find");
    uint64_t wrong = 0;
    double worst = 0;
    for (uint64_t t = 0; t < entries; t++) {
        double got;
        memcpy(&got, &values[t], sizeof got);
        /* Sums of the same terms in another order: equal to rounding. */
        double error = fabs(got - terms[t].value) / (fabs(terms[t].value) + 1e-3);
        worst = error > worst ? error : worst;
        wrong += !found[t] || error > 1e-9;
    }
    printf("contraction: %llu products into %llu entries of C (table size %llu); %llu wrong (worst relative "
           "error %.3g), %llu rejected for room\n",
           (unsigned long long)products, (unsigned long long)entries, (unsigned long long)size,
           (unsigned long long)wrong, worst, *rejected);
    int ok = wrong == 0 && *rejected == 0 && size == entries;
    hive_destroy(c);
    free(terms);
    cudaFree(ai);
    cudaFree(aj);
    cudaFree(ak);
    cudaFree(av);
    cudaFree(b_col);
    cudaFree(b_val);
    cudaFree(rejected);
    cudaFree(keys);
    cudaFree(values);
    cudaFree(found);
    return ok ? 0 : 1;
}
