#!/bin/bash
# Session 14, item 82: find blocks per SM (HIVE_EXP_FIND_CAP) for H (4c45580 + the knob) and S (stash before the walk, key filter), by size and width.
export PATH=/usr/local/cuda/bin:$PATH
cd scratch/bin
run() { echo "== $*"; timeout 90 env "$@" 2>&1 | grep -E "all|find"; }
for rep in 1 2; do
  for kvn in "32 16777216" "32 33554432" "32 67108864" "64 16777216" "64 33554432"; do
    set -- $kvn
    for v in H S; do
      run ./fillW_$v $2 0.9 1 $1 2
      run HIVE_EXP_FIND_CAP=3 ./fillW_$v $2 0.9 1 $1 2
      run HIVE_EXP_FIND_CAP=4 ./fillW_$v $2 0.9 1 $1 2
    done
  done
done
