/* iceberg_body.h — the iceberg design's operations for one key width and
 * mode over the shared slot protocol.  The seam only (probe.h's three
 * probes, and the placement policy: the front yard, probe 0, first fit and
 * lock-free; once it has no free slot, the less full of the back-yard
 * buckets, probes 1 and 2, under probe 0's lock); the operations are every
 * probe-sequence design's (core/probe_body.h, core/probe_resize_body.h).
 * Included by designs/instantiate.h once per width and mode, after
 * core/slot_body.h; its functions are name_<width>_iceberg.  No include
 * guard: once per instantiation. */
#define D_OP(name) HIVE_PASTE(P_SUFFIX(name), _iceberg)
#include "seam.h"

#include "../probe_design.h"
