#!/bin/bash
# Session 14, item 80b: T = deep keys into their home stash bucket's first two slots (equal memory).
cd scratch/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "== $*"; timeout 60 env "$@" 2>&1 | grep -v "^L2 fetch"; }
N=67108864
for rep in 1 2 3; do
  run ./fillW_H $N 0.9 1 32 3
  run ./fillW_T $N 0.9 1 32 3
done
for rep in 1 2; do
  run ./mixW_H $N 3
  run ./mixW_T $N 3
  run ./fillW_H 33554432 0.9 1 64 3
  run ./fillW_T 33554432 0.9 1 64 3
done
