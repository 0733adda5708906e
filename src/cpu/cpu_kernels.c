/* cpu_kernels.c — the CPU backend's loops over keys and slots, one body
 * (cpu_kernels_body.h) instantiated for each key width. */
#include <string.h>

#include "core/batch.h"
#include "core/marks.h"
#include "cpu_table.h"

#define K_SUFFIX(name) name##_kv32
#define K_KEY uint32_t
#define K_VAL uint32_t
#define K_SLOT uint64_t
#define K_WORDS 1
#define K_KEY_OF(s) ((uint32_t)(s))
#define K_VAL_OF(s) ((uint32_t)((s) >> 32))
#define K_RESERVED(k) hive_k32_reserved(k)
#define K_HASH1(k) hive_bithash1(k)
#define K_HASH2(k) hive_bithash2(k)
#include "cpu_kernels_body.h"

#define K_SUFFIX(name) name##_kv64
#define K_KEY uint64_t
#define K_VAL uint64_t
#define K_SLOT hive_u128
#define K_WORDS 2
#define K_KEY_OF(s) ((uint64_t)(s))
#define K_VAL_OF(s) ((uint64_t)((s) >> 64))
#define K_RESERVED(k) hive_k64_reserved(k)
#define K_HASH1(k) hive_hash1_k64(k)
#define K_HASH2(k) hive_hash2_k64(k)
#include "cpu_kernels_body.h"
