#!/bin/bash
# Session 15, item 85: N = full bits set by the pass (no table scan into an empty table), KV64 too; against H (60e2788).
export PATH=/usr/local/cuda/bin:$PATH
cd scratch/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "== $*"; timeout 90 env "$@" 2>&1 | grep -v "^L2 fetch\|^config"; }
N=67108864
for rep in 1 2 3; do
  run ./fillW_H $N 0.9 1 32 3
  run ./fillW_N $N 0.9 1 32 3
done
for rep in 1 2; do
  run ./fillW_H 33554432 0.9 1 64 3
  run ./fillW_N 33554432 0.9 1 64 3
done
for v in H N; do run ./fillW_$v $N 0.9 2 32 2; done
for v in H N; do run ./mixW_$v $N 3; done
for v in H N; do
  for kv in "32 $N" "64 33554432"; do
    set -- $kv
    echo "== ncu $v kv$1 fill"
    timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum ./fillW_$v $2 0.9 1 $1 1 2>&1 | grep -E "hive_|gpu__time" | grep -v "==PROF" | sed 's/(hive_view.*//' | paste -s -d' ' | sed 's/  */ /g'
  done
done
