#!/usr/bin/env bash
# Session 13: B = deferred inserts that only need a TOMB take it in the batch kernel (inline claims), A = without
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r13a; mkdir -p $R; trap 'tar czf $OUT/r13a.tgz -C /tmp r13a' EXIT
for v in A B B A A B B A; do echo "== $v"; scratch/bin/mixW_$v 67108864 3 | sed 's/ | steps/\n      steps/'; done 2>&1 | tee $R/ab-mixed.log | grep -E "==|G/s" | awk '/==/{v=$2} /G\/s/{print v, $5, $10, $13, $14}'
f() { "$@" | grep -oE 'all [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; }
for v in A B B A; do echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 3)"; done | tee $R/ab-fill.log
for v in A B; do echo "== ncu $v"; ncu --clock-control none -k regex:"hive_(mixed|deferred|full)" --metrics gpu__time_duration.sum,lts__t_requests.sum,dram__sectors_read.sum scratch/bin/mixW_$v 67108864 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done | tee $R/ncu-mixed.log
