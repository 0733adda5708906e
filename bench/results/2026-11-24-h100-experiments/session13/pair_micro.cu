// Scratch (session 13): does a sector cost one L2 request or two?  A 4-slot
// KV32 bucket is one 32-byte sector, and a scan loads it as two 16-byte
// halves, one instruction each: two requests for one sector.  Paired lanes:
// in each instruction the two lanes of a pair load the two halves of the
// same bucket (one request), the next instruction the partner's bucket, and
// one shuffle exchange gives each lane its own four words.  600 MB of 32-byte
// buckets, 2^26 random keys, one thread per key, G keys/s, median of 5.
#include <cstdio>
#include <cstdint>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); return 1;} } while (0)
__device__ __forceinline__ uint32_t fmix32(uint32_t h) { h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16; return h; }
__device__ __forceinline__ void ld2(const uint64_t *p, uint64_t &a, uint64_t &b) {
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
}
__device__ __forceinline__ uint64_t ld1(const uint64_t *p) { uint64_t a; asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(a) : "l"(p) : "memory"); return a; }
// Each lane gets the 4 words of its own bucket; paired lanes share requests.
__device__ __forceinline__ void ld_paired(const uint64_t *own, uint64_t w[4]) {
  int odd = threadIdx.x & 1;
  const uint64_t *even_b = (const uint64_t *)__shfl_sync(0xffffffffu, (unsigned long long)own, (threadIdx.x & 31) & ~1);
  const uint64_t *odd_b = (const uint64_t *)__shfl_sync(0xffffffffu, (unsigned long long)own, (threadIdx.x & 31) | 1);
  uint64_t e0, e1, o0, o1;
  ld2(even_b + 2 * odd, e0, e1); // half `odd` of the even lane's bucket
  ld2(odd_b + 2 * odd, o0, o1);  // half `odd` of the odd lane's bucket
  // the even lane keeps e (its half 0) and needs half 1 of its bucket (the odd lane's e);
  // the odd lane keeps o (its half 1) and needs half 0 of its bucket (the even lane's o).
  uint64_t give0 = odd ? e0 : o0, give1 = odd ? e1 : o1;
  uint64_t got0 = __shfl_xor_sync(0xffffffffu, give0, 1), got1 = __shfl_xor_sync(0xffffffffu, give1, 1);
  if (odd) { w[0] = got0; w[1] = got1; w[2] = o0; w[3] = o1; }
  else { w[0] = e0; w[1] = e1; w[2] = got0; w[3] = got1; }
}
__global__ void k(uint64_t *slots, uint64_t nb, uint64_t n, int mode, uint32_t salt, unsigned long long *sink) {
  uint64_t stride = (uint64_t)gridDim.x * blockDim.x, acc = 0;
  for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < n; w += stride) {
    uint64_t i = w + (threadIdx.x & 31u);
    uint32_t key = fmix32((uint32_t)i * 2654435761u + salt);
    uint64_t *bk = slots + (((uint64_t)fmix32(key ^ 0x5bd1e995u) * nb) >> 32) * 4;
    uint64_t x[4] = {0, 0, 0, 0};
    if (mode == 0) x[0] = ld1(bk);
    else if (mode == 1 || mode == 3) { ld2(bk, x[0], x[1]); ld2(bk + 2, x[2], x[3]); }
    else ld_paired(bk, x); // 2, 4
    if (mode >= 3) { // read then CAS, as an insert: the first slot whose low word is below the key's bit
      int s = (int)(key & 3);
      atomicCAS((unsigned long long *)(bk + s), (unsigned long long)x[s], (unsigned long long)(x[s] + 1));
    }
    acc += x[0] ^ x[1] ^ x[2] ^ x[3];
    __syncwarp();
  }
  if (acc == 12345) atomicAdd(sink, acc);
}
// Check: paired words equal own words.
__global__ void check(const uint64_t *slots, uint64_t nb, uint64_t n, unsigned long long *bad) {
  uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t key = fmix32((uint32_t)i * 2654435761u + 3u);
  const uint64_t *bk = slots + (((uint64_t)fmix32(key ^ 0x5bd1e995u) * nb) >> 32) * 4;
  uint64_t a[4], b[4];
  ld2(bk, a[0], a[1]); ld2(bk + 2, a[2], a[3]);
  ld_paired(bk, b);
  for (int j = 0; j < 4; j++) if (a[j] != b[j]) atomicAdd(bad, 1ull);
}
__global__ void init(uint64_t *s, uint64_t nw) { for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nw; i += (uint64_t)gridDim.x * blockDim.x) s[i] = i * 0x9E3779B97F4A7C15ull; }
int main() {
  uint64_t n = 1ull << 26, nb = (uint64_t)(n / 0.9 / 4);
  uint64_t *slots; unsigned long long *sink;
  CK(cudaMalloc(&slots, nb * 32)); CK(cudaMalloc(&sink, 8)); CK(cudaMemset(sink, 0, 8));
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  init<<<sms * 8, 256>>>(slots, nb * 4);
  check<<<(unsigned)(n / 256), 256>>>(slots, nb, n, sink);
  unsigned long long bad = 0; CK(cudaMemcpy(&bad, sink, 8, cudaMemcpyDeviceToHost));
  printf("paired load mismatches: %llu\n", bad);
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  const char *names[] = {"one 8-byte load (sector limit)", "own bucket, two 16-byte loads", "paired lanes, two 16-byte loads",
                         "own bucket, then a CAS", "paired lanes, then a CAS"};
  for (int blocks : {3, 8})
  for (int mode = 0; mode < 5; mode++) {
      float t[6];
      for (int r = 0; r < 6; r++) {
        CK(cudaEventRecord(e0));
        k<<<sms * blocks, 256>>>(slots, nb, n, mode, 1000u * r + 7u, sink);
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&t[r], e0, e1));
      }
      std::sort(t + 1, t + 6);
      printf("blocks/SM %d  %-34s: %.2f G keys/s\n", blocks, names[mode], n / (t[3] * 1e6));
  }
  return 0;
}
