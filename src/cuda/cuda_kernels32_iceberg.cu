/* cuda_kernels32_iceberg.cu — the KV32 kernels of the iceberg design (designs/iceberg/)
 * (cuda_kernels32_set.cuh), compiled apart with its operations inlined.  No full bits:
 * they are a hint for cuckoo eviction, which this design does not do. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_ICEBERG
#define HIVE_ONLY_NAME iceberg
#define K_NAMESPACE hive_kernels_iceberg
#define K_TABLE hive_cuda_kernels32_iceberg
#define K_FULL_HINT 0
#include "cuda_kernels32_set.cuh"
