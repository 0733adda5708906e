/* cuda_kernels64_chaining.cu — the KV64 kernels of the chaining design
 * (designs/chaining/; cuda_kernels64_set.cuh).  Each design's kernels compile
 * apart, with its operations inlined, so that none carries another's code. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_CHAINING
#define HIVE_ONLY_NAME chaining
#define K_NAMESPACE hive_kernels_chaining
#define K_TABLE hive_cuda_kernels64_chaining
#include "cuda_kernels64_set.cuh"
