// Scratch: is the other 32-byte half of a 64-byte L2 fetch free?  600 MB of
// 32-byte buckets; n random keys; per key: read bucket b; then (for a share p
// of keys, p from the data) a second read of: its buddy b^1, or an
// independent random bucket.  G keys/s, median of 5.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
__device__ __forceinline__ uint32_t fmix32(uint32_t h) { h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16; return h; }
__device__ __forceinline__ void ld2(const uint64_t *p, uint64_t &a, uint64_t &b) {
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
}
__device__ __forceinline__ uint64_t bucket_sum(const uint64_t *bk) { uint64_t a, b, c, d; ld2(bk, a, b); ld2(bk + 2, c, d); return a ^ b ^ c ^ d; }
// mode 0: b only; 1: b then b^1 (share p); 2: b then random b2 (share p); 3: 64 bytes (b and b^1) at once;
// 4: b, CAS in b; 5: b, CAS in b, then (share p) b^1 and CAS there; 6: same with random b2
__global__ void k(uint64_t *slots, uint64_t nb, uint64_t n, int mode, uint32_t pthresh, uint32_t salt, unsigned long long *sink) {
  uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  uint64_t acc = 0;
  for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < n; w += stride) {
    uint64_t i = w + (threadIdx.x & 31u);
    if (i < n) {
      uint32_t key = fmix32((uint32_t)i * 2654435761u + salt);
      uint64_t b = ((uint64_t)fmix32(key ^ 0x5bd1e995u) * nb) >> 32;
      uint64_t *bk = slots + b * 4;
      uint64_t x = mode == 3 ? bucket_sum(slots + (b & ~1ull) * 4) ^ bucket_sum(slots + (b | 1ull) * 4) : bucket_sum(bk);
      if (mode >= 4) x ^= atomicCAS((unsigned long long *)(bk + (key & 3)), x, x + key);
      int second = (fmix32(key + (uint32_t)x * 0u + 77u) < pthresh) && (x != 1);  // depends on the first read
      if (second && (mode == 1 || mode == 2 || mode == 5 || mode == 6)) {
        uint64_t b2 = (mode == 1 || mode == 5) ? (b ^ 1ull) : (((uint64_t)fmix32(key ^ 0x1b873593u) * nb) >> 32);
        uint64_t y = bucket_sum(slots + b2 * 4);
        if (mode >= 5) y ^= atomicCAS((unsigned long long *)(slots + b2 * 4 + (key & 3)), y, y + key);
        x ^= y;
      }
      acc += x;
    }
    __syncwarp();
  }
  if (acc == 12345) atomicAdd(sink, acc);
}
int main(int argc, char **argv) {
  uint64_t n = 1ull << 26;
  uint64_t nb = (uint64_t)(n / 0.9 / 4) & ~1ull;
  uint64_t *slots; unsigned long long *sink;
  CK(cudaMalloc(&slots, nb * 32)); CK(cudaMalloc(&sink, 8)); CK(cudaMemset(slots, 0, nb * 32));
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  const char *names[] = {"b only", "b then b^1", "b then random b2", "64 B at once", "b + CAS", "b + CAS, then b^1 + CAS", "b + CAS, then b2 + CAS"};
  double shares[] = {1.0, 0.3};
  for (int mode = 0; mode < 7; mode++)
    for (int si = 0; si < 2; si++) {
      if ((mode == 0 || mode == 3 || mode == 4) && si == 1) continue;
      uint32_t pth = (uint32_t)(shares[si] * 4294967295.0);
      for (int blocks : {3, 8}) {
        float t[6];
        for (int r = 0; r < 6; r++) {
          CK(cudaEventRecord(e0));
          k<<<sms * blocks, 256>>>(slots, nb, n, mode, pth, 1000u * r + 7u, sink);
          CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
          CK(cudaEventElapsedTime(&t[r], e0, e1));
        }
        std::sort(t + 1, t + 6);
        printf("%-26s share %.1f blocks/SM %d: %.2f G keys/s (%.3f ms)\n", names[mode], (mode == 0 || mode == 3 || mode == 4) ? 0.0 : shares[si], blocks, n / (t[3] * 1e6), t[3]);
      }
    }
  return 0;
}
