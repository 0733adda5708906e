#!/bin/bash
# Session 14, item 82: filter bits per stash bucket (S: 32, S8: 8, S4: 4) against H; find blocks per SM (HIVE_EXP_FIND_CAP) for KV64.
export PATH=/usr/local/cuda/bin:$PATH
cd scratch/bin
run() { echo "== $*"; timeout 90 env "$@" 2>&1 | grep -E "all|find"; }
N=67108864
for rep in 1 2 3; do
  for v in H S S8 S4; do run ./fillW_$v $N 0.9 1 32 2; done
done
for rep in 1 2; do
  run ./fillW_H 33554432 0.9 1 64 2
  run ./fillW_S 33554432 0.9 1 64 2
  run ./fillW_S8 33554432 0.9 1 64 2
  run HIVE_EXP_FIND_CAP=4 ./fillW_S8 33554432 0.9 1 64 2
  run HIVE_EXP_FIND_CAP=3 ./fillW_S8 33554432 0.9 1 64 2
  run HIVE_EXP_FIND_CAP=4 ./fillW_S8 $N 0.9 1 32 2
  run HIVE_EXP_FIND_CAP=3 ./fillW_S8 $N 0.9 1 32 2
done
for rep in 1 2; do for v in H S8; do run ./mixW_$v $N 3; done; done
