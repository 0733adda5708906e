/* buffers_cuda.c — table memory for CUDA tables: managed memory, which the
 * GPU can read and write and the host can fill and check between hive calls
 * (each hive call synchronises its stream before it returns), or mapped
 * pinned host memory.  Plain C over the CUDA runtime API: no kernels here.
 * Built only with HIVE_WITH_CUDA. */
#include <cuda_runtime.h>
#include <stdio.h>

void *ht_cuda_alloc(size_t bytes, char *why, size_t why_len)
{
    void *p = NULL;
    cudaError_t e = cudaMallocManaged(&p, bytes, cudaMemAttachGlobal);
    if (e != cudaSuccess) {
        snprintf(why, why_len, "cudaMallocManaged: %s", cudaGetErrorString(e));
        return NULL;
    }
    /* The library synchronises its own stream; make sure nothing of ours
     * is in flight before the host touches the new buffer. */
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        snprintf(why, why_len, "cudaDeviceSynchronize: %s", cudaGetErrorString(e));
        cudaFree(p);
        return NULL;
    }
    return p;
}

void ht_cuda_free(void *p)
{
    cudaDeviceSynchronize();
    cudaFree(p);
}

/* Pinned host memory mapped into the GPU's address space (with unified
 * addressing the host pointer is the device pointer), for ht_target.memory
 * HT_MEMORY_MAPPED. */
void *ht_cuda_alloc_mapped(size_t bytes, char *why, size_t why_len)
{
    void *p = NULL;
    cudaError_t e = cudaHostAlloc(&p, bytes, cudaHostAllocMapped | cudaHostAllocPortable);
    if (e != cudaSuccess) {
        snprintf(why, why_len, "cudaHostAlloc: %s", cudaGetErrorString(e));
        return NULL;
    }
    return p;
}

void ht_cuda_free_mapped(void *p)
{
    cudaDeviceSynchronize();
    cudaFreeHost(p);
}

/* A non-blocking stream, so that test threads each with their own launch
 * concurrently (the legacy default stream would serialise them). */
void *ht_cuda_stream_new(char *why, size_t why_len)
{
    cudaStream_t s = NULL;
    cudaError_t e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    if (e != cudaSuccess) {
        snprintf(why, why_len, "cudaStreamCreateWithFlags: %s", cudaGetErrorString(e));
        return NULL;
    }
    return s;
}

void ht_cuda_stream_free(void *s) { cudaStreamDestroy((cudaStream_t)s); }

int ht_cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}

/* Device memory of `device` (zeroed), the calling thread's current device
 * left as it was. */
void *ht_cuda_alloc_on_device(int device, size_t bytes, char *why, size_t why_len)
{
    int current = 0;
    void *p = NULL;
    cudaGetDevice(&current);
    cudaError_t e = cudaSetDevice(device);
    if (e == cudaSuccess)
        e = cudaMalloc(&p, bytes);
    if (e == cudaSuccess)
        e = cudaMemset(p, 0, bytes);
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    cudaSetDevice(current);
    if (e != cudaSuccess) {
        snprintf(why, why_len, "device %d: %s", device, cudaGetErrorString(e));
        if (p != NULL)
            cudaFree(p);
        return NULL;
    }
    return p;
}

void ht_cuda_free_on_device(int device, void *p)
{
    int current = 0;
    cudaGetDevice(&current);
    cudaSetDevice(device);
    cudaFree(p);
    cudaSetDevice(current);
}
