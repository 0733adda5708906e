/* cuda_vm.h — a device array that grows and shrinks in place, for the
 * bucket and lock arrays: a range of virtual addresses is reserved once (as
 * large as the GPU's memory), and physical memory is mapped at its end as
 * the table grows and unmapped as it shrinks (CUDA's virtual memory
 * management).  Growing never copies the buckets and never moves them, so
 * pointers into the table stay valid.  The driver functions come through
 * the runtime (cudaGetDriverEntryPointByVersion): hive does not link
 * libcuda, and runs on machines without a GPU. */
#ifndef HIVE_DICT_VM_H
#define HIVE_DICT_VM_H

#include <stddef.h>

#include "hive.h"

typedef struct hive_vm_chunk {
    unsigned long long handle; /* CUmemGenericAllocationHandle */
    size_t bytes;
} hive_vm_chunk;

typedef struct hive_vm {
    int device;
    char *base;         /* device address of the reserved range; NULL if none */
    size_t reserved;    /* bytes of address space */
    size_t mapped;      /* bytes backed by memory, from base */
    size_t granularity; /* of mappings on this device */
    hive_vm_chunk *chunks;
    size_t nchunks, chunk_cap;
} hive_vm;

#ifdef __cplusplus
extern "C" {
#endif

/* Reserves `max_bytes` of address space on `device` (rounded up to the
 * mapping granularity), none of it mapped yet. */
hive_status hive_vm_reserve(hive_vm *vm, int device, size_t max_bytes, const char *call);

/* Maps memory so that at least `bytes` from base are backed.  Each mapping
 * adds at least an eighth of what is mapped, so a table grown by many small
 * steps holds few chunks.  OUT_OF_MEMORY leaves the mapping as it was. */
hive_status hive_vm_map(hive_vm *vm, size_t bytes, const char *call);

/* Unmaps and frees whole chunks from the end while at least `bytes` stay
 * mapped. */
void hive_vm_trim(hive_vm *vm, size_t bytes);

/* Unmaps everything and gives the address range back. */
void hive_vm_release(hive_vm *vm);

#ifdef __cplusplus
}
#endif

#endif
