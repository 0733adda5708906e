#!/bin/bash
# Session 14, item 82: S = keys no two moves place go to an unused home stash bucket before the walk, with the key filter; against H (4c45580).
export PATH=/usr/local/cuda/bin:$PATH
cd scratch/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "== $*"; timeout 90 env "$@" 2>&1 | grep -v "^L2 fetch\|^config"; }
N=67108864
for rep in 1 2 3; do
  run ./fillW_H $N 0.9 1 32 3
  run ./fillW_S $N 0.9 1 32 3
done
for rep in 1 2; do
  run ./fillW_H 33554432 0.9 1 64 3
  run ./fillW_S 33554432 0.9 1 64 3
  run ./mixW_H $N 3
  run ./mixW_S $N 3
done
run ./fillW_H $N 0.95 1 32 2
run ./fillW_S $N 0.95 1 32 2
for v in H S; do
  echo "== ncu $v kv32 fill"
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum ./fillW_$v $N 0.9 1 32 1 2>&1 | grep -E "hive_|gpu__time" | grep -v "==PROF" | sed 's/(hive_view.*//' | paste -s -d' ' | sed 's/  */ /g'
done
