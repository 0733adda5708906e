// Scratch: is a random read's cost per L2 request or per sector?  600 MB of
// 32-byte buckets, 2^26 random keys, one thread per key: a 16-byte load, an
// 8-byte load, both 16-byte halves of the bucket, or the second half only
// for a share of keys (after the first came back).  G keys/s, median of 5.
#include <cstdio>
#include <cstdint>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); return 1;} } while (0)
__device__ __forceinline__ uint32_t fmix32(uint32_t h) { h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16; return h; }
__device__ __forceinline__ void ld2(const uint64_t *p, uint64_t &a, uint64_t &b) {
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
}
__device__ __forceinline__ uint64_t ld1(const uint64_t *p) { uint64_t a; asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(a) : "l"(p) : "memory"); return a; }
__global__ void k(const uint64_t *slots, uint64_t nb, uint64_t n, int mode, uint32_t share, uint32_t salt, unsigned long long *sink) {
  uint64_t stride = (uint64_t)gridDim.x * blockDim.x, acc = 0;
  for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < n; w += stride) {
    uint64_t i = w + (threadIdx.x & 31u);
    if (i < n) {
      uint32_t key = fmix32((uint32_t)i * 2654435761u + salt);
      const uint64_t *bk = slots + (((uint64_t)fmix32(key ^ 0x5bd1e995u) * nb) >> 32) * 4;
      uint64_t a = 0, b = 0, c = 0, d = 0;
      if (mode == 0) ld2(bk, a, b);
      else if (mode == 1) a = ld1(bk);
      else if (mode == 2) { ld2(bk, a, b); ld2(bk + 2, c, d); }
      else { ld2(bk, a, b); if (fmix32(key + (uint32_t)(a & 1)) < share) ld2(bk + 2, c, d); }
      acc += a ^ b ^ c ^ d;
    }
    __syncwarp();
  }
  if (acc == 12345) atomicAdd(sink, acc);
}
int main() {
  uint64_t n = 1ull << 26, nb = (uint64_t)(n / 0.9 / 4);
  uint64_t *slots; unsigned long long *sink;
  CK(cudaMalloc(&slots, nb * 32)); CK(cudaMalloc(&sink, 8)); CK(cudaMemset(slots, 0, nb * 32));
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  const char *names[] = {"one 16-byte load", "one 8-byte load", "two 16-byte loads (the sector)", "16 bytes, then the other 16 for a share"};
  for (int mode = 0; mode < 4; mode++)
    for (double sh : {0.0, 0.5, 0.75}) {
      if ((mode < 3) != (sh == 0.0)) continue;
      float t[6];
      for (int r = 0; r < 6; r++) {
        CK(cudaEventRecord(e0));
        k<<<sms * 8, 256>>>(slots, nb, n, mode, (uint32_t)(sh * 4294967295.0), 1000u * r + 7u, sink);
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&t[r], e0, e1));
      }
      std::sort(t + 1, t + 6);
      printf("%-42s share %.2f: %.2f G keys/s\n", names[mode], sh, n / (t[3] * 1e6));
    }
  return 0;
}
