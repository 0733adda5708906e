/* cuda_kernels32_iceberg_m.cu — the KV32 kernels of the iceberg_m design (the iceberg
 * design with a tag per slot, designs/iceberg/iceberg_m_body.h;
 * cuda_kernels32_set.cuh).  Compiled apart, its operations inlined, as each
 * design's.  No full bits: they are a hint for cuckoo eviction, which this
 * design does not do. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_ICEBERG_M
#define HIVE_ONLY_NAME iceberg_m
#define K_NAMESPACE hive_kernels_iceberg_m
#define K_TABLE hive_cuda_kernels32_iceberg_m
#define K_FULL_HINT 0
#include "cuda_kernels32_set.cuh"
