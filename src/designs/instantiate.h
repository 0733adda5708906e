/* instantiate.h — one instantiation of every design for the key width and
 * mode that designs/designs.h has just #defined (P_*): the shared slot
 * protocol, each design's operations, the dispatch, then the #undefs.  No
 * include guard: once per width and mode. */
#include "../core/slot_body.h"
#include "hive/protocol_body.h"
#include "double/double_body.h"
#include "dispatch_body.h"
#include "../core/protocol_end.h"
