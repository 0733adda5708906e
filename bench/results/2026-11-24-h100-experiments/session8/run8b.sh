#!/usr/bin/env bash
# Session 8: how evenly the SMs are busy in each kernel of a fill (tail of a one-wave grid)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8b; mkdir -p $R; trap 'tar czf $OUT/r8b.tgz -C /tmp r8b' EXIT
M=gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_active.min,sm__cycles_elapsed.max,smsp__warps_active.avg.per_cycle_active,sm__warps_active.avg.pct_of_peak_sustained_active
for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $kv"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full|find)" --metrics $M scratch/bin/fillH_D $kv 2>&1 | grep -E "^  hive_|duration|cycles|warps" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - - - - - - ; done | tee $R/ncu-tail.log
