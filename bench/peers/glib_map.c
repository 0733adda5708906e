/* glib_map.c — GLib's GHashTable for cpu-compare (see glib_map.h).  Keys
 * and values are stored in the pointers themselves (g_direct_equal), hashed
 * by g_direct_hash for KV32 and by a folding mix for KV64, whose high half
 * g_direct_hash would drop. */
#define _POSIX_C_SOURCE 200809L

#include "glib_map.h"

#include <glib.h>

#include "harness/harness.h"

static guint fold_hash(gconstpointer p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (guint)x;
}

int64_t bench_glib_run(uint32_t bits, uint64_t n, const uint64_t *keys, const uint64_t *values,
                       double *ti, double *tf)
{
    GHashTable *h = g_hash_table_new(bits == 32 ? g_direct_hash : fold_hash, g_direct_equal);
    double t0 = bench_now();
    for (uint64_t i = 0; i < n; i++)
        g_hash_table_insert(h, (gpointer)(uintptr_t)keys[i], (gpointer)(uintptr_t)values[i]);
    *ti = bench_now() - t0;
    int64_t bad = 0;
    t0 = bench_now();
    for (uint64_t i = 0; i < n; i++) {
        gpointer v = NULL;
        if (!g_hash_table_lookup_extended(h, (gconstpointer)(uintptr_t)keys[i], NULL, &v) ||
            (uint64_t)(uintptr_t)v != values[i])
            bad++;
    }
    *tf = bench_now() - t0;
    if (g_hash_table_size(h) != n)
        bad++;
    g_hash_table_destroy(h);
    return bad;
}
