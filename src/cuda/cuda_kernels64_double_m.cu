/* cuda_kernels64_double_m.cu — the KV64 kernels of the double_m design (the double
 * design with a tag per slot, designs/double/double_m_body.h;
 * cuda_kernels64_set.cuh).  Compiled apart, its operations inlined, as each
 * design's. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_DOUBLE_M
#define HIVE_ONLY_NAME double_m
#define K_NAMESPACE hive_kernels_double_m
#define K_TABLE hive_cuda_kernels64_double_m
#include "cuda_kernels64_set.cuh"
