#!/usr/bin/env bash
# Session 8: blocks per SM of the lock-free pass after bca7a33 (P = bca7a33 + HIVE_PASS_BLOCKS env override)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8l; mkdir -p $R; trap 'tar czf $OUT/r8l.tgz -C /tmp r8l' EXIT
for b in 4 3 5 6 6 5 3 4; do
  echo "== blocks $b $(HIVE_PASS_BLOCKS=$b scratch/bin/fillH_P 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')  kv64: $(HIVE_PASS_BLOCKS=$b scratch/bin/fillH_P 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')"
done | tee $R/ab.log
for b in 3 4 5 6; do echo "== ncu blocks $b"; for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do HIVE_PASS_BLOCKS=$b ncu --clock-control none -k regex:"hive_upsert" --metrics gpu__time_duration.sum scratch/bin/fillH_P $kv 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done; done | tee $R/ncu.log
