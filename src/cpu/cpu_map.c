/* cpu_map.c — see cpu_map.h. */
#define _GNU_SOURCE /* mremap, MADV_HUGEPAGE */

#include "cpu_map.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/alloc.h"

#define HUGE_PAGE (2u << 20)

static size_t page_size(void)
{
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

size_t hive_cpu_map_size(size_t bytes)
{
    size_t page = page_size();
    return (bytes + page - 1) / page * page;
}

static void advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (bytes >= HUGE_PAGE)
        madvise(p, bytes, MADV_HUGEPAGE); /* advice: if refused, small pages work too */
#else
    (void)p;
    (void)bytes;
#endif
}

void *hive_cpu_map(size_t bytes)
{
    if (hive_alloc_should_fail())
        return NULL;
    size_t size = hive_cpu_map_size(bytes ? bytes : 1);
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    advise_huge(p, size);
    return p;
}

void *hive_cpu_remap(void *p, size_t old_bytes, size_t new_bytes)
{
    size_t old_size = hive_cpu_map_size(old_bytes ? old_bytes : 1);
    size_t new_size = hive_cpu_map_size(new_bytes ? new_bytes : 1);
    if (new_size == old_size)
        return p;
    if (new_size > old_size && hive_alloc_should_fail())
        return NULL;
#if defined(__SANITIZE_THREAD__)
    /* ThreadSanitizer does not intercept mremap: pages it moves would keep
     * the race history of whatever lived at their new address before, and
     * it reports races that are not there.  Under it, move by copying. */
    void *q = mmap(NULL, new_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (q == MAP_FAILED)
        return NULL;
    memcpy(q, p, old_size < new_size ? old_size : new_size);
    munmap(p, old_size);
#else
    void *q = mremap(p, old_size, new_size, MREMAP_MAYMOVE);
    if (q == MAP_FAILED)
        return NULL;
#endif
    if (new_size > old_size)
        advise_huge(q, new_size);
    return q;
}

void hive_cpu_unmap(void *p, size_t bytes)
{
    if (p != NULL)
        munmap(p, hive_cpu_map_size(bytes ? bytes : 1));
}

int hive_cpu_memory_allows(unsigned long long bytes)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return 1;
    return bytes <= (unsigned long long)pages * (unsigned long long)page && bytes <= SIZE_MAX;
}
