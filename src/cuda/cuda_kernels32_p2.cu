/* cuda_kernels32_p2.cu — the KV32 kernels of the p2 design (designs/p2/)
 * (cuda_kernels32_set.cuh), compiled apart with its operations inlined.  No full bits:
 * they are a hint for cuckoo eviction, which this design does not do. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_P2
#define HIVE_ONLY_NAME p2
#define K_NAMESPACE hive_kernels_p2
#define K_TABLE hive_cuda_kernels32_p2
#define K_FULL_HINT 0
#include "cuda_kernels32_set.cuh"
