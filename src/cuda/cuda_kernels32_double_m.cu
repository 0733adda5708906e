/* cuda_kernels32_double_m.cu — the KV32 kernels of the double_m design (the double
 * design with a tag per slot, designs/double/double_m_body.h;
 * cuda_kernels32_set.cuh).  Compiled apart, its operations inlined, as each
 * design's.  No full bits: they are a hint for cuckoo eviction, which this
 * design does not do. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_DOUBLE_M
#define HIVE_ONLY_NAME double_m
#define K_NAMESPACE hive_kernels_double_m
#define K_TABLE hive_cuda_kernels32_double_m
#define K_FULL_HINT 0
#include "cuda_kernels32_set.cuh"
