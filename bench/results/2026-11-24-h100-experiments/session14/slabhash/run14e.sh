#!/bin/bash
# Session 14: SlabHash (reconstructed, scratch only) side by side with hive on the same GPU, in one call.
export PATH=/usr/local/cuda/bin:$PATH
R=$OUT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/gpu.txt
( cd scratch/slabhash && nvcc -O3 -std=c++17 -arch=sm_90 -ISlabHash/src -ISlabHash/src/concurrent -ISlabAlloc/src bench_slab.cu -o bench_slab ) > $R/slab-build.log 2>&1 || { tail -20 $R/slab-build.log; }
( cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DHIVE_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build build-gpu -j 16 --target hive-bench ) > $R/hive-build.log 2>&1 || tail -20 $R/hive-build.log
S=scratch/slabhash/bench_slab; F=scratch/bin/fillW_H; M=scratch/bin/mixW_H
for rep in 1 2; do
  echo "== slab lf 0.9 rep $rep"; timeout 150 $S 67108864 0.9 5 | grep -E "^(run|MEDIAN|VERIF|n =)|FAIL"
  echo "== hive fillW rep $rep"; timeout 90 $F 67108864 0.9 1 32 5 | grep -E "all|find"
done > $R/side-by-side.log 2>&1
cat $R/side-by-side.log
timeout 200 build-gpu/bench/hive-bench limits balanced > $R/hive-bench.log 2>&1
grep -E "^(copy|gather|atomic)|insert|find" $R/hive-bench.log | grep -E "2\^26|67108864|copy|gather|atomic" | head -20
for lf in 0.6 1.0 1.5; do echo "== slab lf $lf"; timeout 150 $S 67108864 $lf 3 | grep -E "^(MEDIAN|VERIF|n =)|FAIL"; done > $R/slab-lf.log 2>&1
cat $R/slab-lf.log
