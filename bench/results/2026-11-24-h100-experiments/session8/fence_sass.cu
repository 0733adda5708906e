#include <stdint.h>
__global__ void lockA(unsigned *l, const uint64_t *p, uint64_t *o){
  unsigned old = atomicOr(l, 1u);
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  uint64_t v; asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  o[0] = v + old;
}
__global__ void lockB(unsigned *l, const uint64_t *p, uint64_t *o){
  unsigned old; asm volatile("atom.acquire.gpu.global.or.b32 %0, [%1], 1;" : "=r"(old) : "l"(l) : "memory");
  uint64_t v; asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  o[0] = v + old;
}
__global__ void unlockA(unsigned *l, uint64_t *p){
  atomicCAS((unsigned long long*)p, 0ull, 1ull);
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  atomicAnd(l, ~1u);
}
__global__ void unlockB(unsigned *l, uint64_t *p){
  atomicCAS((unsigned long long*)p, 0ull, 1ull);
  asm volatile("red.release.gpu.global.and.b32 [%0], %1;" :: "l"(l), "r"(~1u) : "memory");
}
__global__ void readsA(const uint64_t *p, const uint64_t *q, uint64_t *o){
  uint64_t v; asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  uint64_t w; asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(q) : "memory");
  o[0] = v + w;
}
__global__ void readsB(const uint64_t *p, const uint64_t *q, uint64_t *o){
  uint64_t v; asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  uint64_t w; asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(q) : "memory");
  o[0] = v + w;
}
