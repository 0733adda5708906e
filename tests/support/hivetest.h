/* hivetest.h — everything a hive test includes: checks and exit codes
 * (check.h), seeded random numbers (rng.h), the backend under test and its
 * table memory (target.h), the reference map (refmap.h), shared content and
 * stats checks (verify.h), and batches run against the reference (model.h). */
#ifndef HT_HIVETEST_H
#define HT_HIVETEST_H

#include "hive.h"

#include "check.h"
#include "model.h"
#include "refmap.h"
#include "rng.h"
#include "target.h"
#include "verify.h"

#endif
