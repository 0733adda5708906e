/* p2_m_body.h — the p2_m design: the p2 design with a 16-bit tag per
 * slot (WarpSpeed's metadata variant): the same probes and placement
 * (seam.h), its scans reading a bucket's tags before its slots
 * (core/tag_body.h, docs/designs/metadata.md).  Included by
 * designs/instantiate.h once per width and mode, after core/slot_body.h;
 * its functions are name_<width>_p2_m.  No include guard: once per
 * instantiation. */
#define D_OP(name) HIVE_PASTE(P_SUFFIX(name), _p2_m)
#define D_TAGS 1
#include "seam.h"

#include "../probe_design.h"
