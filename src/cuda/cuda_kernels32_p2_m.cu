/* cuda_kernels32_p2_m.cu — the KV32 kernels of the p2_m design (the p2
 * design with a tag per slot, designs/p2/p2_m_body.h;
 * cuda_kernels32_set.cuh).  Compiled apart, its operations inlined, as each
 * design's.  No full bits: they are a hint for cuckoo eviction, which this
 * design does not do. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_P2_M
#define HIVE_ONLY_NAME p2_m
#define K_NAMESPACE hive_kernels_p2_m
#define K_TABLE hive_cuda_kernels32_p2_m
#define K_FULL_HINT 0
#include "cuda_kernels32_set.cuh"
