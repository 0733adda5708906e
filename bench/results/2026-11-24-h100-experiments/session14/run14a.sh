#!/bin/bash
# Session 14, item 80: deep keys into the stash (T) against H; stash fractions; key filter.
cd scratch/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "== $*"; timeout 60 env "$@" 2>&1 | grep -v "^L2 fetch"; }
N=67108864
for rep in 1 2; do
  run ./fillW_H $N 0.9 1 32 3
  run STASHF=0.01 ./fillW_T $N 0.9 1 32 3
  run STASHF=0.03 ./fillW_T $N 0.9 1 32 3
  run STASHF=0.03 KEEPTOTAL=1 ./fillW_T $N 0.9 1 32 3
  run STASHF=0.02 KEEPTOTAL=1 ./fillW_T $N 0.9 1 32 3
done
run STASHF=0.03 KEEPTOTAL=1 ./fillW_H $N 0.9 1 32 2
for rep in 1 2; do
  run ./mixW_H $N 3
  run ./mixW_T $N 3
  run STASHF=0.03 KEEPTOTAL=1 ./mixW_T $N 3
done
run ./fillW_H 33554432 0.9 1 64 3
run STASHF=0.03 KEEPTOTAL=1 ./fillW_T 33554432 0.9 1 64 3
