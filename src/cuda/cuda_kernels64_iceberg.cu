/* cuda_kernels64_iceberg.cu — the KV64 kernels of the iceberg design (designs/iceberg/)
 * (cuda_kernels64_set.cuh), compiled apart with its operations inlined. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_ICEBERG
#define HIVE_ONLY_NAME iceberg
#define K_NAMESPACE hive_kernels_iceberg
#define K_TABLE hive_cuda_kernels64_iceberg
#include "cuda_kernels64_set.cuh"
