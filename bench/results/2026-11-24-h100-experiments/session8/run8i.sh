#!/usr/bin/env bash
# Session 8: D = 667699e, A = b806081 (acquire lock and first-bucket rescan), U = A + the lock released at the chain's first fence
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8i; mkdir -p $R; trap 'tar czf $OUT/r8i.tgz -C /tmp r8i' EXIT

for v in D U A U A D U D; do
  echo "== $v $(scratch/bin/fillH_$v 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST|verified' | paste -s -d' ')  kv64: $(scratch/bin/fillH_$v 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST|verified' | paste -s -d' ')"
done | tee $R/ab.log
for v in D U A U; do echo "== small $v: $(for n in 1048576 4194304; do scratch/bin/fillH_$v $n 0.9 1 32 4 | grep -oE 'all [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; done | paste -s -d'|')"; done | tee $R/ab-small.log
for v in D A U; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum scratch/bin/fillH_$v $kv 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done; done | tee $R/ncu.log
