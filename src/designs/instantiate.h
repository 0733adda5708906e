/* instantiate.h — one instantiation of every design for the key width and
 * mode that designs/designs.h has just #defined (P_*): the shared slot
 * protocol, each design's operations (only HIVE_ONLY_DESIGN's where a file
 * defines it: dispatch_body.h), the dispatch, then the #undefs.  No include
 * guard: once per width and mode. */
#include "../core/slot_body.h"
#include "../core/move_body.h"
#if !defined(HIVE_ONLY_DESIGN) || HIVE_ONLY_DESIGN == HIVE_DESIGN_ID_HIVE
#include "hive/protocol_body.h"
#endif
#if !defined(HIVE_ONLY_DESIGN) || HIVE_ONLY_DESIGN == HIVE_DESIGN_ID_DOUBLE
#include "double/double_body.h"
#endif
#if !defined(HIVE_ONLY_DESIGN) || HIVE_ONLY_DESIGN == HIVE_DESIGN_ID_P2
#include "p2/p2_body.h"
#endif
#if !defined(HIVE_ONLY_DESIGN) || HIVE_ONLY_DESIGN == HIVE_DESIGN_ID_ICEBERG
#include "iceberg/iceberg_body.h"
#endif
#if !defined(HIVE_ONLY_DESIGN) || HIVE_ONLY_DESIGN == HIVE_DESIGN_ID_CUCKOO
#include "cuckoo/cuckoo_body.h"
#endif
#if !defined(HIVE_ONLY_DESIGN) || HIVE_ONLY_DESIGN == HIVE_DESIGN_ID_CHAINING
#include "chaining/chaining_body.h"
#endif
#if !defined(HIVE_ONLY_DESIGN) || HIVE_ONLY_DESIGN == HIVE_DESIGN_ID_DOUBLE_M
#include "double/double_m_body.h"
#endif
#if !defined(HIVE_ONLY_DESIGN) || HIVE_ONLY_DESIGN == HIVE_DESIGN_ID_P2_M
#include "p2/p2_m_body.h"
#endif
#if !defined(HIVE_ONLY_DESIGN) || HIVE_ONLY_DESIGN == HIVE_DESIGN_ID_ICEBERG_M
#include "iceberg/iceberg_m_body.h"
#endif
#include "dispatch_body.h"
#include "../core/protocol_end.h"
