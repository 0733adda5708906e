#!/bin/bash
# Session 14, item 82 follow-up: is S's absent-find loss the find kernel's occupancy (36 registers, 7 blocks/SM, against 38 and 6)
# or the filter?  S = stash before the walk + key filter; F = key filter only; HIVE_EXP_FIND_CAP caps find blocks per SM.
export PATH=/usr/local/cuda/bin:$PATH
cd scratch/bin
run() { echo "== $*"; timeout 90 env "$@" 2>&1 | grep -E "all|find"; }
N=67108864
for rep in 1 2; do
  run ./fillW_H $N 0.9 1 32 2
  run ./fillW_S $N 0.9 1 32 2
  run HIVE_EXP_FIND_CAP=6 ./fillW_S $N 0.9 1 32 2
  run ./fillW_F $N 0.9 1 32 2
  run HIVE_EXP_FIND_CAP=6 ./fillW_F $N 0.9 1 32 2
  run HIVE_EXP_FIND_CAP=5 ./fillW_S $N 0.9 1 32 2
  run HIVE_EXP_FIND_CAP=4 ./fillW_S $N 0.9 1 32 2
done
for rep in 1 2; do
  run ./mixW_H $N 3
  run ./mixW_S $N 3
  run ./mixW_F $N 3
  run HIVE_EXP_MIXED_CAP=4 ./mixW_S $N 3
done
