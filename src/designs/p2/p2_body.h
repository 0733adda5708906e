/* p2_body.h — the p2 design's operations for one key width and mode: two
 * choices over the shared slot protocol.  The seam only (probe.h's two
 * probes, and the placement policy: probe 0 first fit below
 * HIVE_P2_FAST_FILL, lock-free; past it the less full bucket, under the
 * lock); the operations are every probe-sequence design's
 * (core/probe_body.h, core/probe_resize_body.h).  Included by
 * designs/instantiate.h once per width and mode, after core/slot_body.h; its
 * functions are name_<width>_p2.  No include guard: once per instantiation. */
#define D_OP(name) HIVE_PASTE(P_SUFFIX(name), _p2)
#include "seam.h"

#include "../probe_design.h"
