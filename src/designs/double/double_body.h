/* double_body.h — the double design's operations for one key width and
 * mode: bucketized double hashing over the shared slot protocol.  Nothing
 * here but the seam (probe.h's probe order, and the placement policy: first
 * fit along the probes, no eviction); the operations themselves are every
 * probe-sequence design's (core/probe_body.h, core/probe_resize_body.h).
 * Included by designs/instantiate.h once per width and mode, after
 * core/slot_body.h; its functions are name_<width>_double.  No include
 * guard: once per instantiation. */
#define D_OP(name) HIVE_PASTE(P_SUFFIX(name), _double)
#include "seam.h"

#include "../probe_design.h"
