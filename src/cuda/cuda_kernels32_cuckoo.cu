/* cuda_kernels32_cuckoo.cu — the KV32 kernels of the cuckoo design
 * (designs/cuckoo/; cuda_kernels32_set.cuh), compiled apart with its
 * operations inlined.  No full bits: they are the Hive design's hint for its
 * eviction search, which this design's walk does not read. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_CUCKOO
#define HIVE_ONLY_NAME cuckoo
#define K_NAMESPACE hive_kernels_cuckoo
#define K_TABLE hive_cuda_kernels32_cuckoo
#define K_FULL_HINT 0
#include "cuda_kernels32_set.cuh"
