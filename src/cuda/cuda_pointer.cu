/* cuda_pointer.cu — whether a CUDA table's kernels can reach a caller's
 * array: the memory-space check of the pointers hive's calls are given
 * (backend.h, check_pointer).  Memory the table's device cannot reach is
 * refused with HIVE_ERROR_INVALID_ARGUMENT; a kernel that read it would
 * fault, and a fault ends the GPU context for every later call of the
 * process. */
#include <cuda.h>
#include <cudaTypedefs.h>
#include <pthread.h>

#include "base/check.h"
#include "cache/cache_backend.h"
#include "cuda_driver.h"
#include "cuda_table.h"

static PFN_cuPointerGetAttribute_v4000 pointer_attribute;
static pthread_once_t lookup_once = PTHREAD_ONCE_INIT;

static void look_up(void)
{
    pointer_attribute = (PFN_cuPointerGetAttribute_v4000)hive_driver_entry("cuPointerGetAttribute", 4000);
}

/* Whether the current device may read and write p, memory of another
 * device.  Memory of a pool (cudaMallocAsync) is reachable where the pool
 * grants the current device access (cudaMemPoolSetAccess: asked of the
 * pool).  The driver's access flags of a pointer say read-write for pool
 * and ordinary allocations alike, granted or not (H200 pair, CUDA 13.0: a
 * kernel then faulted on it); for ordinary allocations what decides is
 * whether the current device has peer access to the owner enabled.  The runtime has no query for
 * that: enabling it answers (cudaErrorPeerAccessAlreadyEnabled when it was),
 * and an enabling that succeeds is undone at once, so that the check leaves
 * the process's peer mappings as they were.  *why: the driver's error, -1
 * without the function; else 0. */
static int reachable(const void *p, int owner, int *why)
{
    pthread_once(&lookup_once, look_up);
    *why = -1;
    if (pointer_attribute == NULL)
        return 0;
    CUmemoryPool pool = NULL;
    CUresult r = pointer_attribute(&pool, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, (CUdeviceptr)p);
    *why = (int)r;
    if (r != CUDA_SUCCESS)
        return 0;
    if (pool != NULL) {
        int current = 0;
        cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
        cudaMemLocation here;
        here.type = cudaMemLocationTypeDevice;
        here.id = cudaGetDevice(&current) == cudaSuccess ? current : -1;
        cudaError_t e = cudaMemPoolGetAccess(&flags, (cudaMemPool_t)pool, &here);
        cudaGetLastError();
        return e == cudaSuccess && flags == cudaMemAccessFlagsProtReadWrite;
    }
    cudaError_t e = cudaDeviceEnablePeerAccess(owner, 0);
    cudaGetLastError();
    if (e == cudaErrorPeerAccessAlreadyEnabled)
        return 1;
    if (e == cudaSuccess)
        cudaDeviceDisablePeerAccess(owner);
    return 0;
}

/* The device address of page-locked host memory p, or NULL.  Asked from a
 * thread other than the allocating one, the attributes may omit the mapping
 * that cudaHostGetDevicePointer still reports (a mapped buffer of a finder
 * thread, H200, CUDA 13.0). */
static void *host_mapping(const void *p, const cudaPointerAttributes *attr)
{
    if (attr->devicePointer != NULL)
        return attr->devicePointer;
    void *mapped = NULL;
    if (cudaHostGetDevicePointer(&mapped, (void *)p, 0) != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    return mapped;
}

extern "C" int hive_dict_reach(const void *p)
{
    cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
        cudaGetLastError();
        return HIVE_REACH_HOST;
    }
    switch (attr.type) {
    case cudaMemoryTypeManaged:
        return HIVE_REACH_BOTH;
    case cudaMemoryTypeHost:
        return host_mapping(p, &attr) == p ? HIVE_REACH_BOTH : HIVE_REACH_HOST;
    case cudaMemoryTypeDevice:
        return HIVE_REACH_DEVICE;
    default:
        return HIVE_REACH_HOST;
    }
}

/* Checks p for a table on `device`, which is the current device. */
extern "C" hive_status hive_dict_check_pointer(int device, const void *p, const char *call, const char *what)
{
    cudaPointerAttributes attr;
    cudaError_t e = cudaPointerGetAttributes(&attr, p);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call, "%s: not a pointer CUDA knows (%s)", what,
                         cudaGetErrorString(e));
    }
    int why;
    switch (attr.type) {
    case cudaMemoryTypeManaged: /* any device reaches it */
        return HIVE_SUCCESS;
    case cudaMemoryTypeHost: /* page-locked: the kernels use p itself */
        attr.devicePointer = host_mapping(p, &attr);
        if (attr.devicePointer == p)
            return HIVE_SUCCESS;
        if (attr.devicePointer == NULL)
            return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                             "%s is page-locked host memory that device %d cannot address (allocate it "
                             "mapped and portable, or register it so)",
                             what, device);
        return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                         "%s is host memory that device %d addresses at %p, not at its host address: "
                         "pass that address",
                         what, device, attr.devicePointer);
    case cudaMemoryTypeDevice:
        if (attr.device == device || reachable(p, attr.device, &why))
            return HIVE_SUCCESS;
        return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                         "%s is memory of device %d, which the table's device %d cannot reach (enable "
                         "peer access from device %d: cudaDeviceEnablePeerAccess, or "
                         "cudaMemPoolSetAccess for memory from a pool)%s",
                         what, attr.device, device, device,
                         why != 0 ? " (the driver could not tell its access)" : "");
    default: /* cudaMemoryTypeUnregistered */
        return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                         "%s is pageable host memory; a CUDA table takes device, managed or mapped "
                         "host memory",
                         what);
    }
}
