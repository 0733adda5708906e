#!/usr/bin/env bash
# Session 16: hive-bench limits, balanced and loadsweep (KV32) at 16ed53c; fills of 2^26 keys at load 0.9
# and at 0.658 (SlabHash's memory for 2^26 pairs at its own 0.9 sizing: 816 MB), alternated.
set -uo pipefail
export HIVE_COMMIT=16ed53c PATH=/usr/local/cuda/bin:$PATH
R=$OUT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/gpu.txt; cat $R/gpu.txt
t0=$(date +%s)
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DHIVE_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $R/build.log 2>&1 &&
  cmake --build build-gpu -j 16 --target hive-bench >> $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
timeout 400 build-gpu/bench/hive-bench limits balanced loadsweep --out $R/kv32 > $R/bench.log 2>&1; echo "bench rc $?  $(( $(date +%s) - t0 )) s"
grep -E "^(insert|find|erase|copy|gather|atomic|random)" $R/bench.log | head -60
f() { "$@" | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s|absent [0-9.]* G/s|LOST|WRONG|capacity [0-9]*' | paste -s -d' '; }
for lf in 0.9 0.658 0.9 0.658; do echo "== lf $lf: $(f timeout 90 scratch/bin/fillW_N 67108864 $lf 1 32 5)"; done | tee $R/fill-memory.log
(cd $R && tar czf kv32.tgz kv32 && rm -rf kv32)
