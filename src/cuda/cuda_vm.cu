/* cuda_vm.cu — see cuda_vm.h. */
#include <cuda.h>
#include <cudaTypedefs.h>
#include <pthread.h>
#include <string.h>

#include "base/alloc.h"
#include "base/check.h"
#include "base/regrow.h"
#include "cuda_alloc.h"
#include "cuda_check.h"
#include "cuda_driver.h"
#include "cuda_vm.h"

/* The driver's memory-management entry points, looked up once. */
static struct {
    PFN_cuMemAddressReserve_v10020 reserve;
    PFN_cuMemAddressFree_v10020 address_free;
    PFN_cuMemCreate_v10020 create;
    PFN_cuMemRelease_v10020 release;
    PFN_cuMemMap_v10020 map;
    PFN_cuMemUnmap_v10020 unmap;
    PFN_cuMemSetAccess_v10020 set_access;
    PFN_cuMemGetAllocationGranularity_v10020 granularity;
    int ok;
} drv;
static pthread_once_t drv_once = PTHREAD_ONCE_INIT;

static void *entry(const char *name) { return hive_driver_entry(name, 10020); }

static void load_driver(void)
{
    drv.reserve = (PFN_cuMemAddressReserve_v10020)entry("cuMemAddressReserve");
    drv.address_free = (PFN_cuMemAddressFree_v10020)entry("cuMemAddressFree");
    drv.create = (PFN_cuMemCreate_v10020)entry("cuMemCreate");
    drv.release = (PFN_cuMemRelease_v10020)entry("cuMemRelease");
    drv.map = (PFN_cuMemMap_v10020)entry("cuMemMap");
    drv.unmap = (PFN_cuMemUnmap_v10020)entry("cuMemUnmap");
    drv.set_access = (PFN_cuMemSetAccess_v10020)entry("cuMemSetAccess");
    drv.granularity = (PFN_cuMemGetAllocationGranularity_v10020)entry("cuMemGetAllocationGranularity");
    drv.ok = drv.reserve && drv.address_free && drv.create && drv.release && drv.map && drv.unmap &&
             drv.set_access && drv.granularity;
}

static CUmemAllocationProp device_prop(int device)
{
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    return prop;
}

static hive_status driver_status(CUresult r, const char *call, const char *what)
{
    if (r == CUDA_SUCCESS)
        return HIVE_SUCCESS;
    return hive_fail(r == CUDA_ERROR_OUT_OF_MEMORY ? HIVE_ERROR_OUT_OF_MEMORY : HIVE_ERROR_CUDA, call,
                     "%s: CUDA driver error %d", what, (int)r);
}

static size_t round_up(size_t bytes, size_t unit) { return (bytes + unit - 1) / unit * unit; }

/* ---------------------------------------------------------------- the caller's allocator */

static int moves(const hive_vm *vm) { return has_allocator(&vm->allocator); }

/* Moves the array to a new allocation of `bytes`, keeping the first `keep`
 * bytes (copied on `s`, waited for), and frees the old one on `s`.  On
 * failure the array is as it was. */
static hive_status move_to(hive_vm *vm, size_t bytes, size_t keep, cudaStream_t s, const char *call)
{
    void *to = NULL;
    HIVE_TRY(user_alloc(&vm->allocator, &to, bytes, s, call, "an array of the table"));
    if (keep > vm->mapped)
        keep = vm->mapped;
    if (keep > bytes)
        keep = bytes;
    if (keep != 0) {
        hive_status st = hive_cuda_status(cudaMemcpyAsync(to, vm->base, keep, cudaMemcpyDeviceToDevice, s), call,
                                          "copying an array of the table to its new allocation");
        /* Waited for: the next call may come on another stream, and the old
         * allocation may be reused as soon as it is freed. */
        cudaError_t waited = cudaStreamSynchronize(s);
        if (st == HIVE_SUCCESS)
            st = hive_cuda_status(waited, call, "cudaStreamSynchronize");
        else if (waited != cudaSuccess)
            cudaGetLastError();
        if (st != HIVE_SUCCESS) {
            vm->allocator.free(vm->allocator.user, to, bytes, (hive_stream)s);
            return st;
        }
    }
    if (vm->base != NULL)
        vm->allocator.free(vm->allocator.user, vm->base, vm->mapped, (hive_stream)s);
    vm->base = (char *)to;
    vm->mapped = bytes;
    return HIVE_SUCCESS;
}

/* Moves to a smaller allocation where base/regrow.h says so; quiet (trim
 * reports nothing): a failure leaves the array as it was, and the last-error
 * text as it found it. */
static void shrink_moving(hive_vm *vm, size_t bytes, cudaStream_t s)
{
    size_t to = hive_reshrink_size(vm->mapped, bytes, vm->granularity);
    if (to == vm->mapped)
        return;
    if (to == 0) {
        if (vm->base != NULL)
            vm->allocator.free(vm->allocator.user, vm->base, vm->mapped, (hive_stream)s);
        vm->base = NULL;
        vm->mapped = 0;
        return;
    }
    int had_error = hive_last_error()[0] != '\0';
    if (move_to(vm, to, bytes, s, "hive resize (CUDA)") != HIVE_SUCCESS && !had_error)
        hive_clear_error(); /* staying large is harmless */
}

/* ---------------------------------------------------------------- both paths */

extern "C" hive_status hive_vm_reserve(hive_vm *vm, int device, size_t max_bytes, const hive_allocator *allocator,
                                       const char *call)
{
    memset(vm, 0, sizeof *vm);
    vm->device = device;
    if (allocator != NULL && has_allocator(allocator)) {
        /* Nothing to reserve: the limit is kept only to refuse what the GPU
         * could not hold, as the own path's range does. */
        vm->allocator = *allocator;
        vm->granularity = HIVE_REGROW_UNIT;
        vm->reserved = hive_regrow_round(max_bytes ? max_bytes : 1, vm->granularity);
        return HIVE_SUCCESS;
    }
    pthread_once(&drv_once, load_driver);
    if (!drv.ok)
        return hive_fail(HIVE_ERROR_CUDA, call, "the CUDA driver lacks the virtual memory functions");
    CUmemAllocationProp prop = device_prop(device);
    HIVE_TRY(driver_status(drv.granularity(&vm->granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
                           call, "cuMemGetAllocationGranularity"));
    size_t bytes = round_up(max_bytes ? max_bytes : 1, vm->granularity);
    CUdeviceptr base = 0;
    HIVE_TRY(driver_status(drv.reserve(&base, bytes, vm->granularity, 0, 0), call,
                           "cuMemAddressReserve"));
    vm->base = (char *)base;
    vm->reserved = bytes;
    return HIVE_SUCCESS;
}

extern "C" hive_status hive_vm_map(hive_vm *vm, size_t bytes, size_t keep, cudaStream_t stream, const char *call)
{
    if (bytes <= vm->mapped)
        return HIVE_SUCCESS;
    if (bytes > vm->reserved)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                         "%zu bytes: more than the %zu reserved, the size of the GPU's memory", bytes,
                         vm->reserved);
    if (moves(vm))
        return move_to(vm, hive_regrow_size(vm->mapped, bytes, vm->granularity, vm->reserved), keep, stream, call);
    size_t chunk = round_up(bytes - vm->mapped > vm->mapped / 8 ? bytes - vm->mapped : vm->mapped / 8,
                            vm->granularity);
    if (chunk > vm->reserved - vm->mapped)
        chunk = vm->reserved - vm->mapped;
    if (vm->nchunks == vm->chunk_cap) {
        size_t cap = vm->chunk_cap ? 2 * vm->chunk_cap : 16;
        hive_vm_chunk *more = (hive_vm_chunk *)hive_host_calloc(cap, sizeof *more);
        if (more == NULL)
            return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for the chunk list");
        if (vm->nchunks)
            memcpy(more, vm->chunks, vm->nchunks * sizeof *more);
        hive_host_free(vm->chunks);
        vm->chunks = more;
        vm->chunk_cap = cap;
    }
    if (hive_alloc_should_fail())
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "device memory: injected allocation failure");
    CUmemAllocationProp prop = device_prop(vm->device);
    CUmemGenericAllocationHandle handle;
    HIVE_TRY(driver_status(drv.create(&handle, chunk, &prop, 0), call, "cuMemCreate"));
    CUdeviceptr at = (CUdeviceptr)(vm->base + vm->mapped);
    hive_status st = driver_status(drv.map(at, chunk, 0, handle, 0), call, "cuMemMap");
    if (st == HIVE_SUCCESS) {
        CUmemAccessDesc access;
        memset(&access, 0, sizeof access);
        access.location = prop.location;
        access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        st = driver_status(drv.set_access(at, chunk, &access, 1), call, "cuMemSetAccess");
        if (st != HIVE_SUCCESS)
            drv.unmap(at, chunk);
    }
    if (st != HIVE_SUCCESS) {
        drv.release(handle);
        return st;
    }
    vm->chunks[vm->nchunks].handle = (unsigned long long)handle;
    vm->chunks[vm->nchunks].bytes = chunk;
    vm->nchunks++;
    vm->mapped += chunk;
    return hive_vm_map(vm, bytes, keep, stream, call); /* one chunk may not have been enough */
}

extern "C" void hive_vm_trim(hive_vm *vm, size_t bytes, cudaStream_t stream)
{
    if (moves(vm)) {
        shrink_moving(vm, bytes, stream);
        return;
    }
    while (vm->nchunks > 0 && vm->mapped - vm->chunks[vm->nchunks - 1].bytes >= bytes) {
        hive_vm_chunk *last = &vm->chunks[--vm->nchunks];
        vm->mapped -= last->bytes;
        drv.unmap((CUdeviceptr)(vm->base + vm->mapped), last->bytes);
        drv.release((CUmemGenericAllocationHandle)last->handle);
    }
}

extern "C" void hive_vm_release(hive_vm *vm, cudaStream_t stream)
{
    if (moves(vm)) {
        shrink_moving(vm, 0, stream);
    } else if (vm->base != NULL) {
        hive_vm_trim(vm, 0, stream);
        drv.address_free((CUdeviceptr)vm->base, vm->reserved);
    }
    hive_host_free(vm->chunks);
    memset(vm, 0, sizeof *vm);
}
