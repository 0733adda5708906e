#!/usr/bin/env bash
# Session 16: every built KV32 geometry beside the default, with hive-bench --geometry (uncommitted tree
# on top of 786744c: the option only; the library is 16ed53c's): balanced and mixed at 2^26, the load sweep
# on 10^8 slots; each invocation measures its own limits first.
set -uo pipefail
export HIVE_COMMIT=786744c+geometry PATH=/usr/local/cuda/bin:$PATH
R=$OUT; nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; cat $R/gpu.txt
t0=$(date +%s)
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DHIVE_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $R/build.log 2>&1 &&
  cmake --build build-gpu -j 16 --target hive-bench >> $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
B=build-gpu/bench/hive-bench
for g in 4x1 8x1 16x1 32x1 8x4 16x8 32x8 32x32; do
  timeout 200 $B limits balanced mixed --n 67108864 --geometry $g --out $R/geometry/$g > $R/geometry-$g.log 2>&1; a=$?
  timeout 200 $B limits loadsweep --geometry $g --out $R/geometry/$g-sweep > $R/sweep-$g.log 2>&1; b=$?
  echo "$g: rc $a $b, $(( $(date +%s) - t0 )) s"
done
$B balanced --geometry 8x2 > $R/unsupported.log 2>&1; echo "8x2 (not built): rc $?"; tail -2 $R/unsupported.log
(cd $R && tar czf geometry.tgz geometry geometry-*.log sweep-*.log && rm -rf geometry geometry-*.log sweep-*.log)
