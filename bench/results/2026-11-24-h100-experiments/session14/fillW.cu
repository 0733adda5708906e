// Scratch (not committed): fill a pinned table to lf in `slices` hive_insert
// calls; prints per-slice G inserts/s and the insert steps.  For ncu.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include "hive.h"
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
#define HK(x) do { hive_status s_ = (x); if (s_ != HIVE_SUCCESS) { printf("hive %s: %s at %d\n", hive_status_string(s_), hive_last_error(), __LINE__); exit(1);} } while (0)
__device__ uint32_t fmix32(uint32_t h) { h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16; return h; }
__device__ uint64_t fmix64(uint64_t x) { x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33; return x; }
__global__ void gen32(uint32_t *keys, uint32_t *vals, uint64_t n, uint32_t off) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t k = fmix32((uint32_t)i + off);
  while (k >= 0xFFFFFFFCu) k = fmix32(k);
  keys[i] = k; vals[i] = k * 2654435761u;
}
__global__ void gen64(uint64_t *keys, uint64_t *vals, uint64_t n, uint64_t off) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t k = fmix64(i + off);
  while (k >= 0xFFFFFFFFFFFFFFFCull) k = fmix64(k);
  keys[i] = k; vals[i] = k * 0x9E3779B97F4A7C15ull;
}
template <typename K> __global__ void verify(const K *vals, const K *fv, const uint8_t *found, uint64_t n, unsigned long long *bad) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i < n && (!found[i] || fv[i] != vals[i])) atomicAdd(bad, 1ull);
}
__global__ void count_found(const uint8_t *found, uint64_t n, unsigned long long *hits) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i < n && found[i]) atomicAdd(hits, 1ull);
}
int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], 0, 0) : (1ull << 26);
  double lf = argc > 2 ? atof(argv[2]) : 0.9;
  int slices = argc > 3 ? atoi(argv[3]) : 1;
  int kv = argc > 4 ? atoi(argv[4]) : 32;
  int runs = argc > 5 ? atoi(argv[5]) : 1;
  size_t kb = kv == 32 ? 4 : 8;
  void *keys, *vals; uint8_t *found; void *fv;
  CK(cudaMalloc(&keys, n * kb)); CK(cudaMalloc(&vals, n * kb)); CK(cudaMalloc(&found, n)); CK(cudaMalloc(&fv, n * kb));
  unsigned grid = (unsigned)((n + 255) / 256);
  size_t gran = 0; CK(cudaDeviceGetLimit(&gran, cudaLimitMaxL2FetchGranularity));
  if (getenv("GRAN")) { CK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, (size_t)atoi(getenv("GRAN")))); }
  size_t gran2 = 0; CK(cudaDeviceGetLimit(&gran2, cudaLimitMaxL2FetchGranularity));
  printf("L2 fetch granularity: default %zu, now %zu\n", gran, gran2);
  hive_config cfg = HIVE_CONFIG_INIT;
  cfg.backend = HIVE_BACKEND_CUDA; cfg.key_width = kv == 32 ? HIVE_KV32 : HIVE_KV64;
  if (getenv("SLOTS")) cfg.bucket_slots = (uint32_t)atoi(getenv("SLOTS"));
  if (getenv("MAXEV")) cfg.max_evictions = (uint32_t)atoi(getenv("MAXEV"));
  cfg.initial_capacity = (uint64_t)(n / lf + 0.5); cfg.max_load_factor = 1.0; cfg.min_load_factor = 0;
  if (getenv("STASHF")) cfg.stash_fraction = atof(getenv("STASHF"));
  if (getenv("KEEPTOTAL")) cfg.initial_capacity = (uint64_t)(cfg.initial_capacity / (1 + cfg.stash_fraction) + 0.5);
  printf("config: capacity %llu stash_fraction %.3f\n", (unsigned long long)cfg.initial_capacity, cfg.stash_fraction);
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  for (int r = 0; r < runs; r++) {
    if (kv == 32) gen32<<<grid, 256>>>((uint32_t *)keys, (uint32_t *)vals, n, 0x9E3779B9u);
    else gen64<<<grid, 256>>>((uint64_t *)keys, (uint64_t *)vals, n, 0x9E3779B97F4A7C15ull);
    CK(cudaDeviceSynchronize());
    hive_table *t; HK(hive_create(&cfg, &t));
    if (getenv("WARM")) { /* a first insert and a clear: the timed insert then finds the table's pool grown */
      HK(hive_insert(t, n, keys, vals, HIVE_COMBINE_ASSIGN, NULL, NULL)); HK(hive_clear(t, NULL)); CK(cudaDeviceSynchronize());
    }
    printf("run %d n=%llu lf=%.2f kv%d slices:", r, (unsigned long long)n, lf, kv);
    float total = 0;
    for (int s = 0; s < slices; s++) {
      uint64_t lo = n * s / slices, hi = n * (s + 1) / slices;
      CK(cudaEventRecord(e0));
      HK(hive_insert(t, hi - lo, (char *)keys + lo * kb, (char *)vals + lo * kb, HIVE_COMBINE_ASSIGN, NULL, NULL));
      CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
      float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); total += ms;
      printf(" %.2f", (hi - lo) / (ms * 1e6));
    }
    uint64_t size; HK(hive_size(t, &size));
    hive_stats st; HK(hive_stats_get(t, &st));
    printf(" | all %.3f G/s (%.3f ms) | size %llu%s | steps %llu %llu %llu %llu evictions %llu stash %llu/%llu\n", n / (total * 1e6), total,
           (unsigned long long)size, size == n ? "" : " WRONG", (unsigned long long)st.insert_steps[0], (unsigned long long)st.insert_steps[1],
           (unsigned long long)st.insert_steps[2], (unsigned long long)st.insert_steps[3], (unsigned long long)st.evictions, (unsigned long long)st.stash_size, (unsigned long long)st.stash_capacity);
    CK(cudaEventRecord(e0));
    HK(hive_find(t, n, keys, fv, found, NULL));
    CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float fms; CK(cudaEventElapsedTime(&fms, e0, e1));
    unsigned long long *bad, hb = 0; CK(cudaMalloc(&bad, 8)); CK(cudaMemset(bad, 0, 8));
    if (kv == 32) verify<<<grid, 256>>>((uint32_t *)vals, (uint32_t *)fv, found, n, bad); else verify<<<grid, 256>>>((uint64_t *)vals, (uint64_t *)fv, found, n, bad);
    CK(cudaMemcpy(&hb, bad, 8, cudaMemcpyDeviceToHost)); CK(cudaFree(bad));
    printf("    find %.3f G/s%s", n / (fms * 1e6), hb ? " LOST" : " verified");
    /* absent keys: the same generator from another offset (a few may collide: counted) */
    if (kv == 32) gen32<<<grid, 256>>>((uint32_t *)keys, (uint32_t *)vals, n, 0x7F4A7C15u);
    else gen64<<<grid, 256>>>((uint64_t *)keys, (uint64_t *)vals, n, 0x2545F4914F6CDD1Dull);
    CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(e0));
    HK(hive_find(t, n, keys, NULL, found, NULL));
    CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&fms, e0, e1));
    unsigned long long *hits, hh = 0; CK(cudaMalloc(&hits, 8)); CK(cudaMemset(hits, 0, 8));
    count_found<<<grid, 256>>>(found, n, hits);
    CK(cudaMemcpy(&hh, hits, 8, cudaMemcpyDeviceToHost)); CK(cudaFree(hits));
    printf(" | absent %.3f G/s (%llu found)\n", n / (fms * 1e6), hh);
    HK(hive_destroy(t));
  }
  return 0;
}
