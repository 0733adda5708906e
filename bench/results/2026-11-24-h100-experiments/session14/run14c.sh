#!/bin/bash
# Session 14: per-kernel times of H and T2 (item 80), then the slow GPU tests at HEAD.
export PATH=/usr/local/cuda/bin:$PATH
cd scratch/bin
for v in H T; do
  echo "== ncu $v kv32 fill"
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum ./fillW_$v 67108864 0.9 1 32 1 2>&1 |
    grep -E "^\s+[a-z_0-9]+.*\(|gpu__time_duration|all " | grep -v "gen32\|verify\|count_found" | paste - - | awk '{print $1, $(NF)}' | head -30
done
for v in H T; do
  echo "== ncu $v mixed"
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum ./mixW_$v 67108864 1 2>&1 |
    grep -E "^\s+[a-z_0-9]+.*\(|gpu__time_duration" | paste - - | awk '{print $1, $(NF)}' | tail -12
done
cd ../..
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DHIVE_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/b.log 2>&1 && cmake --build build-gpu -j 16 >> /tmp/b.log 2>&1 || tail -20 /tmp/b.log
HIVE_REQUIRE_GPU=1 timeout 300 ctest --test-dir build-gpu --output-on-failure -L slow 2>&1 | tail -12
