/* chaining_body.h — the chaining design's operations for one key width and
 * mode: a key's head bucket, bucket_of(h1), is its one probe bucket, and its
 * overflow goes to a chain of nodes from the node pool instead of the shared
 * stash.  Nothing here but the seam: the probe order (one probe), the
 * placement policy (first fit in the head bucket, no eviction, no moves),
 * and the overflow store (D_OV: chain_body.h); the operations are every
 * probe-sequence design's (core/probe_body.h, core/probe_resize_body.h).
 * Included by designs/instantiate.h once per width and mode, after
 * core/slot_body.h; its functions are name_<width>_chaining.  No include
 * guard: once per instantiation. */
#define D_OP(name) HIVE_PASTE(P_SUFFIX(name), _chaining)
#define D_PROBES 1
#define D_PROBE_HASH(h1, h2, i) hive_chaining_probe_hash((h1), (h2), (i))
/* A pair stays where it was placed until a resize: no slot is ever MOVING. */
#define D_MOVES 0
/* Where a key goes once its head bucket has no room: its chain. */
#define D_OV(name) D_OP(name)

#include "chain_body.h"
#include "../probe_design.h"
