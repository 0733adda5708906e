/* cuda_kernels64.cu — the KV64 kernels of the Hive design (designs/hive/)
 * (cuda_kernels64_set.cuh).  Each design's kernels compile apart, with its
 * operations inlined, so that neither carries the other's code. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_HIVE
#define K_NAMESPACE hive_kernels_hive
#define K_TABLE hive_cuda_kernels64
#include "cuda_kernels64_set.cuh"
