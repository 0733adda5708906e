/* config.c — a caller's hive_config made into a table's: checked, every
 * default resolved (backend, geometry, threads), and the backend picked.  The
 * one place defaults live: backends get the resolved config and may only
 * reject it. */
#include <math.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "api/table.h"
#include "base/check.h"
#include "cpu/cpu_filter.h"
#include "designs/names.h"

void hive_config_init(hive_config *config)
{
    static const hive_config defaults = HIVE_CONFIG_INIT;
    if (config != NULL)
        *config = defaults;
}

uint32_t hive_version(void)
{
    return HIVE_VERSION_MAJOR * 10000u + HIVE_VERSION_MINOR * 100u + HIVE_VERSION_PATCH;
}

uint32_t hive_config_bytes_of(const hive_config *c)
{
    return c->struct_size == HIVE_OLDEST_CONFIG_SIZE || c->struct_size == HIVE_V3_CONFIG_SIZE ? c->struct_size
                                                                                             : (uint32_t)sizeof *c;
}

/* The struct_size of a config of header version v. */
static uint32_t size_of_version(uint32_t v)
{
    return v <= 2 ? HIVE_OLDEST_CONFIG_SIZE : v == 3 ? HIVE_V3_CONFIG_SIZE : (uint32_t)sizeof(hive_config);
}

/* The caller's config as this header's: what an older header's config
 * lacks (a shorter struct, or version 1's `design`, which was padding then)
 * takes its default. */
static hive_status upgrade_config(const hive_config *in, hive_config *out)
{
    static const char call[] = "hive_create";
    HIVE_CHECK_ARG(in != NULL, call, "config is NULL");
    HIVE_CHECK_ARG(in->struct_size == HIVE_OLDEST_CONFIG_SIZE || in->struct_size == HIVE_V3_CONFIG_SIZE ||
                       in->struct_size == sizeof(hive_config),
                   call,
                   "config.struct_size is %u, expected %u (or an older header's, %u or %u): start from "
                   "HIVE_CONFIG_INIT",
                   in->struct_size, (unsigned)sizeof(hive_config), HIVE_V3_CONFIG_SIZE, HIVE_OLDEST_CONFIG_SIZE);
    HIVE_CHECK_ARG(in->version >= 1 && in->version <= HIVE_CONFIG_VERSION, call,
                   "config.version is %u, this library takes 1..%u", in->version, HIVE_CONFIG_VERSION);
    HIVE_CHECK_ARG(in->struct_size == size_of_version(in->version), call,
                   "config.version %u has struct_size %u, not %u", in->version, in->struct_size,
                   size_of_version(in->version));
    hive_config_init(out);
    memcpy(out, in, in->struct_size);
    if (in->version < 2)
        out->design = HIVE_DESIGN_HIVE;
    out->struct_size = sizeof *out;
    out->version = HIVE_CONFIG_VERSION;
    return HIVE_SUCCESS;
}

static hive_status check_config(const hive_config *c)
{
    static const char call[] = "hive_create";
    HIVE_CHECK_ARG(c->backend == HIVE_BACKEND_AUTO || c->backend == HIVE_BACKEND_CUDA ||
                       c->backend == HIVE_BACKEND_CPU,
                   call, "config.backend %d is not a hive_backend", (int)c->backend);
    HIVE_CHECK_ARG(c->key_width == HIVE_KV32 || c->key_width == HIVE_KV64, call,
                   "config.key_width %d is not a hive_key_width", (int)c->key_width);
    HIVE_CHECK_ARG(c->device >= 0, call, "config.device %d is negative", c->device);
    HIVE_CHECK_ARG(c->initial_capacity >= 1 && c->initial_capacity <= HIVE_MAX_SLOTS, call,
                   "config.initial_capacity %llu is outside 1..2^37",
                   (unsigned long long)c->initial_capacity);
    HIVE_CHECK_ARG(c->max_load_factor > 0.0 && c->max_load_factor <= 1.0, call,
                   "config.max_load_factor %g is outside (0, 1]", c->max_load_factor);
    HIVE_CHECK_ARG(c->min_load_factor >= 0.0 && c->min_load_factor <= c->max_load_factor / 2, call,
                   "config.min_load_factor %g is outside [0, max_load_factor/2]",
                   c->min_load_factor);
    HIVE_CHECK_ARG(c->resize_batch >= 1, call, "config.resize_batch is 0");
    HIVE_CHECK_ARG(c->max_evictions <= 1024, call, "config.max_evictions %u is over 1024",
                   c->max_evictions);
    /* The chaining design's pool may take up to half the table, and a config
     * that hive_get_config returned must be accepted again. */
    double most = c->design == HIVE_DESIGN_CHAINING ? 0.5 : 0.25;
    HIVE_CHECK_ARG(c->stash_fraction >= 0.0 && c->stash_fraction <= most, call,
                   "config.stash_fraction %g is outside [0, %g]", c->stash_fraction, most);
    HIVE_CHECK_ARG(c->threads <= 4096, call, "config.threads %u is over 4096", c->threads);
    HIVE_CHECK_ARG(c->bucket_slots == 0 || (c->bucket_slots >= 4 && c->bucket_slots <= 32 &&
                                            (c->bucket_slots & (c->bucket_slots - 1)) == 0),
                   call, "config.bucket_slots %u is not 0 or a power of two in 4..32",
                   c->bucket_slots);
    HIVE_CHECK_ARG(c->lanes_per_op == 0 || (c->lanes_per_op <= 32 &&
                                            (c->lanes_per_op & (c->lanes_per_op - 1)) == 0),
                   call, "config.lanes_per_op %u is not 0 or a power of two in 1..32",
                   c->lanes_per_op);
    HIVE_CHECK_ARG(c->lanes_per_op == 0 || c->bucket_slots == 0 ||
                       c->lanes_per_op <= c->bucket_slots,
                   call, "config.lanes_per_op %u exceeds bucket_slots %u", c->lanes_per_op,
                   c->bucket_slots);
    HIVE_CHECK_ARG(c->absent_filter_bits == 0 || (c->absent_filter_bits >= HIVE_CPU_FILTER_MIN_BITS &&
                                                  c->absent_filter_bits <= HIVE_CPU_FILTER_MAX_BITS),
                   call, "config.absent_filter_bits %u is not 0 or in %u..%u", c->absent_filter_bits,
                   HIVE_CPU_FILTER_MIN_BITS, HIVE_CPU_FILTER_MAX_BITS);
    HIVE_CHECK_ARG(hive_design_name((int)c->design) != NULL, call,
                   "config.design %d is not a hive_design (%s: designs/names.h)", (int)c->design,
                   HIVE_DESIGN_CHOICES);
    return hive_check_allocator(&c->allocator, call);
}

hive_status hive_check_allocator(const hive_allocator *a, const char *call)
{
    HIVE_CHECK_ARG((a->alloc == NULL) == (a->free == NULL), call,
                   "config.allocator.%s is set and config.allocator.%s is NULL: give both, or neither for the "
                   "library's own",
                   a->alloc != NULL ? "alloc" : "free", a->alloc != NULL ? "free" : "alloc");
    return HIVE_SUCCESS;
}

/* A seed for a table or cache whose config asks for a random one: from the
 * kernel's entropy, or where it has none at hand, from the clock and a
 * counter, mixed (a seed need not be secret to spread keys, only unknown in
 * advance).  Never HIVE_HASH_SEED_RANDOM itself. */
uint64_t hive_hash_seed_draw(void)
{
    static uint64_t drawn;
    uint64_t seed;
    if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) != (ssize_t)sizeof seed) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        seed = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
               (__atomic_add_fetch(&drawn, 1, __ATOMIC_RELAXED) * 0x9E3779B97F4A7C15ull);
        seed ^= seed >> 31;
        seed *= 0xbf58476d1ce4e5b9ull;
        seed ^= seed >> 29;
    }
    return seed == HIVE_HASH_SEED_RANDOM ? 0x5eed : seed;
}

hive_backend hive_backend_resolve(hive_backend requested, int device, int kv64_slots)
{
    if (requested != HIVE_BACKEND_AUTO)
        return requested;
#ifdef HIVE_WITH_CUDA
    return hive_cuda_device_usable(device, kv64_slots) ? HIVE_BACKEND_CUDA : HIVE_BACKEND_CPU;
#else
    (void)device;
    (void)kv64_slots;
    return HIVE_BACKEND_CPU;
#endif
}

/* The backend's operations; NULL for CUDA in a build without it. */
static const hive_backend_ops *pick_backend(hive_config *c)
{
    c->backend = hive_backend_resolve(c->backend, c->device, c->key_width == HIVE_KV64);
#ifdef HIVE_WITH_CUDA
    if (c->backend == HIVE_BACKEND_CUDA)
        return &hive_cuda_backend;
#else
    if (c->backend == HIVE_BACKEND_CUDA)
        return NULL;
#endif
    return &hive_cpu_backend;
}

/* The geometry a table gets where its config leaves it at 0.  On the GPU a
 * bucket of 4 slots (one 32-byte sector for KV32) probed by one thread per
 * key: the fastest finds measured, inserts close behind (docs/design.md §1);
 * for a tagged design, 16 slots (32 for iceberg_m, whose back yard holds
 * load 0.9 only from 32): its tags are one sector, which a probe of a bucket
 * without the key reads alone (docs/designs/metadata.md gives the figures).
 * On the CPU a bucket is one 64-byte cache line, and one thread always
 * carries a whole key (lanes_per_op is a CUDA knob). */
static void resolve_geometry(hive_config *c)
{
    uint32_t gpu_slots = !HIVE_DESIGN_TAGGED(c->design)      ? 4u
                         : c->design == HIVE_DESIGN_ICEBERG_M ? 32u
                                                              : 16u;
    if (c->bucket_slots == 0)
        c->bucket_slots = c->backend == HIVE_BACKEND_CUDA ? gpu_slots : c->key_width == HIVE_KV64 ? 4u : 8u;
    if (c->lanes_per_op == 0)
        c->lanes_per_op = 1;
}

/* The chaining design's node pool as a share of the table (its
 * stash_fraction, docs/designs/chaining.md): the one asked for, or enough
 * for the overflow at max_load_factor, whichever is more.  One head bucket a
 * key overflows where the Hive design's two buckets do not: a bucket of S
 * slots holding Poisson(load * S) keys overflows by E = sum over x > S of
 * (x - S) p(x) pairs, 0.57 at S = 4 and load 0.9 (16% of the keys), 0.73 at
 * S = 8, 0.94 at S = 32; between round boundaries (after hive_reserve) the
 * unsplit buckets carry more of the keys, and the overflow is up to 1.3
 * times that.  A pool of 3.5 E / S buckets a bucket holds it in under 30% of
 * its slots (40% between boundaries), below the half that marks a crowded
 * stash (api/policy.c: over it the table grows), and in under 60% of its
 * nodes (a quarter of them may be chains' partly filled last nodes).  At
 * most half the table's buckets (S = 4 at load 0.9 asks for that).  0 stays
 * 0: no pool, no chains. */
static double chain_pool_fraction(double asked, double load, uint32_t S)
{
    if (asked <= 0)
        return 0;
    double lambda = load * S, p = exp(-lambda), over = 0;
    for (uint32_t x = 1; x < S + 64 + 8 * S; x++) {
        p *= lambda / x;
        if (x > S)
            over += (x - S) * p;
    }
    double need = fmin(3.5 * over / S, 0.5);
    return asked > need ? asked : need;
}

hive_status hive_config_resolve(const hive_config *config, hive_config *resolved,
                                const hive_backend_ops **ops)
{
    hive_config c;
    HIVE_TRY(upgrade_config(config, &c));
    HIVE_TRY(check_config(&c));
    if (c.threads == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        c.threads = cores > 0 ? (uint32_t)cores : 1u;
    }
    *ops = pick_backend(&c);
    if (*ops == NULL)
        return hive_fail(HIVE_ERROR_UNSUPPORTED, "hive_create",
                         "this build of hive has no CUDA backend (built with HIVE_WITH_CUDA=OFF)");
    resolve_geometry(&c);
    if (c.backend == HIVE_BACKEND_CUDA)
        c.absent_filter_bits = 0; /* a CPU table's option (hive.h) */
    if (c.hash_seed == HIVE_HASH_SEED_RANDOM)
        c.hash_seed = hive_hash_seed_draw();
    if (c.design == HIVE_DESIGN_CHAINING)
        c.stash_fraction = chain_pool_fraction(c.stash_fraction, c.max_load_factor, c.bucket_slots);
    *resolved = c;
    return HIVE_SUCCESS;
}
