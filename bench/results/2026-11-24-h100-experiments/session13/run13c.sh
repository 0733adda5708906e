#!/usr/bin/env bash
# Session 13: P = the deferred kernels' locked paths with one release fence per warp (phased), H = 1f96f03
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r13c; mkdir -p $R; trap 'tar czf $OUT/r13c.tgz -C /tmp r13c' EXIT
f() { "$@" | grep -oE 'all [0-9.]* G/s|LOST|WRONG|steps [0-9 ]*evictions [0-9]*' | paste -s -d' '; }
for v in H P P H H P; do echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 3)"; done | tee $R/ab-fill.log
for v in H P P H; do echo "== $v kv64: $(f scratch/bin/fillW_$v 33554432 0.9 1 64 3)"; done | tee -a $R/ab-fill.log
for v in H P P H; do echo "== $v"; scratch/bin/mixW_$v 67108864 3; done 2>&1 | tee $R/ab-mixed.log | grep -oE "== .|all [0-9.]* G/s|WRONG" | paste -s -d' '
M=gpu__time_duration.sum,lts__t_requests.sum,lts__t_requests_op_membar.sum,lts__t_requests_op_read.sum,lts__t_requests_op_atom.sum
for v in H P; do echo "== ncu fill $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics $M scratch/bin/fillW_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done | tee $R/ncu-fill.log
for v in H P; do echo "== ncu mixed $v"; ncu --clock-control none -k regex:"hive_(mixed|deferred)" --metrics $M scratch/bin/mixW_$v 67108864 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done | tee $R/ncu-mixed.log
