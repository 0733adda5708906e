/* cuda_kernels32_double.cu — the KV32 kernels of the double design
 * (designs/double/; cuda_kernels32_set.cuh).  Each design's kernels compile
 * apart, with its operations inlined, so that neither carries the other's
 * code.  No full bits: they are a hint for cuckoo eviction, which this design
 * does not do. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_DOUBLE
#define HIVE_ONLY_NAME double
#define K_NAMESPACE hive_kernels_double
#define K_TABLE hive_cuda_kernels32_double
#define K_FULL_HINT 0
#include "cuda_kernels32_set.cuh"
