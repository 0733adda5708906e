#!/usr/bin/env bash
# arch-check: the GPU code compiled to machine code for every generation an
# installed build holds (CMakeLists.txt: 7.5, 8.0, 8.6, 8.9, 9.0), with the
# build's own flags, so that code one generation lacks (an instruction, an
# intrinsic, inline PTX) fails here rather than on a user's GPU.  No GPU needed.
# CI's ARCHS="75 80 90" leaves out 8.6 and 8.9, which take the code paths of
# 8.0 (the sources branch on __CUDA_ARCH__ at 800 and 900 only); its own
# build holds 9.0 as PTX alone (.ci/run), so 9.0's machine code is made here,
# for the one file with code of 9.0's own (below).
#
# The files: the dictionary's KV32 and KV64 kernels and the cache table's.
# The other kernel files compile the same kernel bodies for another design
# (cuda_kernels32_double.cu and the like: the arch-dependent code is in the
# shared headers these three include), or hold host code only, save the
# tagged designs' (16-bit tag atomics and stores, core/tags.h; the KV64
# slot store), which one design's two files check for the oldest generation
# alone (later ones have every instruction it has).  One build of everything
# for every generation takes five times the CI's CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a archs <<<"${ARCHS:-75 80 86 89 90}"
# Every architecture branch of the sources (__CUDA_ARCH__ against a constant)
# must have a generation compiled on each side of it, 9.0 counting as
# compiled (every other build takes it): otherwise a branch that a left-out
# generation takes would go unchecked.
for t in $(grep -rhoE "__CUDA_ARCH__ *[<>]=? *[0-9]+" src include | grep -oE "[0-9]+$" | sort -u); do
  below=0 above=0
  for a in "${archs[@]}" 90; do
    if [ $((a * 10)) -lt "$t" ]; then below=1; else above=1; fi
  done
  [ $below = 1 ] && [ $above = 1 ] ||
    { echo "arch-check: the sources branch at __CUDA_ARCH__ $t, and ARCHS (${archs[*]}) has no generation on one side of it"; exit 1; }
done
files=(src/cuda/cuda_kernels32.cu src/cuda/cuda_kernels64.cu src/cuda/cuda_cache.cu)
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

compile() { # arch file
  nvcc -gencode "arch=compute_$1,code=sm_$1" -std=c++17 -O3 -I include -I src -DHIVE_WITH_CUDA=1 \
       -DHIVE_CUDA_OLDEST_CC=75 -D_POSIX_C_SOURCE=200809L -c "$2" -o "$out/$(basename "$2" .cu)-$1.o" \
       2>"$out/$(basename "$2" .cu)-$1.log" &&
    echo "arch-check: sm_$1 $2 ok" ||
    { echo "arch-check: sm_$1 $2 FAILED"; cat "$out/$(basename "$2" .cu)-$1.log"; return 1; }
}
export -f compile
export out
tagged=(src/cuda/cuda_kernels32_p2_m.cu src/cuda/cuda_kernels64_p2_m.cu)
# 9.0's own code (inline PTX no older generation takes: the KV64 slot's
# 16-byte accesses, core/atomics.h) is in the KV64 kernels alone; every other
# build compiles the rest for 9.0.
only90=(src/cuda/cuda_kernels64.cu)
{ for f in "${tagged[@]}"; do echo "${archs[0]} $f"; done
  printf '%s\n' "${archs[@]}" | while read -r a; do
    if [ "$a" = 90 ]; then list=("${only90[@]}"); else list=("${files[@]}"); fi
    for f in "${list[@]}"; do echo "$a $f"; done
  done; } |
  xargs -P "$jobs" -n 2 bash -c 'compile "$0" "$1"'
echo "arch-check: the files compile for$(printf ' sm_%s' "${archs[@]}") (sm_90: ${only90[*]})"
