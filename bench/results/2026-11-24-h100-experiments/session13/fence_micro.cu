// Scratch (session 13): what a gpu-scope fence costs the L2.  Each thread: a
// CAS on a random slot of 600 MB, then (mode 1) fence.acq_rel.gpu, then an
// atomicAnd on a random word of a 2 MB lock array, as an unlock after a
// claim does.  Mode 2: the same with the warp's lanes in four divergent
// groups, each with its own fence (as the locked path's exits are).  Mode 3:
// fence.release.gpu instead.  G keys/s, median of 5; ncu counts L2 requests.
#include <cstdio>
#include <cstdint>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); return 1;} } while (0)
__device__ __forceinline__ uint32_t fmix32(uint32_t h) { h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16; return h; }
__device__ __forceinline__ void fence_ar() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }
__device__ __forceinline__ void fence_rel() { asm volatile("fence.release.gpu;" ::: "memory"); }
__global__ void k(uint64_t *slots, uint32_t *locks, uint64_t nb, uint64_t n, int mode, uint32_t salt) {
  uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < n; w += stride) {
    uint64_t i = w + (threadIdx.x & 31u);
    uint32_t key = fmix32((uint32_t)i * 2654435761u + salt);
    uint64_t b = ((uint64_t)fmix32(key ^ 0x5bd1e995u) * nb) >> 32;
    uint64_t *slot = slots + b * 4 + (key & 3);
    uint64_t seen = atomicCAS((unsigned long long *)slot, 0ull, (unsigned long long)key);
    uint32_t *lw = locks + (b >> 5);
    if (mode == 1) fence_ar();
    if (mode == 3) fence_rel();
    if (mode == 2) {
      switch (key >> 30) { /* four exits, each with its own fence */
      case 0: fence_ar(); atomicAnd(lw, ~1u); break;
      case 1: fence_ar(); atomicAnd(lw, ~2u); break;
      case 2: fence_ar(); atomicAnd(lw, ~4u); break;
      default: fence_ar(); atomicAnd(lw, ~8u); break;
      }
    } else {
      atomicAnd(lw, ~(1u << (b & 31)) | (uint32_t)(seen & 1));
    }
    __syncwarp();
  }
}
int main() {
  uint64_t n = 1ull << 25, nb = (uint64_t)((1ull << 26) / 0.9 / 4);
  uint64_t *slots; uint32_t *locks;
  CK(cudaMalloc(&slots, nb * 32)); CK(cudaMalloc(&locks, nb / 8 + 64));
  CK(cudaMemset(slots, 0, nb * 32)); CK(cudaMemset(locks, 0xff, nb / 8 + 64));
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  const char *names[] = {"CAS, unlock", "CAS, fence.acq_rel, unlock", "CAS, 4 divergent fences+unlocks", "CAS, fence.release, unlock"};
  for (int mode = 0; mode < 4; mode++) {
    float t[6];
    for (int r = 0; r < 6; r++) {
      CK(cudaEventRecord(e0));
      k<<<sms * 4, 256>>>(slots, locks, nb, n, mode, 1000u * r + 7u);
      CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&t[r], e0, e1));
    }
    std::sort(t + 1, t + 6);
    printf("%-36s: %.2f G keys/s\n", names[mode], n / (t[3] * 1e6));
  }
  return 0;
}
