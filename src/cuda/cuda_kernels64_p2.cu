/* cuda_kernels64_p2.cu — the KV64 kernels of the p2 design (designs/p2/)
 * (cuda_kernels64_set.cuh), compiled apart with its operations inlined. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_P2
#define HIVE_ONLY_NAME p2
#define K_NAMESPACE hive_kernels_p2
#define K_TABLE hive_cuda_kernels64_p2
#include "cuda_kernels64_set.cuh"
