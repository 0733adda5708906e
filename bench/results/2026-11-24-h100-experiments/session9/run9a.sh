#!/usr/bin/env bash
# Session 9: A = f4ceb95 (0973330 kernels), M = per-key marks as bits when the caller passes no results
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/scratch/lib
R=/tmp/r9a; mkdir -p $R; trap 'tar czf $OUT/r9a.tgz -C /tmp r9a' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
S=$SECONDS
for v in A M M A A M; do
  echo "== $v $(scratch/bin/fillH_$v 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')  kv64: $(scratch/bin/fillH_$v 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')"
done | tee $R/ab-fill.log
echo "fills took $((SECONDS-S)) s"
for v in A M; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum scratch/bin/fillH_$v $kv 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done; done | tee $R/ncu.log
echo "ncu done at $((SECONDS-S)) s"
for v in A M M A; do
  timeout 150 scratch/bin/bench_$v balanced --out $R/b_$v > $R/balanced-$v-$SECONDS.log 2>&1
  echo "== $v KV32 (at $((SECONDS-S)) s)"; grep -E "^(insert|find|find-negative) " $R/balanced-$v-*.log | tail -0; ls -t $R/balanced-$v-*.log | head -1 | xargs grep -E "^(insert|find|find-negative) " | grep -E " (67108864|33554432|16777216|4194304|1048576) " 
  [ $((SECONDS-S)) -gt 420 ] && break
done | tee $R/ab-balanced.log
