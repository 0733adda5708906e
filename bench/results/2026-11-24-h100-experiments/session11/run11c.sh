#!/usr/bin/env bash
# Session 11: B = c7c93d2; P = B with the eviction search's words loaded two slots per 16-byte access (KV32)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r11c; mkdir -p $R; trap 'tar czf $OUT/r11c.tgz -C /tmp r11c' EXIT
f() { "$@" | grep -oE 'all [0-9.]* G/s|steps.*|find [0-9.]* G/s|absent [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; }
for v in B P P B B P P B; do
  echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 3)"
done | tee $R/ab-pairs.log
for v in B P; do echo "== ncu $v"; ncu --clock-control none -k regex:"hive_deferred" --metrics gpu__time_duration.sum,lts__t_requests.sum,lts__t_sectors.sum,lts__t_requests_op_read.sum,lts__t_requests_op_atom.sum,lts__t_requests_op_red.sum,lts__t_requests_op_write.sum,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed scratch/bin/fillW_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done | tee $R/ncu-pairs.log
