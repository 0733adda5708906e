/* tiered_config.c — a caller's hive_tiered_config checked and its defaults
 * resolved: the one place the two-level table's defaults live.  The hot
 * backend and the rounding of hot_capacity are the hot cache's to resolve
 * (tiered_api.c reads them back from it). */
#include "base/check.h"
#include "tiered/tiered.h"

#define MAX_BATCH (1u << 28) /* positions in a step are 32-bit; 2^28 keys stage 14 GiB */
#define MAX_THREADS 4096u    /* the cache's and the table's bound */

void hive_tiered_config_init(hive_tiered_config *config)
{
    static const hive_tiered_config defaults = HIVE_TIERED_CONFIG_INIT;
    if (config != NULL)
        *config = defaults;
}

hive_status hive_tiered_config_resolve(const hive_tiered_config *c, hive_tiered_config *resolved)
{
    static const char call[] = "hive_tiered_create";
    HIVE_CHECK_ARG(c != NULL, call, "config is NULL");
    HIVE_CHECK_ARG(c->struct_size == sizeof(hive_tiered_config), call,
                   "config.struct_size is %u, expected %u: start from HIVE_TIERED_CONFIG_INIT",
                   c->struct_size, (unsigned)sizeof(hive_tiered_config));
    HIVE_CHECK_ARG(c->version == HIVE_TIERED_CONFIG_VERSION, call,
                   "config.version is %u, this library takes %u", c->version,
                   HIVE_TIERED_CONFIG_VERSION);
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
    *resolved = *c;
    return HIVE_SUCCESS;
}
