/* probe_design.h — instantiates one probe-sequence design for the key width
 * and mode designs/designs.h has #defined, once the design's body
 * (designs/NAME/NAME_body.h) has #defined its seam (core/probe_body.h lists
 * it: D_OP, D_PROBES, D_PROBE_HASH, D_MOVES, and the optional D_ENDS,
 * D_PREFER, D_LOCKFREE, D_SPREAD_TOMBS, D_EVICT, D_OV, D_TAGS): its operations, its resize steps (thread
 * mode), the entry points of the run-time dispatch (designs/calls_body.h),
 * then the #undefs.  No include guard: once per design, width and mode. */
#include "../core/probe_body.h"
#ifndef P_TILE
#include "../core/probe_resize_body.h"
#endif
#ifndef HIVE_ONLY_DESIGN
#include "calls_body.h"
#endif

#undef D_OP
#undef D_PROBES
#undef D_PROBE_HASH
#undef D_MOVES
#undef D_ENDS
#undef D_PREFER
#undef D_LOCKFREE
#undef D_SPREAD_TOMBS
#undef D_EVICT
#undef D_OV
#include "../core/tag_seam_end.h"
