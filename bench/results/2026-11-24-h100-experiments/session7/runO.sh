#!/usr/bin/env bash
# HEAD with every launch capped at B blocks/SM (HIVE_X2_BLOCKS): pass occupancy sweep
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/ro; mkdir -p $R; trap 'tar czf $OUT/ro.tgz -C /tmp ro' EXIT
for r in 1 2; do for B in 6 5 4 3 2; do
  P="env HIVE_X2_BLOCKS=$B scratch/bin/fill_O"
  echo "== $B $($P 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|LOST|WRONG|    find [0-9.]* G/s' | paste -s -d' ')  kv64: $($P 33554432 0.9 1 64 3 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|LOST|WRONG|find [0-9.]* G/s' | paste -s -d' ')"
done; done | tee $R/ab.log
for B in 6 4 3 2; do echo "== ncu $B"; HIVE_X2_BLOCKS=$B ncu --clock-control none -k regex:"hive_(upsert|deferred|find)" --metrics gpu__time_duration.sum scratch/bin/fill_O 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee $R/ncu.log
for B in 6 4 3 2; do echo "== ncu kv64 $B"; HIVE_X2_BLOCKS=$B ncu --clock-control none -k regex:"hive_(upsert|deferred|find)" --metrics gpu__time_duration.sum scratch/bin/fill_O 33554432 0.9 1 64 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee -a $R/ncu.log
