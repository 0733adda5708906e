/* tiered_config.c — a caller's hive_tiered_config checked and its defaults
 * resolved: the one place the two-level table's defaults live.  The hot
 * backend and the rounding of hot_capacity are the hot cache's to resolve
 * (tiered_api.c reads them back from it). */
#include <stddef.h>
#include <string.h>

#include "base/check.h"
#include "tiered/tiered.h"

/* Each version appended fields (2: hash_seed; 3: write_back; 4:
 * hot_dual_bucket): the older ones keep their offsets.  Version 4's field
 * took version 3's tail padding, so that both are 64 bytes; a version-3
 * config's copy stops where the field begins, for its padding is not known
 * to be zero. */
#define OLDEST_CONFIG_SIZE 48u
#define V2_CONFIG_SIZE 56u
#define V3_CONFIG_SIZE 64u
#define V3_CONFIG_FIELDS offsetof(hive_tiered_config, hot_dual_bucket)
_Static_assert(offsetof(hive_tiered_config, hash_seed) == OLDEST_CONFIG_SIZE,
               "version 1's hive_tiered_config ended where hash_seed begins");
_Static_assert(offsetof(hive_tiered_config, write_back) == V2_CONFIG_SIZE,
               "version 2's hive_tiered_config ended where write_back begins");
_Static_assert(sizeof(hive_tiered_config) == V3_CONFIG_SIZE && V3_CONFIG_FIELDS == 60,
               "version 4's hot_dual_bucket sits in version 3's tail padding");

#define MAX_BATCH (1u << 28) /* positions in a step are 32-bit; 2^28 keys stage 14 GiB */
#define MAX_THREADS 4096u    /* the cache's and the table's bound */

void hive_tiered_config_init(hive_tiered_config *config)
{
    static const hive_tiered_config defaults = HIVE_TIERED_CONFIG_INIT;
    if (config != NULL)
        *config = defaults;
}

/* The caller's config as this header's: an older header's (version 1,
 * without hash_seed; 2, without write_back; 3, without hot_dual_bucket)
 * gets the defaults of the fields it lacks. */
static hive_status upgrade(const hive_tiered_config *in, hive_tiered_config *out)
{
    static const char call[] = "hive_tiered_create";
    HIVE_CHECK_ARG(in != NULL, call, "config is NULL");
    size_t fields = 0; /* the bytes of the caller's version's fields */
    if (in->version == 1 && in->struct_size == OLDEST_CONFIG_SIZE)
        fields = OLDEST_CONFIG_SIZE;
    else if (in->version == 2 && in->struct_size == V2_CONFIG_SIZE)
        fields = V2_CONFIG_SIZE;
    else if (in->version == 3 && in->struct_size == V3_CONFIG_SIZE)
        fields = V3_CONFIG_FIELDS;
    else if (in->version == HIVE_TIERED_CONFIG_VERSION && in->struct_size == sizeof *in)
        fields = sizeof *in;
    HIVE_CHECK_ARG(fields != 0, call,
                   "config.struct_size %u and version %u: expected %u and %u (or an older header's %u and 3, "
                   "%u and 2, or %u and 1): start from HIVE_TIERED_CONFIG_INIT",
                   in->struct_size, in->version, (unsigned)sizeof *in, HIVE_TIERED_CONFIG_VERSION,
                   V3_CONFIG_SIZE, V2_CONFIG_SIZE, OLDEST_CONFIG_SIZE);
    hive_tiered_config_init(out);
    memcpy(out, in, fields);
    out->struct_size = sizeof *out;
    out->version = HIVE_TIERED_CONFIG_VERSION;
    return HIVE_SUCCESS;
}

hive_status hive_tiered_config_resolve(const hive_tiered_config *in, hive_tiered_config *resolved)
{
    static const char call[] = "hive_tiered_create";
    hive_tiered_config upgraded;
    HIVE_TRY(upgrade(in, &upgraded));
    const hive_tiered_config *c = &upgraded;
    HIVE_CHECK_ARG(c->hot_backend == HIVE_BACKEND_AUTO || c->hot_backend == HIVE_BACKEND_CUDA ||
                       c->hot_backend == HIVE_BACKEND_CPU,
                   call, "config.hot_backend %d is not a hive_backend", (int)c->hot_backend);
    HIVE_CHECK_ARG(c->device >= 0, call, "config.device %d is negative", c->device);
    HIVE_CHECK_ARG(c->hot_capacity >= 1, call, "config.hot_capacity is 0");
    HIVE_CHECK_ARG(c->cold_capacity >= 1, call, "config.cold_capacity is 0");
    HIVE_CHECK_ARG(c->promote == HIVE_TIERED_PROMOTE_ON_FIND || c->promote == HIVE_TIERED_PROMOTE_NEVER,
                   call, "config.promote %d is not a hive_tiered_promote", (int)c->promote);
    HIVE_CHECK_ARG(c->batch >= 1 && c->batch <= MAX_BATCH, call,
                   "config.batch %u is outside 1..2^28", c->batch);
    HIVE_CHECK_ARG(c->threads <= MAX_THREADS, call, "config.threads %u is over %u", c->threads,
                   MAX_THREADS);
    HIVE_CHECK_ARG(c->promote_one_in >= 1, call, "config.promote_one_in is 0 (1: every cold hit moves up)");
    HIVE_CHECK_ARG(c->write_back <= 1, call, "config.write_back %u is not 0 (write-through) or 1 (write-back)",
                   c->write_back);
    HIVE_CHECK_ARG(c->hot_dual_bucket <= 1, call, "config.hot_dual_bucket %u is not 0 or 1", c->hot_dual_bucket);
    *resolved = *c;
    return HIVE_SUCCESS;
}
