#!/usr/bin/env bash
# Session 8: D = 667699e, A = acquire lock (atom.acquire.or) and acquire loads for the locked path's first-bucket scan
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8g; mkdir -p $R; trap 'tar czf $OUT/r8g.tgz -C /tmp r8g' EXIT
for v in D A; do for f in hive_deferred_kv32_s4 hive_deferred_deep_kv32_s4 hive_deferred_kv64_s4; do echo "$v $f MEMBAR $(cuobjdump -sass -fun $f scratch/bin/fillH_$v | grep -c MEMBAR) CCTL $(cuobjdump -sass -fun $f scratch/bin/fillH_$v | grep -c CCTL)"; done; done | tee $R/sass-count.log
for v in D A A D D A A D; do
  echo "== $v $(scratch/bin/fillH_$v 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST|verified' | paste -s -d' ')  kv64: $(scratch/bin/fillH_$v 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST|verified' | paste -s -d' ')"
done | tee $R/ab.log
for v in D A A D; do echo "== small $v: $(for n in 1048576 4194304; do scratch/bin/fillH_$v $n 0.9 1 32 4 | grep -oE 'all [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; done | paste -s -d'|')"; done | tee $R/ab-small.log
for v in D A; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum scratch/bin/fillH_$v $kv 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done; done | tee $R/ncu.log
