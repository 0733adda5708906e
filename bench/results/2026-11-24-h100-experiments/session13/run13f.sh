#!/usr/bin/env bash
# Session 13: W = (second version: no lane waits inside the deferred path: a taken lock or a frozen slot returns HIVE_R_BUSY) lanes that searched together rejoin before carrying out their chains (hive_evict_near), H = 1f96f03
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r13f; mkdir -p $R; trap 'tar czf $OUT/r13f.tgz -C /tmp r13f' EXIT
f() { "$@" | grep -oE 'all [0-9.]* G/s|LOST|WRONG|steps [0-9 ]*evictions [0-9]*' | paste -s -d' '; }
for v in H W W H H W W H; do echo "== $v kv32: $(f timeout 60 scratch/bin/fillW_$v 67108864 0.9 1 32 3)"; done | tee $R/ab-rejoin-fill.log
for v in H W W H; do echo "== $v kv64: $(f timeout 60 scratch/bin/fillW_$v 33554432 0.9 1 64 3)"; done | tee -a $R/ab-rejoin-fill.log
for v in H W W H; do echo "== $v"; timeout 60 scratch/bin/mixW_$v 67108864 3; done 2>&1 | tee $R/ab-rejoin-mixed.log | grep -oE "== .|all [0-9.]* G/s|WRONG" | paste -s -d' '
M=gpu__time_duration.sum,lts__t_requests.sum,lts__t_requests_op_membar.sum
for v in H W; do echo "== ncu fill $v"; timeout 120 ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics $M scratch/bin/fillW_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done | tee $R/ncu-rejoin-fill.log
for v in H W; do echo "== ncu fill kv64 $v"; timeout 120 ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum scratch/bin/fillW_$v 33554432 0.9 1 64 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done | tee -a $R/ncu-rejoin-fill.log
for v in H W; do echo "== ncu mixed $v"; timeout 120 ncu --clock-control none -k regex:"hive_(mixed|deferred)" --metrics gpu__time_duration.sum scratch/bin/mixW_$v 67108864 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done | tee $R/ncu-rejoin-mixed.log
