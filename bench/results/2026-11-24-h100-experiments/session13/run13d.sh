#!/usr/bin/env bash
# Session 13: N = locked paths that take a bucket's last slot set its full bit, H = 1f96f03
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r13d; mkdir -p $R; trap 'tar czf $OUT/r13d.tgz -C /tmp r13d' EXIT
f() { "$@" | grep -oE 'all [0-9.]* G/s|LOST|WRONG|steps [0-9 ]*evictions [0-9]*' | paste -s -d' '; }
for v in H N N H H N N H; do echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 3)"; done | tee $R/ab-note-full.log
M=gpu__time_duration.sum,lts__t_requests.sum,dram__sectors_read.sum,lts__t_requests_op_red.sum
for v in H N; do echo "== ncu fill $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics $M scratch/bin/fillW_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done | tee $R/ncu-note-full.log
