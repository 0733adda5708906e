#!/bin/bash
# Session 15, item 86: P = batch kernels load the next element's key, value and op one trip ahead; against H (60e2788).
export PATH=/usr/local/cuda/bin:$PATH
cd scratch/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "== $*"; timeout 90 env "$@" 2>&1 | grep -v "^L2 fetch\|^config"; }
N=67108864
for rep in 1 2 3; do
  run ./fillW_H $N 0.9 1 32 3
  run ./fillW_P $N 0.9 1 32 3
done
for rep in 1 2; do
  run ./fillW_H 33554432 0.9 1 64 3
  run ./fillW_P 33554432 0.9 1 64 3
  run ./mixW_H $N 3
  run ./mixW_P $N 3
done
for n in 16777216; do run ./fillW_H $n 0.9 1 32 3; run ./fillW_P $n 0.9 1 32 3; done
for v in H P; do
  echo "== ncu $v kv32 fill"
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum ./fillW_$v $N 0.9 1 32 1 2>&1 | grep -E "hive_|gpu__time" | grep -v "==PROF" | sed 's/(hive_view.*//' | paste -s -d' ' | sed 's/  */ /g'
done
