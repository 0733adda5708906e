#!/bin/bash
# Session 14, item 81: C = a claims launch for deferred keys that saw a TOMB, against H (4c45580).
export PATH=/usr/local/cuda/bin:$PATH
cd scratch/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "== $*"; timeout 90 env "$@" 2>&1 | grep -v "^L2 fetch\|^config"; }
N=67108864
for rep in 1 2 3; do
  run ./mixW_H $N 3
  run ./mixW_C $N 3
done
for rep in 1 2; do
  run ./fillW_H $N 0.9 1 32 2
  run ./fillW_C $N 0.9 1 32 2
done
run ./fillW_H 33554432 0.9 1 64 2
run ./fillW_C 33554432 0.9 1 64 2
for v in H C; do
  echo "== ncu $v mixed"
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum ./mixW_$v $N 1 2>&1 | grep -E "hive_|gpu__time|run " | grep -v "==PROF" | sed 's/(hive_view.*//' | paste -s -d' ' | sed 's/    */ /g'
done
