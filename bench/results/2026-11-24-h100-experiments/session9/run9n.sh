#!/usr/bin/env bash
# Session 9: H = 7aaa2ef; S = H with the deferred kernels gathering from marks only (marks-only.diff: no result-byte path, as one kernel per gather would be)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/scratch/lib
R=/tmp/r9n; mkdir -p $R; trap 'tar czf $OUT/r9n.tgz -C /tmp r9n' EXIT
for v in H S S H H S S H; do
  echo "== $v $(scratch/bin/fillW_$v 67108864 0.9 1 32 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | tail -n +2 | paste -s -d' ')  kv64: $(scratch/bin/fillW_$v 33554432 0.9 1 64 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | tail -n +2 | paste -s -d' ')"
done | tee $R/ab-fill.log
for v in H S H S; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_deferred" --metrics gpu__time_duration.sum scratch/bin/fillW_$v $kv 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done; done | tee $R/ncu.log
