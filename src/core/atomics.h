/* atomics.h — the few memory operations the bucket protocol needs, spelled
 * once for the CPU (GCC/Clang __atomic builtins, which ThreadSanitizer
 * understands) and once for CUDA device code.  protocol.h uses only these.
 *
 * Memory orders: slot loads are acquire and slot CASes acq_rel, so that a
 * reader that sees the last step of a cuckoo move (the newcomer in the frozen
 * slot) also sees its first step (the moved key in its second bucket); see
 * docs/design.md.  On x86 these cost nothing; on the GPU, loads are
 * ld.relaxed.gpu, the one place that needs them ordered (between scanning the
 * first and the second bucket) issues an acquire fence, and the writes a
 * move or a lock release must order are fenced with fence.acq_rel. */
#ifndef HIVE_CORE_ATOMICS_H
#define HIVE_CORE_ATOMICS_H

#include <assert.h>
#include <stdint.h>

/* A KV64 slot (core/slot.h): key in the low word, value in the high one,
 * read and written whole by the 16-byte atomics below, on either side. */
typedef unsigned __int128 hive_u128;
static_assert(sizeof(hive_u128) == 16, "a KV64 slot is one 16-byte atomic");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "a KV64 slot's low half, its key, must be its first word (both sides read it as two words)"
#endif

#if defined(__CUDACC__)
/* ------------------------------------------------------------ CUDA device
 * (device functions in both of nvcc's passes, so kernels parse on the host side) */
#define HIVE_PROTO static __device__ __forceinline__

HIVE_PROTO uint64_t hive_load64(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* Loads 2 adjacent slots with one 16-byte access (each 8-byte half is a
 * single-copy-atomic relaxed load). */
HIVE_PROTO void hive_load64x2(const uint64_t *p, uint64_t *a, uint64_t *b)
{
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(*a), "=l"(*b)
                 : "l"(p)
                 : "memory");
}

HIVE_PROTO uint64_t hive_cas64(uint64_t *p, uint64_t expected, uint64_t desired)
{
    return (uint64_t)atomicCAS((unsigned long long *)p, (unsigned long long)expected,
                               (unsigned long long)desired);
}

/* A slot word written by its one owner (a tagged claim, core/tag_body.h). */
HIVE_PROTO void hive_store64(uint64_t *p, uint64_t v)
{
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* Release/acquire between a thread's own accesses (fence.acq_rel is enough
 * for the copy-then-reuse pattern of a move and its mirror in readers, and
 * cheaper than __threadfence's sequentially consistent fence). */
HIVE_PROTO void hive_fence(void) { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }

HIVE_PROTO uint64_t hive_add_u64(uint64_t *p, uint64_t d)
{
    return (uint64_t)atomicAdd((unsigned long long *)p, (unsigned long long)d);
}

HIVE_PROTO uint32_t hive_add_u32(uint32_t *p, uint32_t d) { return atomicAdd(p, d); }

/* The sum of x over the 32 lanes of a warp, all of which must call it:
 * one instruction from sm_80, a shuffle tree before. */
HIVE_PROTO uint32_t hive_warp_sum(uint32_t x)
{
#if __CUDA_ARCH__ >= 800
    return __reduce_add_sync(0xffffffffu, x);
#else
    for (int d = 16; d > 0; d >>= 1)
        x += __shfl_xor_sync(0xffffffffu, x, d);
    return x;
#endif
}

/* KV64 slots: one 16-byte access publishes or reads a whole pair (sm_90:
 * ld.b128 and atom.cas.b128, PTX 8.3), so a reader never sees a key with
 * half of another value.  Older GPUs have no such access: the host never
 * runs a KV64 table there (cuda_device.h: needed_capability), and their
 * code for these two only traps. */
HIVE_PROTO hive_u128 hive_load128(const hive_u128 *p)
{
#if __CUDA_ARCH__ < 900
    (void)p;
    __trap();
    return 0;
#else
    uint64_t lo, hi;
    asm volatile("{\n\t.reg .b128 t;\n\tld.relaxed.gpu.global.b128 t, [%2];\n\t"
                 "mov.b128 {%0, %1}, t;\n\t}"
                 : "=l"(lo), "=l"(hi)
                 : "l"(p)
                 : "memory");
    return ((hive_u128)hi << 64) | lo;
#endif
}

HIVE_PROTO hive_u128 hive_cas128(hive_u128 *p, hive_u128 expected, hive_u128 desired)
{
#if __CUDA_ARCH__ < 900
    (void)p;
    (void)expected;
    (void)desired;
    __trap();
    return 0;
#else
    uint64_t lo, hi;
    asm volatile("{\n\t.reg .b128 c, s, r;\n\tmov.b128 c, {%2, %3};\n\tmov.b128 s, {%4, %5};\n\t"
                 "atom.relaxed.gpu.global.cas.b128 r, [%6], c, s;\n\tmov.b128 {%0, %1}, r;\n\t}"
                 : "=l"(lo), "=l"(hi)
                 : "l"((uint64_t)expected), "l"((uint64_t)(expected >> 64)), "l"((uint64_t)desired),
                   "l"((uint64_t)(desired >> 64)), "l"(p)
                 : "memory");
    return ((hive_u128)hi << 64) | lo;
#endif
}

/* A whole KV64 slot written by its one owner, one 16-byte access (sm_90). */
HIVE_PROTO void hive_store128(hive_u128 *p, hive_u128 v)
{
#if __CUDA_ARCH__ < 900
    (void)p;
    (void)v;
    __trap();
#else
    asm volatile("{\n\t.reg .b128 t;\n\tmov.b128 t, {%1, %2};\n\tst.relaxed.gpu.global.b128 [%0], t;\n\t}" ::"l"(p),
                 "l"((uint64_t)v), "l"((uint64_t)(v >> 64))
                 : "memory");
#endif
}

HIVE_PROTO uint64_t hive_read_u64(const uint64_t *p) { return hive_load64(p); }

HIVE_PROTO uint32_t hive_read_u32(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

HIVE_PROTO void hive_or_u32(uint32_t *p, uint32_t bits) { atomicOr(p, bits); }

/* A relaxed 32-bit CAS (the chaining design's links): the caller fences
 * before it where it publishes what the word will point to. */
HIVE_PROTO uint32_t hive_cas_u32(uint32_t *p, uint32_t expected, uint32_t desired)
{
    return atomicCAS(p, expected, desired);
}

HIVE_PROTO void hive_clear_u32(uint32_t *p, uint32_t bits) { atomicAnd(p, ~bits); }

/* An acquire RMW, so that the holder's reads come after the lock: on sm_90
 * the atomic and an L1 invalidation, not the full fence that an atomicOr
 * followed by fence.acq_rel costs (docs/perf.md). */
HIVE_PROTO int hive_lock_try(uint32_t *word, uint32_t bit)
{
    uint32_t old;
    asm volatile("atom.acquire.gpu.global.or.b32 %0, [%1], %2;" : "=r"(old) : "l"(word), "r"(bit) : "memory");
    return (old & bit) == 0;
}

/* Orders a thread's earlier slot loads before its later accesses (the first
 * bucket before the second).  Relaxed loads followed by fence.acquire are
 * acquire loads (NVIDIA's atomics ABI maps an acquire load to either form).
 * On sm_90 it compiles to an L1 invalidation (CCTL.IVALL) alone, where
 * fence.acq_rel adds MEMBAR.ALL.GPU and ERRBAR, which wait for every earlier
 * access of the thread, its stores included (docs/perf.md). */
HIVE_PROTO void hive_order_reads(void) { asm volatile("fence.acquire.gpu;" ::: "memory"); }

/* For a caller that has just issued hive_fence(): that fence is the release. */
HIVE_PROTO void hive_lock_release_fenced(uint32_t *word, uint32_t bit) { hive_clear_u32(word, bit); }

HIVE_PROTO void hive_lock_release(uint32_t *word, uint32_t bit)
{
    hive_fence();
    hive_lock_release_fenced(word, bit);
}

HIVE_PROTO void hive_backoff(unsigned round) { __nanosleep(32u << (round < 6 ? round : 6)); }

#else
/* ------------------------------------------------------------ host C11 */
#define HIVE_PROTO static inline

HIVE_PROTO uint64_t hive_load64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

HIVE_PROTO void hive_load64x2(const uint64_t *p, uint64_t *a, uint64_t *b)
{
    *a = __atomic_load_n(p, __ATOMIC_ACQUIRE);
    *b = __atomic_load_n(p + 1, __ATOMIC_ACQUIRE);
}

HIVE_PROTO uint64_t hive_cas64(uint64_t *p, uint64_t expected, uint64_t desired)
{
    __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    return expected; /* the value found: == the old expected on success */
}

HIVE_PROTO void hive_store64(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

/* The GPU's fences order a move's copy before its reuse, and a reader's
 * first bucket before its second.  On the host every slot CAS is acq_rel and
 * every slot load acquire, so those release/acquire pairs already give that
 * order; no fence is needed (and ThreadSanitizer, which does not model
 * standalone fences, sees exactly the synchronisation the code relies on). */
HIVE_PROTO void hive_fence(void) {}

/* KV64 slots: 16-byte atomics through libatomic (cmpxchg16b on x86-64),
 * except for the loads of an x86-64 processor with AVX.  Intel (SDM vol. 3A,
 * 9.1.1) and AMD (APM vol. 2, 7.3.2) guarantee that an aligned 16-byte SSE
 * load of cacheable memory is atomic on every processor that reports AVX, as
 * GCC 13's libatomic and LLVM rely on.  GCC 12's libatomic loads with lock
 * cmpxchg16b, a write that takes the line exclusive: a KV64 find on the CPU
 * spent most of its time there.  A load on x86 is an acquire; the asm's
 * memory clobber keeps the compiler from moving accesses across it.
 * Sanitizer builds keep libatomic's loads: ThreadSanitizer models only its
 * own atomics, and AddressSanitizer checks no access made in asm. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define HIVE_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define HIVE_SANITIZED 1
#endif
#if defined(__x86_64__) && !defined(HIVE_SANITIZED)
#include <emmintrin.h>
#define HIVE_SSE_LOAD128 1
#endif

HIVE_PROTO hive_u128 hive_load128(const hive_u128 *p)
{
#ifdef HIVE_SSE_LOAD128
    if (__builtin_cpu_supports("avx") && (__builtin_cpu_is("intel") || __builtin_cpu_is("amd"))) {
        __m128i v;
        __asm__ volatile("movdqa %1, %0" : "=x"(v) : "m"(*(const __m128i *)p) : "memory");
        uint64_t lo = (uint64_t)_mm_cvtsi128_si64(v), hi = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v));
        return ((hive_u128)hi << 64) | lo;
    }
#endif
    hive_u128 v;
    __atomic_load((hive_u128 *)p, &v, __ATOMIC_ACQUIRE);
    return v;
}

HIVE_PROTO hive_u128 hive_cas128(hive_u128 *p, hive_u128 expected, hive_u128 desired)
{
    __atomic_compare_exchange(p, &expected, &desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    return expected;
}

HIVE_PROTO void hive_store128(hive_u128 *p, hive_u128 v) { __atomic_store(p, &v, __ATOMIC_RELEASE); }

HIVE_PROTO uint64_t hive_add_u64(uint64_t *p, uint64_t d)
{
    return __atomic_fetch_add(p, d, __ATOMIC_ACQ_REL);
}

HIVE_PROTO uint32_t hive_add_u32(uint32_t *p, uint32_t d) { return __atomic_fetch_add(p, d, __ATOMIC_ACQ_REL); }

HIVE_PROTO uint64_t hive_read_u64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

HIVE_PROTO uint32_t hive_read_u32(const uint32_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

HIVE_PROTO void hive_or_u32(uint32_t *p, uint32_t bits) { __atomic_fetch_or(p, bits, __ATOMIC_ACQ_REL); }

HIVE_PROTO uint32_t hive_cas_u32(uint32_t *p, uint32_t expected, uint32_t desired)
{
    __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    return expected;
}

HIVE_PROTO void hive_clear_u32(uint32_t *p, uint32_t bits) { __atomic_fetch_and(p, ~bits, __ATOMIC_ACQ_REL); }

HIVE_PROTO int hive_lock_try(uint32_t *word, uint32_t bit)
{
    return (__atomic_fetch_or(word, bit, __ATOMIC_ACQUIRE) & bit) == 0;
}

HIVE_PROTO void hive_lock_release(uint32_t *word, uint32_t bit)
{
    __atomic_fetch_and(word, ~bit, __ATOMIC_RELEASE);
}

/* The host's fence is empty: the release is the RMW's own. */
HIVE_PROTO void hive_lock_release_fenced(uint32_t *word, uint32_t bit) { hive_lock_release(word, bit); }

/* Slot loads are already acquire on the host. */
HIVE_PROTO void hive_order_reads(void) {}

/* Rounds of growing pause loops before a waiter yields its core instead: a
 * lock or chain owner that the OS preempted (more threads than cores) then
 * gets the core back, where spinning on would stall every waiter for a
 * whole time slice. */
#define HIVE_SPIN_ROUNDS 8u

#include <sched.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
HIVE_PROTO void hive_backoff(unsigned round)
{
    if (round >= HIVE_SPIN_ROUNDS) {
        sched_yield();
        return;
    }
    for (unsigned i = 0; i < (1u << round); i++)
        _mm_pause();
}
#else
HIVE_PROTO void hive_backoff(unsigned round)
{
    if (round >= HIVE_SPIN_ROUNDS)
        sched_yield();
}
#endif

#endif

#endif
