// Scratch experiment (not committed): does inserting a batch in an order that
// keeps each stretch of the batch inside an L2-sized region of the table
// speed up hive_insert?  Keys partitioned by their first bucket into P ranges.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cub/cub.cuh>
#include "hive.h"
#include "hash/bithash.h"
#include "core/index.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
#define HK(x) do { hive_status s_ = (x); if (s_ != HIVE_SUCCESS) { printf("hive %s: %s at %d\n", hive_status_string(s_), hive_last_error(), __LINE__); exit(1);} } while (0)

__device__ uint32_t fmix32(uint32_t h) { h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16; return h; }

__global__ void gen(uint32_t *keys, uint32_t *vals, uint64_t n, uint32_t off) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t k = fmix32((uint32_t)i + off);
  while (k >= 0xFFFFFFFCu) k = fmix32(k);
  keys[i] = k; vals[i] = k * 2654435761u;
}
__global__ void parts(const uint32_t *keys, const uint32_t *vals, uint32_t *part, uint64_t *pair, uint64_t n, hive_index ix, uint64_t P, uint64_t buckets) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t b1 = hive_bucket_of(ix, hive_bithash1(keys[i]));
  part[i] = (uint32_t)(b1 * P / buckets);
  pair[i] = ((uint64_t)vals[i] << 32) | keys[i];
}
struct p16 { uint64_t pair; uint32_t idx, pad; };
__global__ void parts16(const uint32_t *keys, const uint32_t *vals, uint32_t *part, p16 *pair, uint64_t n, hive_index ix, uint64_t P, uint64_t buckets) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t b1 = hive_bucket_of(ix, hive_bithash1(keys[i]));
  part[i] = (uint32_t)(b1 * P / buckets);
  pair[i].pair = ((uint64_t)vals[i] << 32) | keys[i]; pair[i].idx = (uint32_t)i;
}
__global__ void unpack(const uint64_t *pair, uint32_t *keys, uint32_t *vals, uint64_t n) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  keys[i] = (uint32_t)pair[i]; vals[i] = (uint32_t)(pair[i] >> 32);
}
static int bits_for(uint64_t P) { int b = 0; while ((1ull << b) < P) b++; return b; }

int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], 0, 0) : (1ull << 26);
  double lf = 0.9;
  int runs = getenv("RUNS") ? atoi(getenv("RUNS")) : 3;
  uint32_t *keys, *vals, *k2, *v2, *part, *part2, *fv; uint64_t *pair, *pair2; p16 *q, *q2; uint8_t *found;
  CK(cudaMalloc(&keys, n * 4)); CK(cudaMalloc(&vals, n * 4)); CK(cudaMalloc(&k2, n * 4)); CK(cudaMalloc(&v2, n * 4));
  CK(cudaMalloc(&part, n * 4)); CK(cudaMalloc(&part2, n * 4)); CK(cudaMalloc(&pair, n * 8)); CK(cudaMalloc(&pair2, n * 8));
  CK(cudaMalloc(&q, n * 16)); CK(cudaMalloc(&q2, n * 16)); CK(cudaMalloc(&fv, n * 4)); CK(cudaMalloc(&found, n));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  unsigned grid = (unsigned)((n + 255) / 256);
  hive_config cfg = HIVE_CONFIG_INIT;
  cfg.backend = HIVE_BACKEND_CUDA; cfg.initial_capacity = (uint64_t)(n / lf + 0.5); cfg.max_load_factor = 1.0; cfg.min_load_factor = 0;
  std::vector<uint64_t> Ps;
  for (int a = 2; a < argc; a++) Ps.push_back(strtoull(argv[a], 0, 0));
  if (Ps.empty()) Ps = {1, 16, 32, 64, 256, 0};
  printf("n=%llu lf=%.2f\n", (unsigned long long)n, lf);
  printf("%10s %8s %10s %10s %10s %10s %8s %8s\n", "P", "bits", "sort8 ms", "sort16 ms", "ins ms", "ins G/s", "evict", "find G/s");
  for (uint64_t P : Ps) {
    std::vector<float> ts, ti, tf, tq;
    uint64_t ev = 0;
    for (int r = -1; r < runs; r++) {
      gen<<<grid, 256>>>(keys, vals, n, 0x9E3779B9u * (uint32_t)(r + 2));
      CK(cudaGetLastError());
      hive_table *t; HK(hive_create(&cfg, &t));
      hive_stats st; HK(hive_stats_get(t, &st));
      uint64_t buckets = st.buckets; uint64_t PP = P ? P : buckets;
      hive_index ix = hive_index_for(buckets);
      const uint32_t *ik = keys, *iv = vals;
      float ms_sort = 0, ms_sort16 = 0;
      if (PP > 1) {
        int eb = bits_for(PP);
        parts<<<grid, 256>>>(keys, vals, part, pair, n, ix, PP, buckets);
        size_t tb = 0; void *tmp = 0;
        CK(cub::DeviceRadixSort::SortPairs(tmp, tb, part, part2, pair, pair2, (int64_t)n, 0, eb));
        CK(cudaMalloc(&tmp, tb));
        CK(cudaEventRecord(e0));
        CK(cub::DeviceRadixSort::SortPairs(tmp, tb, part, part2, pair, pair2, (int64_t)n, 0, eb));
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms_sort, e0, e1));
        CK(cudaFree(tmp));
        // with an index payload (16 bytes)
        parts16<<<grid, 256>>>(keys, vals, part, q, n, ix, PP, buckets);
        tb = 0; tmp = 0;
        CK(cub::DeviceRadixSort::SortPairs(tmp, tb, part, part2, q, q2, (int64_t)n, 0, eb));
        CK(cudaMalloc(&tmp, tb));
        CK(cudaEventRecord(e0));
        CK(cub::DeviceRadixSort::SortPairs(tmp, tb, part, part2, q, q2, (int64_t)n, 0, eb));
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms_sort16, e0, e1));
        CK(cudaFree(tmp));
        unpack<<<grid, 256>>>(pair2, k2, v2, n);
        CK(cudaDeviceSynchronize());
        ik = k2; iv = v2;
      }
      CK(cudaDeviceSynchronize());
      CK(cudaEventRecord(e0));
      HK(hive_insert(t, n, ik, iv, HIVE_COMBINE_ASSIGN, NULL, NULL));
      CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
      float ms_ins; CK(cudaEventElapsedTime(&ms_ins, e0, e1));
      uint64_t size; HK(hive_size(t, &size));
      if (size != n) { printf("SIZE %llu != %llu\n", (unsigned long long)size, (unsigned long long)n); exit(1); }
      HK(hive_stats_get(t, &st));
      CK(cudaEventRecord(e0));
      HK(hive_find(t, n, keys, fv, found, NULL));
      CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
      float ms_find; CK(cudaEventElapsedTime(&ms_find, e0, e1));
      std::vector<uint8_t> hf(n); CK(cudaMemcpy(hf.data(), found, n, cudaMemcpyDeviceToHost));
      uint64_t miss = 0; for (uint64_t i = 0; i < n; i++) miss += !hf[i];
      if (miss) { printf("MISSING %llu\n", (unsigned long long)miss); exit(1); }
      HK(hive_destroy(t));
      if (r >= 0) { ts.push_back(ms_sort); tq.push_back(ms_sort16); ti.push_back(ms_ins); tf.push_back(ms_find); ev = st.insert_steps[2]; }
    }
    std::sort(ts.begin(), ts.end()); std::sort(ti.begin(), ti.end()); std::sort(tf.begin(), tf.end()); std::sort(tq.begin(), tq.end());
    float mi = ti[runs / 2];
    printf("%10llu %8d %10.3f %10.3f %10.3f %10.3f %8.3f %8.2f\n", (unsigned long long)P, P ? bits_for(P) : -1, ts[runs / 2], tq[runs / 2], mi, n / (mi * 1e6), (double)ev / n, n / (tf[runs / 2] * 1e6));
  }
  return 0;
}
