/* names.h — every design's name, one table for the whole code base: config
 * validation (api/config.c), the tests' --design (tests/support/target.c)
 * and hive-bench's --design and geometry column (bench/harness).  Host C
 * only; the list itself is core/view.h's HIVE_DESIGNS. */
#ifndef HIVE_DESIGNS_NAMES_H
#define HIVE_DESIGNS_NAMES_H

#include <string.h>

#include "hive.h"
#include "../core/view.h"

/* The public enum and the IDs the device code uses are one numbering. */
#define HIVE_DESIGN_SAME_ID(ID, name)                                                            \
    _Static_assert((int)HIVE_DESIGN_##ID == HIVE_DESIGN_ID_##ID, "hive_design and HIVE_DESIGN_ID_" #ID);
HIVE_DESIGNS(HIVE_DESIGN_SAME_ID)
#undef HIVE_DESIGN_SAME_ID

/* Every design's name, by enum value. */
#define HIVE_DESIGN_NAME_ENTRY(ID, name) [HIVE_DESIGN_ID_##ID] = #name,
static const char *const hive_design_names[] = {HIVE_DESIGNS(HIVE_DESIGN_NAME_ENTRY)};
#undef HIVE_DESIGN_NAME_ENTRY
#define HIVE_DESIGN_COUNT (sizeof hive_design_names / sizeof hive_design_names[0])

/* The names, for usage messages: "hive|double|...". */
#define HIVE_DESIGN_CHOICE(ID, name) "|" #name
#define HIVE_DESIGN_CHOICES ("hive" HIVE_PROBE_DESIGNS(HIVE_DESIGN_CHOICE))

/* d's name, or NULL if d is no design. */
static inline const char *hive_design_name(int d)
{
    return d >= 0 && (size_t)d < HIVE_DESIGN_COUNT ? hive_design_names[d] : NULL;
}

/* The design named s: 1 with *d set, or 0 if s names none. */
static inline int hive_design_parse(const char *s, hive_design *d)
{
    for (size_t i = 0; i < HIVE_DESIGN_COUNT; i++)
        if (hive_design_names[i] && strcmp(s, hive_design_names[i]) == 0) {
            *d = (hive_design)i;
            return 1;
        }
    return 0;
}

/* The design whose probes and placement a tagged design shares (its tags
 * aside, designs/NAME/NAME_m_body.h): d itself for the others. */
static inline hive_design hive_design_untagged(hive_design d)
{
    switch (d) {
    case HIVE_DESIGN_DOUBLE_M:
        return HIVE_DESIGN_DOUBLE;
    case HIVE_DESIGN_P2_M:
        return HIVE_DESIGN_P2;
    case HIVE_DESIGN_ICEBERG_M:
        return HIVE_DESIGN_ICEBERG;
    default:
        return d;
    }
}

/* Whether a churned table of the design gets its tombstones back as free
 * slots (api/policy.c, hive_reclaim_tombs).  Measured on the aging
 * workload (H200, both widths; docs/perf.md, "Designs under churn"): the
 * Hive design, double and p2 ran 3-27% faster, and cuckoo held its memory
 * where it had doubled; the iceberg, chaining and the tagged designs ran
 * 2-19% slower, so they keep their tombstones until a resize. */
static inline int hive_design_reclaims_tombs(hive_design d)
{
    switch (d) {
    case HIVE_DESIGN_HIVE:
    case HIVE_DESIGN_DOUBLE:
    case HIVE_DESIGN_P2:
    case HIVE_DESIGN_CUCKOO:
        return 1;
    default:
        return 0;
    }
}

/* The load (keys per slot) up to which a design places all but about 1 key
 * in 400 in its buckets, leaving the rest to a stash of 1% of the slots that
 * is relieved once half full (api/policy.c): past it a table of that design
 * grows for rejected keys below max_load_factor, so the policy makes room
 * for no more than this (hive_reserve, growth, shrinking).  Two or three choices
 * over small buckets run out first: a simulation of p2's placement (first
 * fit below 3/4, then the less full) and the iceberg's (the front yard,
 * then the less full back-yard bucket) over random hashes gave these, per
 * slots per bucket (docs/designs/p2.md, iceberg.md).  The Hive design
 * (cuckoo eviction) and the double design (16 probes) hold any
 * max_load_factor, and the chaining design sizes its node pool for it
 * (api/config.c). */
static inline double hive_design_load_cap(hive_design d, uint32_t slots)
{
    switch (hive_design_untagged(d)) {
    case HIVE_DESIGN_P2:
        return slots <= 4 ? 0.6 : slots <= 8 ? 0.8 : 0.9;
    case HIVE_DESIGN_ICEBERG:
        return slots <= 4 ? 0.6 : slots <= 8 ? 0.75 : slots <= 16 ? 0.85 : 0.9;
    default:
        return 1.0;
    }
}

#endif
