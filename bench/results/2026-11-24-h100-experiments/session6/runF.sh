#!/usr/bin/env bash
# A/S/B: A = d41cb53 (prebuilt fill_A), S = scan refactor only (prebuilt fill_S), B = working tree (scan + full marks)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/rf; mkdir -p $R; trap "tar czf $OUT/rf.tgz -C /tmp rf"  EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
scratch/bin/pass_micro > $R/micro.log 2>&1 &
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null && cmake --build build-gpu -j16 > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
wait
cat $R/micro.log
nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude -Isrc scratch/fill.cu build-gpu/src/libhive.a -lcudart_static -ldl -lpthread -latomic -o scratch/bin/fill_B || exit 1
for v in A S B A S B A S B; do
  echo "== $v $(scratch/bin/fill_$v 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?' | paste -s -d' ')  kv64: $(scratch/bin/fill_$v 33554432 0.9 1 64 3 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?' | paste -s -d' ')"
done | tee $R/ab.log
for v in A B; do scratch/bin/fill_$v 67108864 0.9 9 32 1 > $R/slices_$v.log; done; cat $R/slices_*.log
for v in A S B; do echo "== ncu $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum,smsp__thread_inst_executed_per_inst_executed.ratio scratch/bin/fill_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|duration|ratio" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - ; done | tee $R/ncu.log
HIVE_REQUIRE_GPU=1 ctest --test-dir build-gpu -j 8 -LE slow > $R/tests.log 2>&1; tail -3 $R/tests.log
build-gpu/bench/hive-bench mixed --out $R/mixed > $R/mixed.log 2>&1; grep -E "^apply|^insert" $R/mixed.log | tail -4
for v in A B; do echo "== ncu kv64 $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum scratch/bin/fill_$v 33554432 0.9 1 64 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee -a $R/ncu.log
HIVE_REQUIRE_GPU=1 timeout 150 ctest --test-dir build-gpu -j 4 -L slow -R cuda > $R/tests-slow.log 2>&1; tail -3 $R/tests-slow.log
