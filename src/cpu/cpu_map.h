/* cpu_map.h — page mappings for the CPU backend's bucket and lock arrays,
 * which a resize extends or cuts in place: Linux's mremap moves page-table
 * entries, never the bytes, so growing a table copies no bucket (issue 5's
 * rule; the CUDA backend maps device memory into a reserved range instead). */
#ifndef HIVE_CPU_MAP_H
#define HIVE_CPU_MAP_H

#include <stddef.h>

/* `bytes` rounded up to whole pages. */
size_t hive_cpu_map_size(size_t bytes);

/* A zeroed mapping of hive_cpu_map_size(bytes) bytes, or NULL.  Mappings of
 * a huge page or more ask to be backed by huge pages: with 4 KiB pages nearly
 * every probe of a large table would also miss the TLB. */
void *hive_cpu_map(size_t bytes);

/* Resizes a mapping (sizes as given to hive_cpu_map), perhaps moving it;
 * bytes added read as zero.  NULL if that cannot be had: `p` is unchanged. */
void *hive_cpu_remap(void *p, size_t old_bytes, size_t new_bytes);

void hive_cpu_unmap(void *p, size_t bytes);

/* Whether `bytes` more would still fit in the machine's memory: filling a
 * table touches every page, and one larger than the machine would be killed
 * by the OOM killer rather than fail cleanly. */
int hive_cpu_memory_allows(unsigned long long bytes);

#endif
