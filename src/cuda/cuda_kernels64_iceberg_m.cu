/* cuda_kernels64_iceberg_m.cu — the KV64 kernels of the iceberg_m design (the iceberg
 * design with a tag per slot, designs/iceberg/iceberg_m_body.h;
 * cuda_kernels64_set.cuh).  Compiled apart, its operations inlined, as each
 * design's. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_ICEBERG_M
#define HIVE_ONLY_NAME iceberg_m
#define K_NAMESPACE hive_kernels_iceberg_m
#define K_TABLE hive_cuda_kernels64_iceberg_m
#include "cuda_kernels64_set.cuh"
