/* cuda_kernels64_double.cu — the KV64 kernels of the double design (designs/double/)
 * (cuda_kernels64_set.cuh).  Each design's kernels compile apart, with its
 * operations inlined, so that neither carries the other's code. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_DOUBLE
#define HIVE_ONLY_NAME double
#define K_NAMESPACE hive_kernels_double
#define K_TABLE hive_cuda_kernels64_double
#include "cuda_kernels64_set.cuh"
