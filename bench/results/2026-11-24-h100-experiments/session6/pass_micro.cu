// Scratch: what does a random insert cost in the memory system?  4-slot
// buckets of 64-bit words (32 bytes), 18.6 M buckets (600 MB), keys hashed to
// one bucket; each variant inserts n keys into a fresh table, first-fit, no
// second bucket (a key whose bucket is full is dropped).  Slices of a ninth.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
__device__ __forceinline__ uint32_t fmix32(uint32_t h) { h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16; return h; }
__device__ __forceinline__ void ld2(const uint64_t *p, uint64_t &a, uint64_t &b) {
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
}
// variant 0: CAS slot 0 only (the CAS limit shape)
// variant 1: load the bucket, CAS its first empty slot
// variant 2: CAS slot 0 blind; on failure load the bucket and CAS the frontier
// variant 3: like 1, grid of one resident wave, grid-stride, __syncwarp per key
__global__ void ins(uint64_t *slots, uint64_t nb, uint64_t lo, uint64_t hi, int variant, unsigned long long *placed) {
  uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  unsigned long long ok = 0;
  for (uint64_t w = lo + (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < hi; w += stride) {
    uint64_t i = w + (threadIdx.x & 31u);
    if (i < hi) {
      uint32_t k = fmix32((uint32_t)i * 2654435761u + 12345u);
      uint64_t b = ((uint64_t)fmix32(k ^ 0x5bd1e995u) * nb) >> 32;
      uint64_t *bk = slots + b * 4;
      uint64_t pair = ((uint64_t)k << 32) | k;
      if (variant == 0) {
        ok += atomicCAS((unsigned long long *)bk, ~0ull, pair) == ~0ull;
      } else {
        int done = 0;
        if (variant == 2) done = atomicCAS((unsigned long long *)bk, ~0ull, pair) == ~0ull;
        if (!done) {
          uint64_t s[4];
          ld2(bk, s[0], s[1]); ld2(bk + 2, s[2], s[3]);
          int f = -1;
          for (int j = 3; j >= 0; j--) if ((uint32_t)s[j] == 0xFFFFFFFFu) f = j;
          if (f >= 0) done = atomicCAS((unsigned long long *)(bk + f), ~0ull, pair) == ~0ull;
        }
        ok += done;
      }
    }
    if (variant == 3) __syncwarp();
  }
  unsigned long long sum = __reduce_add_sync(0xffffffffu, (unsigned)ok);
  if ((threadIdx.x & 31) == 0 && sum) atomicAdd(placed, sum);
}
int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], 0, 0) : (1ull << 26);
  uint64_t nb = (uint64_t)(n / 0.9 / 4);
  uint64_t *slots; unsigned long long *placed;
  CK(cudaMalloc(&slots, nb * 32)); CK(cudaMalloc(&placed, 8));
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  for (int rep = 0; rep < 2; rep++)
  for (int variant = 0; variant < 4; variant++) {
    CK(cudaMemset(slots, 0xFF, nb * 32)); CK(cudaMemset(placed, 0, 8));
    unsigned grid = variant == 3 ? sms * 6 : sms * 32;
    printf("variant %d:", variant);
    float total = 0;
    for (int s = 0; s < 9; s++) {
      uint64_t lo = n * s / 9, hi = n * (s + 1) / 9;
      CK(cudaEventRecord(e0));
      ins<<<variant == 3 ? grid : (unsigned)((hi - lo + 255) / 256), 256>>>(slots, nb, lo, hi, variant, placed);
      CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
      float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); total += ms;
      printf(" %.0f", ms * 1000);
    }
    unsigned long long p; CK(cudaMemcpy(&p, placed, 8, cudaMemcpyDeviceToHost));
    printf(" us | all %.2f ms, %.2f G/s, placed %.3f\n", total, n / (total * 1e6), (double)p / n);
  }
  return 0;
}
