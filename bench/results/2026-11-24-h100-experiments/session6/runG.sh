#!/usr/bin/env bash
# c864e3a: gpu-check with sanitizers and the benchmark; then A/S/C fills (A = d41cb53, S = scan refactor only, C = c864e3a)
set -uo pipefail
export HIVE_COMMIT=c864e3a PATH=/usr/local/cuda/bin:$PATH
R=/tmp/rg; mkdir -p $R; trap 'tar czf $OUT/rg.tgz -C /tmp rg; tar czf $OUT/gpu-check.tgz -C build-gpu gpu-check' EXIT
SANITIZE=1 BENCH_ARGS="limits balanced mixed" SANITIZE_LIMIT=200 bash tools/gpu-check.sh > $R/gpucheck.out 2>&1; rc=$?
grep -E "tests passed|ERROR SUMMARY|RACECHECK SUMMARY|gpu-check:" $R/gpucheck.out | sort | uniq -c
B=build-gpu/bench/hive-bench; G=build-gpu/gpu-check
$B --kv 64 balanced mixed --n 33554432 --out $G/kv64 > $G/bench-kv64.log 2>&1
grep -E "^(insert|find|apply|erase|copy|gather|atomic)" $G/bench.log | tail -12; grep -E "^(insert|find|apply|erase)" $G/bench-kv64.log | tail -5
nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude -Isrc scratch/fill.cu build-gpu/src/libhive.a -lcudart_static -ldl -lpthread -latomic -o scratch/bin/fill_C || exit 1
for v in A S C A S C A S C; do
  echo "== $v $(scratch/bin/fill_$v 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?' | paste -s -d' ')  kv64: $(scratch/bin/fill_$v 33554432 0.9 1 64 3 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?' | paste -s -d' ')"
done | tee $R/ab.log
for v in S C; do echo "== ncu $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum scratch/bin/fill_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee $R/ncu.log
scratch/bin/fill_C 67108864 0.9 9 32 1 > $R/slices_C.log; cat $R/slices_C.log
exit $rc
