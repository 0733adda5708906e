// bench_slab.cu -- SlabHash (owensgroup/SlabHash, concurrent map) throughput
// benchmark on device-resident data.
//
// Usage: ./bench_slab [n = 67108864] [load_factor = 0.9] [runs = 5] [seed = 1]
//
// "load_factor" is SlabHash's own sizing knob from bench/experiments.cuh
// (called expected_chain there):
//     expected_elements_per_bucket = uint32_t(load_factor * 15)   // float math
//     num_buckets = (n + expected_elements_per_bucket - 1) / expected_elements_per_bucket
// i.e. the expected number of keys per base slab, in units of one slab of 15
// key/value pairs. The memory utilisation that SlabHash itself reports as
// "load factor" (GpuSlabHash::computeLoadFactor) is printed after each build.
//
// Keys: fmix32(i + seed) for i in [0, 2n] (a bijection on 32-bit words, so all
// keys are distinct). i < n -> present keys, n <= i < 2n -> absent keys. The
// single index whose image is 0xFFFFFFFF (EMPTY_KEY) is replaced by the image
// of index 2n, which is otherwise unused. Values: value[i] = i (never equal to
// SEARCH_NOT_FOUND = 0xFFFFFFFF).

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include <thrust/device_ptr.h>
#include <thrust/sort.h>
#include <thrust/adjacent_difference.h>
#include <thrust/count.h>
#include <thrust/execution_policy.h>

#include "gpu_hash_table.cuh"  // -> slab_hash.cuh -> slab_hash_global.cuh -> slab_alloc.cuh

using KeyT = uint32_t;
using ValueT = uint32_t;
constexpr uint32_t kDevice = 0;
using SlabHashT = GpuSlabHash<KeyT, ValueT, kDevice, SlabHashTypeT::ConcurrentMap>;

#define CK(call)                                                              \
  do {                                                                        \
    cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess) {                                                  \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__,        \
              __LINE__, cudaGetErrorString(e_));                              \
      exit(EXIT_FAILURE);                                                     \
    }                                                                         \
  } while (0)

// murmur3 finalizer: a bijection on uint32_t
__host__ __device__ __forceinline__ uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

__global__ void gen_keys(KeyT* present, ValueT* values, KeyT* absent,
                         uint32_t n, uint32_t seed) {
  const uint64_t stride = uint64_t(blockDim.x) * gridDim.x;
  const KeyT spare = fmix32(uint32_t(2ull * n) + seed);  // image of index 2n
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
       i < 2ull * n; i += stride) {
    KeyT k = fmix32(uint32_t(i) + seed);
    if (k == EMPTY_KEY) k = spare;
    if (i < n) {
      present[i] = k;
      values[i] = ValueT(i);
    } else {
      absent[i - n] = k;
    }
  }
}

// mode 0: result[i] must equal expected[i]; mode 1: result[i] must be SEARCH_NOT_FOUND
__global__ void verify(const ValueT* result, const ValueT* expected, uint32_t n,
                       int mode, unsigned long long* d_bad, uint32_t* d_bad_idx,
                       uint32_t max_bad) {
  const uint64_t stride = uint64_t(blockDim.x) * gridDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const ValueT want = (mode == 0) ? expected[i] : ValueT(SEARCH_NOT_FOUND);
    if (result[i] != want) {
      unsigned long long pos = atomicAdd(d_bad, 1ull);
      if (pos < max_bad) d_bad_idx[pos] = uint32_t(i);
    }
  }
}

struct Verifier {
  unsigned long long* d_bad = nullptr;
  uint32_t* d_bad_idx = nullptr;
  static constexpr uint32_t kMaxBad = 8;
  Verifier() {
    CK(cudaMalloc(&d_bad, sizeof(unsigned long long)));
    CK(cudaMalloc(&d_bad_idx, kMaxBad * sizeof(uint32_t)));
  }
  ~Verifier() {
    cudaFree(d_bad);
    cudaFree(d_bad_idx);
  }
  // returns number of mismatches, prints the first few
  unsigned long long check(const char* what, const ValueT* d_result,
                           const ValueT* d_expected, const KeyT* d_keys,
                           uint32_t n, int mode) {
    CK(cudaMemset(d_bad, 0, sizeof(unsigned long long)));
    verify<<<1024, 256>>>(d_result, d_expected, n, mode, d_bad, d_bad_idx,
                          kMaxBad);
    CK(cudaGetLastError());
    unsigned long long bad = 0;
    CK(cudaMemcpy(&bad, d_bad, sizeof(bad), cudaMemcpyDeviceToHost));
    if (bad) {
      uint32_t idx[kMaxBad];
      const uint32_t m = uint32_t(std::min<unsigned long long>(bad, kMaxBad));
      CK(cudaMemcpy(idx, d_bad_idx, m * sizeof(uint32_t), cudaMemcpyDeviceToHost));
      printf("    VERIFY FAIL [%s]: %llu mismatches; first:", what, bad);
      for (uint32_t j = 0; j < m; j++) {
        KeyT k;
        ValueT r, e = SEARCH_NOT_FOUND;
        CK(cudaMemcpy(&k, d_keys + idx[j], sizeof(k), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&r, d_result + idx[j], sizeof(r), cudaMemcpyDeviceToHost));
        if (mode == 0)
          CK(cudaMemcpy(&e, d_expected + idx[j], sizeof(e), cudaMemcpyDeviceToHost));
        printf(" (i=%u key=0x%08x got=0x%08x want=0x%08x)", idx[j], k, r, e);
      }
      printf("\n");
    }
    return bad;
  }
};

struct RunResult {
  double build, search_present, search_absent, search_bulk, del;  // Gops/s
  double load_factor;
  unsigned long long bad_present, bad_absent, bad_bulk, bad_after_delete;
};

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size();
  return (m % 2) ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
}

int main(int argc, char** argv) {
  uint32_t n = (argc > 1) ? uint32_t(strtoull(argv[1], nullptr, 0)) : (1u << 26);
  float load_factor = (argc > 2) ? float(atof(argv[2])) : 0.9f;
  int runs = (argc > 3) ? atoi(argv[3]) : 5;
  uint32_t seed = (argc > 4) ? uint32_t(strtoul(argv[4], nullptr, 0)) : 1u;
  if (n == 0 || n > (1u << 31) || runs < 1) {
    fprintf(stderr, "bad arguments (need 0 < n <= 2^31, runs >= 1)\n");
    return 1;
  }

  // ---- SlabHash's own sizing (bench/experiments.cuh) ----
  const uint32_t num_elements_per_unit = 15;
  const uint32_t expected_elements_per_bucket =
      load_factor * num_elements_per_unit;  // float -> uint32 truncation, as in SlabHash
  if (expected_elements_per_bucket == 0) {
    fprintf(stderr, "load_factor * 15 < 1: SlabHash formula divides by zero\n");
    return 1;
  }
  const uint32_t num_buckets =
      (n + expected_elements_per_bucket - 1) / expected_elements_per_bucket;

  CK(cudaSetDevice(kDevice));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, kDevice));
  printf("Device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  printf("n = %u, load_factor(expected chain) = %.3f -> keys/bucket = %u, "
         "num_buckets = %u (base table %.1f MiB), runs = %d, seed = %u\n",
         n, load_factor, expected_elements_per_bucket, num_buckets,
         double(num_buckets) * 128.0 / (1 << 20), runs, seed);

  // ---- data on the device ----
  KeyT *d_keys, *d_absent;
  ValueT *d_values, *d_result;
  CK(cudaMalloc(&d_keys, sizeof(KeyT) * n));
  CK(cudaMalloc(&d_absent, sizeof(KeyT) * n));
  CK(cudaMalloc(&d_values, sizeof(ValueT) * n));
  CK(cudaMalloc(&d_result, sizeof(ValueT) * n));
  gen_keys<<<2048, 256>>>(d_keys, d_values, d_absent, n, seed);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  // ---- uniqueness check of all 2n keys (present + absent) and no EMPTY_KEY ----
  {
    KeyT* d_all;
    CK(cudaMalloc(&d_all, sizeof(KeyT) * 2ull * n));
    CK(cudaMemcpy(d_all, d_keys, sizeof(KeyT) * n, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy(d_all + n, d_absent, sizeof(KeyT) * n, cudaMemcpyDeviceToDevice));
    thrust::device_ptr<KeyT> p(d_all);
    thrust::sort(thrust::device, p, p + 2ull * n);
    KeyT* d_diff;
    CK(cudaMalloc(&d_diff, sizeof(KeyT) * 2ull * n));
    thrust::device_ptr<KeyT> q(d_diff);
    thrust::adjacent_difference(thrust::device, p, p + 2ull * n, q);
    // q[0] = p[0]; duplicates show up as zero differences at positions >= 1
    const size_t dups = thrust::count(thrust::device, q + 1, q + 2ull * n, KeyT(0));
    KeyT last;
    CK(cudaMemcpy(&last, d_all + 2ull * n - 1, sizeof(KeyT), cudaMemcpyDeviceToHost));
    printf("key check: %zu duplicate keys among 2n present+absent keys, "
           "max key = 0x%08x (EMPTY_KEY present: %s)\n",
           dups, last, last == EMPTY_KEY ? "YES" : "no");
    CK(cudaFree(d_diff));
    CK(cudaFree(d_all));
    if (dups != 0 || last == EMPTY_KEY) {
      fprintf(stderr, "key generation failed\n");
      return 1;
    }
  }

  Verifier ver;
  cudaEvent_t ev0, ev1;
  CK(cudaEventCreate(&ev0));
  CK(cudaEventCreate(&ev1));
  auto elapsed_ms = [&]() {
    float ms = 0.f;
    CK(cudaEventSynchronize(ev1));
    CK(cudaGetLastError());
    CK(cudaEventElapsedTime(&ms, ev0, ev1));
    return double(ms);
  };
  auto gops = [&](double ms) { return double(n) / (ms * 1e-3) / 1e9; };

  std::vector<RunResult> results;
  bool all_ok = true;
  for (int r = -1; r < runs; r++) {  // r == -1: warm-up
    RunResult rr{};
    // fresh allocator + fresh table for every run (as gpu_hash_table does)
    DynamicAllocatorT* alloc = new DynamicAllocatorT();
    SlabHashT* table = new SlabHashT(num_buckets, alloc, /*seed=*/12345 + 7 * (r + 1));
    if (r == -1) printf("%s", table->to_string().c_str());
    CK(cudaDeviceSynchronize());

    // (a) bulk build
    CK(cudaEventRecord(ev0));
    table->buildBulk(d_keys, d_values, n);
    CK(cudaEventRecord(ev1));
    rr.build = gops(elapsed_ms());
    CK(cudaDeviceSynchronize());
    rr.load_factor = table->computeLoadFactor(0);

    // (b) individual search, all present
    CK(cudaMemset(d_result, 0xFF, sizeof(ValueT) * n));
    CK(cudaEventRecord(ev0));
    table->searchIndividual(d_keys, d_result, n);
    CK(cudaEventRecord(ev1));
    rr.search_present = gops(elapsed_ms());
    rr.bad_present = ver.check("searchIndividual present", d_result, d_values, d_keys, n, 0);

    // (c) individual search, all absent
    CK(cudaMemset(d_result, 0x00, sizeof(ValueT) * n));
    CK(cudaEventRecord(ev0));
    table->searchIndividual(d_absent, d_result, n);
    CK(cudaEventRecord(ev1));
    rr.search_absent = gops(elapsed_ms());
    rr.bad_absent = ver.check("searchIndividual absent", d_result, nullptr, d_absent, n, 1);

    // (d) bulk search, all present
    CK(cudaMemset(d_result, 0xFF, sizeof(ValueT) * n));
    CK(cudaEventRecord(ev0));
    table->searchBulk(d_keys, d_result, n);
    CK(cudaEventRecord(ev1));
    rr.search_bulk = gops(elapsed_ms());
    rr.bad_bulk = ver.check("searchBulk present", d_result, d_values, d_keys, n, 0);

    // (e) individual delete of all n keys
    CK(cudaEventRecord(ev0));
    table->deleteIndividual(d_keys, n);
    CK(cudaEventRecord(ev1));
    rr.del = gops(elapsed_ms());
    // after delete, none of the keys may be found (untimed check)
    CK(cudaMemset(d_result, 0x00, sizeof(ValueT) * n));
    table->searchIndividual(d_keys, d_result, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    rr.bad_after_delete = ver.check("search after delete", d_result, nullptr, d_keys, n, 1);

    const bool ok = !rr.bad_present && !rr.bad_absent && !rr.bad_bulk && !rr.bad_after_delete;
    all_ok = all_ok && ok;
    printf("%-7s build %.3f | search(present) %.3f | search(absent) %.3f | "
           "searchBulk(present) %.3f | delete %.3f  [Gops/s]  "
           "computeLoadFactor = %.4f  mismatches: %llu/%llu/%llu/%llu %s\n",
           r < 0 ? "warmup" : ("run " + std::to_string(r)).c_str(), rr.build,
           rr.search_present, rr.search_absent, rr.search_bulk, rr.del,
           rr.load_factor, rr.bad_present, rr.bad_absent, rr.bad_bulk,
           rr.bad_after_delete, ok ? "OK" : "FAIL");
    if (r >= 0) results.push_back(rr);

    delete table;
    delete alloc;
    CK(cudaDeviceSynchronize());
  }

  std::vector<double> b, sp, sa, sb, dl, lf;
  for (auto& x : results) {
    b.push_back(x.build); sp.push_back(x.search_present); sa.push_back(x.search_absent);
    sb.push_back(x.search_bulk); dl.push_back(x.del); lf.push_back(x.load_factor);
  }
  printf("MEDIAN  build %.3f | search(present) %.3f | search(absent) %.3f | "
         "searchBulk(present) %.3f | delete %.3f  [Gops/s]  computeLoadFactor = %.4f\n",
         median(b), median(sp), median(sa), median(sb), median(dl), median(lf));
  printf("VERIFICATION: %s\n", all_ok ? "all runs passed" : "FAILURES (see above)");

  CK(cudaEventDestroy(ev0));
  CK(cudaEventDestroy(ev1));
  CK(cudaFree(d_keys));
  CK(cudaFree(d_absent));
  CK(cudaFree(d_values));
  CK(cudaFree(d_result));
  return all_ok ? 0 : 2;
}
