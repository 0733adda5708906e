// Scratch (not committed): the fixed cost of a hive call.  Median per call of
// hive_insert / hive_find on small batches (events around the call, and host
// time), and the host cost of one occupancy query.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include "hive.h"
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
#define HK(x) do { hive_status s_ = (x); if (s_ != HIVE_SUCCESS) { printf("hive %s: %s at %d\n", hive_status_string(s_), hive_last_error(), __LINE__); exit(1);} } while (0)
__global__ void gen(uint32_t *k, uint32_t *v, uint64_t n) { uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; if (i < n) { uint32_t h = (uint32_t)i * 2654435761u + 12345u; h ^= h >> 15; h *= 0x2c1b3c6du; h ^= h >> 12; if (h >= 0xFFFFFFFCu) h = 7; k[i] = h; v[i] = (uint32_t)i; } }
__global__ void dummy(int *p) { if (p) p[threadIdx.x] = 0; }
static double med(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
int main(int argc, char **argv) {
  uint64_t batch = argc > 1 ? strtoull(argv[1], 0, 0) : 1024; int calls = argc > 2 ? atoi(argv[2]) : 200;
  uint64_t n = batch * calls;
  uint32_t *k, *v, *fv; uint8_t *found; CK(cudaMalloc(&k, n * 4)); CK(cudaMalloc(&v, n * 4)); CK(cudaMalloc(&fv, n * 4)); CK(cudaMalloc(&found, n));
  gen<<<(n + 255) / 256, 256>>>(k, v, n); CK(cudaDeviceSynchronize());
  hive_config cfg = HIVE_CONFIG_INIT; cfg.backend = HIVE_BACKEND_CUDA; cfg.key_width = HIVE_KV32;
  cfg.initial_capacity = (uint64_t)(n / 0.5); cfg.max_load_factor = 1.0; cfg.min_load_factor = 0;
  hive_table *t; HK(hive_create(&cfg, &t));
  cudaStream_t s; CK(cudaStreamCreate(&s));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::vector<double> ev, host;
  for (int pass = 0; pass < 2; pass++) {
    ev.clear(); host.clear();
    for (int c = 0; c < calls; c++) {
      auto h0 = std::chrono::steady_clock::now();
      CK(cudaEventRecord(e0, s));
      if (pass == 0) HK(hive_insert(t, batch, k + c * batch, v + c * batch, HIVE_COMBINE_ASSIGN, NULL, s));
      else HK(hive_find(t, batch, k + c * batch, fv + c * batch, found + c * batch, s));
      CK(cudaEventRecord(e1, s)); CK(cudaEventSynchronize(e1));
      auto h1 = std::chrono::steady_clock::now();
      float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); ev.push_back(ms * 1e3); host.push_back(std::chrono::duration<double, std::micro>(h1 - h0).count());
    }
    printf("%s of %llu keys: median %.1f us (events), %.1f us (host), min %.1f / %.1f\n", pass ? "find" : "insert", (unsigned long long)batch, med(ev), med(host), *std::min_element(ev.begin(), ev.end()), *std::min_element(host.begin(), host.end()));
  }
  uint64_t size; HK(hive_size(t, &size)); printf("size %llu of %llu\n", (unsigned long long)size, (unsigned long long)n);
  int per = 0; auto q0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000; i++) CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, dummy, 256, 0));
  auto q1 = std::chrono::steady_clock::now();
  printf("occupancy query: %.2f us each\n", std::chrono::duration<double, std::micro>(q1 - q0).count() / 1000);
  std::vector<double> bare;
  for (int i = 0; i < 200; i++) { CK(cudaEventRecord(e0, s)); dummy<<<1, 32, 0, s>>>(nullptr); CK(cudaStreamSynchronize(s)); CK(cudaEventRecord(e1, s)); CK(cudaEventSynchronize(e1)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); bare.push_back(ms * 1e3); }
  printf("bare launch + sync between events: %.1f us\n", med(bare));
  HK(hive_destroy(t));
  return 0;
}
