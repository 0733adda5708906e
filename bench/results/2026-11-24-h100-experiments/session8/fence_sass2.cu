#include <stdint.h>
__global__ void readsC(const uint64_t *p, const uint64_t *q, uint64_t *o){
  uint64_t v; asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  asm volatile("fence.acquire.gpu;" ::: "memory");
  uint64_t w; asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(q) : "memory");
  o[0] = v + w;
}
__global__ void relC(unsigned *l, uint64_t *p){
  atomicCAS((unsigned long long*)p, 0ull, 1ull);
  asm volatile("fence.release.gpu;" ::: "memory");
  atomicAnd(l, ~1u);
}
