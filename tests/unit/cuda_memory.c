/* cuda_memory.c — which memory a CUDA table takes, beyond managed memory
 * (every other test's) and pageable memory (bad_input's):
 *
 *   hive-cuda-memory cuda <kv32|kv64>
 *
 *   - device memory of the table's device, and page-locked host memory
 *     allocated mapped and portable: inserts and finds work;
 *   - host memory registered mapped: taken where the device addresses it at
 *     its host address (cudaDevAttrCanUseHostPointerForRegisteredMem), else
 *     refused;
 *   with two GPUs or more:
 *   - memory of another device without peer access (cudaMalloc'd, or from
 *     that device's memory pool), for a table on device 0 and for one on
 *     device 1: HIVE_ERROR_INVALID_ARGUMENT naming the array, nothing
 *     inserted, and the GPU's context still works (a kernel that read that
 *     memory would have faulted it);
 *   - where the hardware allows peer access: once device 0 enables it, device
 *     1's cudaMalloc'd memory works for the table on device 0 (values found
 *     are right), while memory from device 1's pool is still refused until
 *     cudaMemPoolSetAccess grants device 0 access to that pool.
 * The peer part is skipped (with a message) on a machine with one GPU. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hivetest.h"

#define KEYS 4096

static const ht_target *target;
static uint64_t keys[KEYS], values[KEYS];

#define CUDA_MUST(expr)                                                                     \
    do {                                                                                    \
        cudaError_t e_ = (expr);                                                            \
        if (e_ != cudaSuccess)                                                              \
            ht_fatal("%s:%d: %s: %s", __FILE__, __LINE__, #expr, cudaGetErrorString(e_));   \
    } while (0)

/* The arrays of one batch in memory of one kind. */
typedef struct arrays {
    void *keys, *values, *out;
    uint8_t *found, *results;
} arrays;

/* Copies keys[] and values[] (of the target's width) into a. */
static void fill(const arrays *a)
{
    size_t bytes = KEYS * target->kv_bytes;
    void *k = malloc(bytes), *v = malloc(bytes);
    if (k == NULL || v == NULL)
        ht_fatal("out of host memory");
    for (size_t i = 0; i < KEYS; i++) {
        ht_put(target, k, i, keys[i]);
        ht_put(target, v, i, values[i]);
    }
    /* Copied from the device that owns the memory: another device's pool
     * memory is not addressable from this one's context. */
    struct cudaPointerAttributes attr;
    int previous;
    CUDA_MUST(cudaGetDevice(&previous));
    CUDA_MUST(cudaPointerGetAttributes(&attr, a->keys));
    if (attr.type == cudaMemoryTypeDevice)
        CUDA_MUST(cudaSetDevice(attr.device));
    CUDA_MUST(cudaMemcpy(a->keys, k, bytes, cudaMemcpyDefault));
    CUDA_MUST(cudaMemcpy(a->values, v, bytes, cudaMemcpyDefault));
    CUDA_MUST(cudaSetDevice(previous));
    free(k);
    free(v);
}

/* Device memory of `device`: from cudaMalloc, or from its default memory
 * pool (cudaMallocAsync). */
static arrays device_arrays(int device, int from_pool)
{
    arrays a;
    size_t bytes = KEYS * target->kv_bytes;
    int previous;
    CUDA_MUST(cudaGetDevice(&previous));
    CUDA_MUST(cudaSetDevice(device));
    void **p[] = {&a.keys, &a.values, &a.out, (void **)&a.found, (void **)&a.results};
    size_t sizes[] = {bytes, bytes, bytes, KEYS, KEYS};
    for (int i = 0; i < 5; i++) {
        if (from_pool)
            CUDA_MUST(cudaMallocAsync(p[i], sizes[i], 0));
        else
            CUDA_MUST(cudaMalloc(p[i], sizes[i]));
    }
    CUDA_MUST(cudaDeviceSynchronize());
    CUDA_MUST(cudaSetDevice(previous));
    fill(&a);
    return a;
}

static void free_device_arrays(const arrays *a)
{
    void *p[] = {a->keys, a->values, a->out, a->found, a->results};
    CUDA_MUST(cudaDeviceSynchronize());
    for (int i = 0; i < 5; i++)
        CUDA_MUST(cudaFree(p[i]));
}

/* Inserts the keys from a, finds them into a, and checks every value
 * (read back from a). */
static void expect_works(hive_table *table, const arrays *a, const char *what)
{
    ht_context("%s", what);
    HT_CHECK_STATUS(hive_insert(table, KEYS, a->keys, a->values, HIVE_COMBINE_ASSIGN, a->results, NULL),
                    HIVE_SUCCESS, "%s: insert (%s)", what, hive_last_error());
    HT_CHECK_STATUS(hive_find(table, KEYS, a->keys, a->out, a->found, NULL), HIVE_SUCCESS,
                    "%s: find (%s)", what, hive_last_error());
    size_t bytes = KEYS * target->kv_bytes;
    void *out = malloc(bytes);
    uint8_t *found = malloc(KEYS);
    if (out == NULL || found == NULL)
        ht_fatal("out of host memory");
    CUDA_MUST(cudaMemcpy(out, a->out, bytes, cudaMemcpyDefault));
    CUDA_MUST(cudaMemcpy(found, a->found, KEYS, cudaMemcpyDefault));
    uint64_t bad = 0;
    for (size_t i = 0; i < KEYS; i++)
        if ((!found[i] || ht_get(target, out, i) != values[i]) && bad++ < 5)
            HT_CHECK(0, "%s: key %llu: found %u, value %llu, expected %llu", what,
                     (unsigned long long)keys[i], found[i], (unsigned long long)ht_get(target, out, i),
                     (unsigned long long)values[i]);
    HT_CHECK_EQ(bad, 0, "%s: keys not found with their values", what);
    free(out);
    free(found);
}

/* The table refuses a's keys, names them, inserts nothing, and still works
 * (with managed memory) afterwards. */
static void expect_refused(hive_table *table, const arrays *a, const char *what)
{
    ht_context("%s", what);
    uint64_t before = 0, after = 0;
    HT_MUST(hive_size(table, &before));
    hive_status s = hive_insert(table, KEYS, a->keys, a->values, HIVE_COMBINE_ASSIGN, a->results, NULL);
    char why[512];
    snprintf(why, sizeof why, "%s", hive_last_error());
    HT_CHECK_STATUS(s, HIVE_ERROR_INVALID_ARGUMENT, "%s: insert (%s)", what, why);
    HT_CHECK(strstr(why, "keys") != NULL, "%s: the message does not name the keys: %s", what, why);
    printf("  %s: %s\n", what, why);
    HT_MUST(hive_size(table, &after));
    HT_CHECK_EQ(after, before, "%s: size after the refused insert", what);
    ht_batch b;
    ht_batch_init(&b, target, 16);
    b.n = 16;
    for (size_t i = 0; i < b.n; i++) {
        ht_put(target, b.keys, i, keys[i]);
        ht_put(target, b.values, i, values[i]);
    }
    /* The default stream: the batch's own belongs to the device that was
     * current when it was made, not necessarily the table's. */
    HT_CHECK_STATUS(hive_find(table, b.n, b.keys, b.values, b.found, NULL), HIVE_SUCCESS,
                    "%s: a find from managed memory after the refusal (is the context alive?) (%s)",
                    what, hive_last_error());
    ht_batch_free(&b);
}

static hive_table *table_on(int device)
{
    hive_config c = ht_config(target);
    c.device = device;
    c.initial_capacity = 4 * KEYS;
    return ht_open(target, &c);
}

/* ---------------------------------------------------------------- one device */

static void one_device(void)
{
    hive_table *table = table_on(0);
    arrays dev = device_arrays(0, 0);
    expect_works(table, &dev, "device memory of the table's device");
    free_device_arrays(&dev);
    HT_MUST(hive_clear(table, NULL));

    arrays mapped;
    size_t bytes = KEYS * target->kv_bytes;
    void **p[] = {&mapped.keys, &mapped.values, &mapped.out, (void **)&mapped.found,
                  (void **)&mapped.results};
    size_t sizes[] = {bytes, bytes, bytes, KEYS, KEYS};
    for (int i = 0; i < 5; i++)
        CUDA_MUST(cudaHostAlloc(p[i], sizes[i], cudaHostAllocMapped | cudaHostAllocPortable));
    fill(&mapped);
    expect_works(table, &mapped, "host memory allocated mapped and portable");
    for (int i = 0; i < 5; i++)
        CUDA_MUST(cudaFreeHost(*p[i]));
    HT_MUST(hive_clear(table, NULL));

    /* Host memory registered mapped: the kernels use its host address. */
    int same_address = 0;
    CUDA_MUST(cudaDeviceGetAttribute(&same_address, cudaDevAttrCanUseHostPointerForRegisteredMem, 0));
    arrays registered;
    void **q[] = {&registered.keys, &registered.values, &registered.out, (void **)&registered.found,
                  (void **)&registered.results};
    for (int i = 0; i < 5; i++) {
        *q[i] = aligned_alloc(4096, (sizes[i] + 4095) / 4096 * 4096);
        if (*q[i] == NULL)
            ht_fatal("out of host memory");
        CUDA_MUST(cudaHostRegister(*q[i], sizes[i], cudaHostRegisterMapped | cudaHostRegisterPortable));
    }
    fill(&registered);
    if (same_address)
        expect_works(table, &registered, "host memory registered mapped");
    else
        expect_refused(table, &registered, "host memory registered mapped, at another device address");
    for (int i = 0; i < 5; i++) {
        CUDA_MUST(cudaHostUnregister(*q[i]));
        free(*q[i]);
    }
    ht_close(table);
}

/* ---------------------------------------------------------------- two devices */

static void two_devices(void)
{
    /* Before any peer access is enabled: refused both ways. */
    hive_table *on0 = table_on(0), *on1 = table_on(1);
    arrays of1 = device_arrays(1, 0), pool1 = device_arrays(1, 1), of0 = device_arrays(0, 0);
    expect_refused(on0, &of1, "device 1's memory for a table on device 0, no peer access");
    expect_refused(on0, &pool1, "device 1's pool memory for a table on device 0, no peer access");
    expect_refused(on1, &of0, "device 0's memory for a table on device 1, no peer access");
    expect_works(on1, &of1, "device 1's memory for a table on device 1");

    int can = 0;
    CUDA_MUST(cudaDeviceCanAccessPeer(&can, 0, 1));
    if (!can) {
        printf("  device 0 cannot access device 1's memory (no peer access on this machine): "
               "the part with peer access is skipped\n");
    } else {
        int previous;
        CUDA_MUST(cudaGetDevice(&previous));
        CUDA_MUST(cudaSetDevice(0));
        CUDA_MUST(cudaDeviceEnablePeerAccess(1, 0));
        expect_works(on0, &of1, "device 1's memory for a table on device 0, peer access enabled");
        HT_MUST(hive_clear(on0, NULL));
        /* Peer access covers ordinary allocations, not a pool's. */
        expect_refused(on0, &pool1, "device 1's pool memory, peer access enabled, pool access not");
        cudaMemPool_t pool;
        CUDA_MUST(cudaDeviceGetDefaultMemPool(&pool, 1));
        struct cudaMemAccessDesc access;
        memset(&access, 0, sizeof access);
        access.location.type = cudaMemLocationTypeDevice;
        access.location.id = 0;
        access.flags = cudaMemAccessFlagsProtReadWrite;
        CUDA_MUST(cudaMemPoolSetAccess(pool, &access, 1));
        expect_works(on0, &pool1, "device 1's pool memory, pool access granted to device 0");
        CUDA_MUST(cudaSetDevice(previous));
    }
    free_device_arrays(&of0);
    free_device_arrays(&pool1);
    free_device_arrays(&of1);
    ht_close(on1);
    ht_close(on0);
}

int main(int argc, char **argv)
{
    static char name[96];
    const char *usage = "cuda <kv32|kv64>";
    static ht_target t;
    ht_target_from_args(&t, argc, argv, 1, usage);
    if (t.backend != HIVE_BACKEND_CUDA)
        ht_fatal("this test is for CUDA tables: %s", usage);
    target = &t;
    snprintf(name, sizeof name, "cuda-memory %s", t.width_name);
    ht_begin(name);
    ht_require_backend(&t);
    ht_rng rng;
    ht_rng_seed(&rng, 99);
    ht_unique_keys(&t, &rng, keys, KEYS, NULL);
    for (size_t i = 0; i < KEYS; i++)
        values[i] = ht_random_value(&t, &rng);

    one_device();
    int devices = 0;
    CUDA_MUST(cudaGetDeviceCount(&devices));
    if (devices >= 2)
        two_devices();
    else
        printf("  one GPU: the part with memory of another device is skipped\n");
    return ht_finish();
}
