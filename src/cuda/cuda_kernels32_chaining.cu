/* cuda_kernels32_chaining.cu — the KV32 kernels of the chaining design
 * (designs/chaining/; cuda_kernels32_set.cuh).  Each design's kernels compile
 * apart, with its operations inlined, so that none carries another's code.
 * No full bits: they are a hint for cuckoo eviction, which this design does
 * not do. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_CHAINING
#define HIVE_ONLY_NAME chaining
#define K_NAMESPACE hive_kernels_chaining
#define K_TABLE hive_cuda_kernels32_chaining
#define K_FULL_HINT 0
#include "cuda_kernels32_set.cuh"
