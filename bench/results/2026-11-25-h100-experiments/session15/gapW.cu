// Scratch (not committed): how much of a fill's event-timed time is the host's work before the first
// GPU operation of hive_insert. (a) events around hive_insert on an idle GPU; (b) the same with a spin
// kernel queued before the first event, so that the host's preamble overlaps it.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include "hive.h"
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
#define HK(x) do { hive_status s_ = (x); if (s_ != HIVE_SUCCESS) { printf("hive %s: %s at %d\n", hive_status_string(s_), hive_last_error(), __LINE__); exit(1);} } while (0)
__device__ uint32_t fmix32(uint32_t h) { h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16; return h; }
__global__ void gen32(uint32_t *keys, uint32_t *vals, uint64_t n, uint32_t off) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t k = fmix32((uint32_t)i + off);
  while (k >= 0xFFFFFFFCu) k = fmix32(k);
  keys[i] = k; vals[i] = k * 2654435761u;
}
__global__ void spin(long long ns) { long long t0 = clock64(); while (clock64() - t0 < ns) {} }
int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], 0, 0) : (1ull << 26);
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  uint32_t *keys, *vals; CK(cudaMalloc(&keys, n * 4)); CK(cudaMalloc(&vals, n * 4));
  hive_config cfg = HIVE_CONFIG_INIT; cfg.backend = HIVE_BACKEND_CUDA; cfg.key_width = HIVE_KV32;
  cfg.initial_capacity = (uint64_t)(n / 0.9 + 0.5); cfg.max_load_factor = 1.0; cfg.min_load_factor = 0;
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  for (int r = 0; r < 2 * runs + 2; r++) {
    int spun = r & 1;
    gen32<<<(unsigned)((n + 255) / 256), 256>>>(keys, vals, n, 0x9E3779B9u + r);
    hive_table *t; HK(hive_create(&cfg, &t));
    CK(cudaDeviceSynchronize());
    if (spun) spin<<<1, 1>>>(2000000); /* about 1 ms */
    CK(cudaEventRecord(e0, 0));
    HK(hive_insert(t, n, keys, vals, HIVE_COMBINE_ASSIGN, NULL, 0));
    CK(cudaEventRecord(e1, 0)); CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
    if (r >= 2) printf("%s %.3f ms %.3f G/s\n", spun ? "preamble hidden" : "idle GPU       ", ms, n / (ms * 1e6));
    HK(hive_destroy(t));
  }
  return 0;
}
