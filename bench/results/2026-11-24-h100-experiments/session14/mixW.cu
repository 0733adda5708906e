// Scratch (session 13): the mixed batch of hive-bench (insert:find:erase =
// 0.5:0.3:0.2, shuffled, on a table prefilled with the found and erased keys,
// pinned at n / 0.95), timed with events, verified: finds' values, then a find
// of every key (found iff not erased, right value).  KV32.  Args: n runs.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include "hive.h"
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
#define HK(x) do { hive_status s_ = (x); if (s_ != HIVE_SUCCESS) { printf("hive %s: %s at %d\n", hive_status_string(s_), hive_last_error(), __LINE__); exit(1);} } while (0)
__host__ __device__ uint32_t fmix32(uint32_t h) { h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16; return h; }
__device__ uint32_t key_of(uint32_t e, uint32_t salt) { uint32_t k = fmix32(e ^ salt); return k >= 0xFFFFFFFCu ? (e | 0x80000000u) : k; }
__device__ uint32_t val_of(uint32_t k) { return k * 2654435761u + 1u; }
__global__ void gen(const uint32_t *perm, uint8_t *ops, uint32_t *keys, uint32_t *vals, uint32_t n, uint32_t nf, uint32_t ne, uint32_t salt, int prefill) {
  uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  uint32_t e = prefill ? j : perm[j];
  keys[j] = key_of(e, salt); vals[j] = val_of(keys[j]);
  if (!prefill) ops[j] = e < nf ? HIVE_OP_FIND : e < nf + ne ? HIVE_OP_ERASE : HIVE_OP_INSERT;
}
__global__ void check_finds(const uint8_t *ops, const uint32_t *keys, const uint32_t *vals, uint32_t n, unsigned long long *bad) {
  uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n && ops[j] == HIVE_OP_FIND && vals[j] != val_of(keys[j])) atomicAdd(bad, 1ull);
}
__global__ void check_all(const uint32_t *keys, const uint32_t *fv, const uint8_t *found, uint32_t n, uint32_t nf, uint32_t ne, unsigned long long *bad) {
  uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= n) return;
  int want = !(e >= nf && e < nf + ne);
  if (found[e] != want || (want && fv[e] != val_of(keys[e]))) atomicAdd(bad, 1ull);
}
int main(int argc, char **argv) {
  uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], 0, 0) : (1u << 26);
  int runs = argc > 2 ? atoi(argv[2]) : 3;
  uint32_t ni = n / 2, nf = (uint32_t)(n * 0.3), ne = n - ni - nf;
  std::vector<uint32_t> hp(n); for (uint32_t i = 0; i < n; i++) hp[i] = i;
  uint64_t s = 88172645463325252ull;
  for (uint32_t i = n - 1; i > 0; i--) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; std::swap(hp[i], hp[s % (i + 1)]); }
  uint32_t *perm, *keys, *vals, *fv; uint8_t *ops, *found; unsigned long long *bad;
  CK(cudaMalloc(&perm, n * 4ull)); CK(cudaMalloc(&keys, n * 4ull)); CK(cudaMalloc(&vals, n * 4ull)); CK(cudaMalloc(&fv, n * 4ull));
  CK(cudaMalloc(&ops, n)); CK(cudaMalloc(&found, n)); CK(cudaMalloc(&bad, 8));
  CK(cudaMemcpy(perm, hp.data(), n * 4ull, cudaMemcpyHostToDevice));
  unsigned grid = (n + 255) / 256;
  hive_config cfg = HIVE_CONFIG_INIT;
  cfg.backend = HIVE_BACKEND_CUDA; cfg.key_width = HIVE_KV32;
  cfg.initial_capacity = (uint64_t)(n / 0.95 + 0.5); cfg.max_load_factor = 1.0; cfg.min_load_factor = 0;
  if (getenv("STASHF")) cfg.stash_fraction = atof(getenv("STASHF"));
  if (getenv("KEEPTOTAL")) cfg.initial_capacity = (uint64_t)(cfg.initial_capacity / (1 + cfg.stash_fraction) + 0.5);
  printf("config: capacity %llu stash_fraction %.3f\n", (unsigned long long)cfg.initial_capacity, cfg.stash_fraction);
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  for (int r = 0; r < runs; r++) {
    uint32_t salt = 0x9E3779B9u * (r + 1);
    hive_table *t; HK(hive_create(&cfg, &t));
    gen<<<grid, 256>>>(perm, ops, keys, vals, nf + ne, nf, ne, salt, 1);
    HK(hive_insert(t, nf + ne, keys, vals, HIVE_COMBINE_ASSIGN, NULL, NULL));
    gen<<<grid, 256>>>(perm, ops, keys, vals, n, nf, ne, salt, 0);
    CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(e0));
    HK(hive_apply(t, n, ops, keys, vals, HIVE_COMBINE_ASSIGN, NULL, NULL));
    CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
    unsigned long long hb = 0, hb2 = 0; CK(cudaMemset(bad, 0, 8));
    check_finds<<<grid, 256>>>(ops, keys, vals, n, bad);
    CK(cudaMemcpy(&hb, bad, 8, cudaMemcpyDeviceToHost));
    gen<<<grid, 256>>>(perm, ops, keys, vals, n, nf, ne, salt, 1); /* every key, in order */
    HK(hive_find(t, n, keys, fv, found, NULL));
    CK(cudaMemset(bad, 0, 8));
    check_all<<<grid, 256>>>(keys, fv, found, n, nf, ne, bad);
    CK(cudaMemcpy(&hb2, bad, 8, cudaMemcpyDeviceToHost));
    uint64_t size; HK(hive_size(t, &size));
    hive_stats st; HK(hive_stats_get(t, &st));
    printf("run %d mixed n=%u all %.3f G/s (%.3f ms) | finds %s | table %s | size %llu%s | steps %llu %llu %llu %llu evictions %llu stash %llu/%llu\n", r, n, n / (ms * 1e6), ms,
           hb ? "WRONG" : "ok", hb2 ? "WRONG" : "ok", (unsigned long long)size, size == (uint64_t)nf + ni ? "" : " WRONG",
           (unsigned long long)st.insert_steps[0], (unsigned long long)st.insert_steps[1], (unsigned long long)st.insert_steps[2],
           (unsigned long long)st.insert_steps[3], (unsigned long long)st.evictions, (unsigned long long)st.stash_size, (unsigned long long)st.stash_capacity);
    HK(hive_destroy(t));
  }
  return 0;
}
