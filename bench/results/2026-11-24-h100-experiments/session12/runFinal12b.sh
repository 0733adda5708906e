#!/usr/bin/env bash
# Session 12 final 2: 0b50530 — gpu-check with sanitizers and the benchmark (KV32, KV64), scaling (both widths), resize, slow GPU tests, fill slices and kernel times
set -uo pipefail
export HIVE_COMMIT=0b50530 PATH=/usr/local/cuda/bin:$PATH
R=/tmp/rf; mkdir -p $R; trap 'tar czf $OUT/rf.tgz -C /tmp rf; tar czf $OUT/gpu-check.tgz -C build-gpu gpu-check' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
SANITIZE=1 BENCH_ARGS="limits balanced mixed" SANITIZE_LIMIT=200 bash tools/gpu-check.sh > $R/gpucheck.out 2>&1; rc=$?
grep -E "tests passed|ERROR SUMMARY|RACECHECK SUMMARY|gpu-check:" $R/gpucheck.out | sort | uniq -c
B=build-gpu/bench/hive-bench; G=build-gpu/gpu-check
$B --kv 64 balanced mixed --n 33554432 --out $G/kv64 > $G/bench-kv64.log 2>&1
grep -E "^(insert|find|apply|erase|copy|gather|atomic)" $G/bench.log | tail -12; grep -E "^(insert|find|apply|erase)" $G/bench-kv64.log | tail -5
$B scaling --n 100000000 --out $G/scal32 > $G/scaling-kv32.log 2>&1; grep -E "^(insert|find|erase)" $G/scaling-kv32.log | tail -3
$B --kv 64 scaling --n 100000000 --out $G/scal64 > $G/scaling-kv64.log 2>&1; grep -E "^(insert|find|erase)" $G/scaling-kv64.log | tail -6
timeout 120 $B resize --out $G/resize > $G/resize.log 2>&1; grep -iE "grow|double|merge|split" $G/resize.log | tail -4
HIVE_REQUIRE_GPU=1 timeout 150 ctest --test-dir build-gpu -j 4 -L slow -R cuda > $G/tests-slow.log 2>&1; tail -3 $G/tests-slow.log
nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude -Isrc scratch/fill.cu build-gpu/src/libhive.a -lcudart_static -ldl -lpthread -latomic -o scratch/bin/fill_Z && scratch/bin/fill_Z 67108864 0.9 9 32 2 > $G/fill-slices.log
for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do ncu --clock-control none -k regex:"hive_(upsert|deferred|full|find)" --metrics gpu__time_duration.sum scratch/bin/fill_Z $kv 2>&1 | grep -E "^  hive_|duration" | sed "s/(hive_view.*//;s/ \+/ /g" | paste - - ; done > $G/fill-kernels.log; cat $G/fill-slices.log $G/fill-kernels.log
f() { "$@" | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | paste -s -d' '; }
for v in T2 L T2 L; do echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 2)"; done > $G/first-fill.log; cat $G/first-fill.log
exit $rc
