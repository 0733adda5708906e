#!/usr/bin/env bash
# Session 8: U = de5a9f5, F = U + hive_order_reads as fence.acquire.gpu (lock-free paths: pass, find, erase)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8j; mkdir -p $R; trap 'tar czf $OUT/r8j.tgz -C /tmp r8j' EXIT
nvcc -arch=sm_90 -cubin -o $R/g.cubin scratch/fence_sass2.cu && cuobjdump -sass $R/g.cubin | grep -E "Function|MEMBAR|ATOM|RED|LDG|CCTL|FENCE|ERRBAR|STG" > $R/fence-sass2.txt; cat $R/fence-sass2.txt
for v in U F F U U F; do
  echo "== $v $(scratch/bin/fillH_$v 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')  kv64: $(scratch/bin/fillH_$v 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')"
done | tee $R/ab.log
for v in U F; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full|find)" --metrics gpu__time_duration.sum scratch/bin/fillH_$v $kv 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done; done | tee $R/ncu.log
export LD_LIBRARY_PATH=$PWD/scratch/lib
for v in U F F U; do
  scratch/bin/bench_$v balanced mixed --runs 3 --out $R/out_$v > $R/bench_$v.log 2>&1
  echo "== $v"; grep -E "^(insert|find|apply)" $R/bench_$v.log | grep -E " (16777216|67108864) " | awk '{print $1, $2, $3, $5}' | paste -s -d' '
  grep -E "verification failures" $R/bench_$v.log
done | tee $R/ab-bench.log
for v in U F; do
  scratch/bin/bench_$v --kv 64 balanced --runs 3 --out $R/out64_$v > $R/bench64_$v.log 2>&1
  echo "== kv64 $v"; grep -E "^(insert|find)" $R/bench64_$v.log | grep -E " (33554432|67108864) " | awk '{print $1, $2, $3, $5}' | paste -s -d' '
  scratch/bin/bench_$v scaling --n 100000000 --runs 3 --out $R/scal_$v > $R/scaling_$v.log 2>&1
  echo "== scaling $v"; grep -E "^(insert|find|erase)" $R/scaling_$v.log | tail -3 | awk '{print $1, $2, $5}' | paste -s -d' '
done | tee -a $R/ab-bench.log
