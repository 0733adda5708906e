/* cpu_filter.c — see cpu_filter.h. */
#include "cpu_filter.h"

#include "base/check.h"
#include "cpu_map.h"

hive_status hive_cpu_filter_create(hive_cpu_filter *f, uint32_t bits, uint64_t slots, const char *call)
{
    f->words = NULL;
    f->count = 0;
    f->bits = bits;
    /* Half as many bits a key as the filter has a slot: near the best count
     * for a word holding seven to eight keys at load 0.9 (2-3% of absent keys
     * pass at 8 bits a slot). */
    f->k = bits / 2;
    if (bits == 0)
        return HIVE_SUCCESS;
    uint64_t count = (slots * bits + 63) / 64;
    /* A page mapping, as the buckets': huge pages where it is large, so that
     * a word's read does not also miss the TLB. */
    f->words = hive_cpu_map((size_t)count * sizeof *f->words);
    if (f->words == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                         "no host memory for the absent-key filter of %llu slots (%llu bytes)",
                         (unsigned long long)slots, (unsigned long long)(count * sizeof *f->words));
    f->count = count;
    return HIVE_SUCCESS;
}

void hive_cpu_filter_free(hive_cpu_filter *f)
{
    if (f->words != NULL)
        hive_cpu_unmap(f->words, (size_t)f->count * sizeof *f->words);
    f->words = NULL;
    f->count = 0;
}

size_t hive_cpu_filter_bytes(const hive_cpu_filter *f)
{
    return f->words != NULL ? hive_cpu_map_size((size_t)f->count * sizeof *f->words) : 0;
}
