/* glib_map.h — GLib's GHashTable for cpu-compare (bench/peers/glib_map.c;
 * built only when CMake finds glib-2.0, which then defines BENCH_HAVE_GLIB).
 * Single-threaded: GLib has no concurrent mode. */
#ifndef HIVE_BENCH_GLIB_MAP_H
#define HIVE_BENCH_GLIB_MAP_H

#include <stdint.h>

/* Inserts the n pairs into a new table, then finds the n keys; times in
 * *ti and *tf.  Returns wrong lookups, plus one if the size is not n (0
 * when right). */
int64_t bench_glib_run(uint32_t bits, uint64_t n, const uint64_t *keys, const uint64_t *values,
                       double *ti, double *tf);

#endif
