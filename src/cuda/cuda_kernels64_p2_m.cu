/* cuda_kernels64_p2_m.cu — the KV64 kernels of the p2_m design (the p2
 * design with a tag per slot, designs/p2/p2_m_body.h;
 * cuda_kernels64_set.cuh).  Compiled apart, its operations inlined, as each
 * design's. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_P2_M
#define HIVE_ONLY_NAME p2_m
#define K_NAMESPACE hive_kernels_p2_m
#define K_TABLE hive_cuda_kernels64_p2_m
#include "cuda_kernels64_set.cuh"
