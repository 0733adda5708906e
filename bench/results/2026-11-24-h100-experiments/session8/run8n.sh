#!/usr/bin/env bash
# Session 8: grids of the short and deep deferred launches capped at N blocks per SM (same 64-register build), pass at 3
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH HIVE_PASS_BLOCKS=3
R=/tmp/r8n; mkdir -p $R; trap 'tar czf $OUT/r8n.tgz -C /tmp r8n' EXIT
for c in "4 4" "3 3" "2 2" "3 4" "4 3" "2 2" "3 3" "4 4"; do set -- $c
  echo "== short $1 deep $2: $(HIVE_DEFER_BLOCKS=$1 HIVE_DEEP_BLOCKS=$2 scratch/bin/fillH_P 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')  kv64: $(HIVE_DEFER_BLOCKS=$1 HIVE_DEEP_BLOCKS=$2 scratch/bin/fillH_P 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')"
done | tee $R/ab.log
for c in 4 3 2; do echo "== ncu $c"; for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do HIVE_DEFER_BLOCKS=$c HIVE_DEEP_BLOCKS=$c ncu --clock-control none -k regex:"hive_deferred" --metrics gpu__time_duration.sum scratch/bin/fillH_P $kv 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done; done | tee $R/ncu.log
