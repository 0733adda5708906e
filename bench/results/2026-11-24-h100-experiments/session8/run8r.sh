#!/usr/bin/env bash
# Session 8: deferred kernels' launch bounds (256, N): C = 78175c1 (N = 4, 64 registers), B3 (N = 3), B2 (N = 2)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8r; mkdir -p $R; trap 'tar czf $OUT/r8r.tgz -C /tmp r8r' EXIT
for v in C B3 B2 C B2 B3; do
  echo "== $v $(scratch/bin/fillH_$v 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')  kv64: $(scratch/bin/fillH_$v 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')"
done | tee $R/ab.log
for v in C B3 B2; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_deferred" --metrics gpu__time_duration.sum,launch__registers_per_thread scratch/bin/fillH_$v $kv 2>&1 | grep -E "^  hive_|duration|registers" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - ; done; done | tee $R/ncu.log
