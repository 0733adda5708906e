#!/usr/bin/env bash
# Session 8: D = 667699e, C = deferred kernels take their stretches of results from a cursor
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8c; mkdir -p $R; trap 'tar czf $OUT/r8c.tgz -C /tmp r8c' EXIT
for v in D C C D D C C D; do
  echo "== $v $(scratch/bin/fillH_$v 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST|verified' | paste -s -d' ')  kv64: $(scratch/bin/fillH_$v 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST|verified' | paste -s -d' ')"
done | tee $R/ab.log
M=gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_elapsed.max,smsp__warps_active.avg.per_cycle_active
for v in D C; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics $M scratch/bin/fillH_$v $kv 2>&1 | grep -E "^  hive_|duration|cycles|warps" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - - - ; done; done | tee $R/ncu.log
for v in D C; do echo "== slices $v"; scratch/bin/fillH_$v 67108864 0.9 9 32 2 | tail -2; done | tee $R/slices.log
