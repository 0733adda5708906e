/* cuda_kernels64_cuckoo.cu — the KV64 kernels of the cuckoo design (designs/cuckoo/)
 * (cuda_kernels64_set.cuh), compiled apart with its operations inlined. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_CUCKOO
#define HIVE_ONLY_NAME cuckoo
#define K_NAMESPACE hive_kernels_cuckoo
#define K_TABLE hive_cuda_kernels64_cuckoo
#include "cuda_kernels64_set.cuh"
