/* cuda_kernels32.cu — the KV32 kernels of the Hive design (designs/hive/)
 * (cuda_kernels32_set.cuh).  Each design's kernels compile apart, with its
 * operations inlined, so that neither carries the other's code. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_HIVE
#define K_NAMESPACE hive_kernels_hive
#define K_TABLE hive_cuda_kernels32
#define K_FULL_HINT 1
#include "cuda_kernels32_set.cuh"
