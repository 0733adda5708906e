#!/usr/bin/env bash
# D = 25fe776, R = HEAD (full bits KV32 only)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/rr; mkdir -p $R; trap 'tar czf $OUT/rr.tgz -C /tmp rr' EXIT
for v in D R D R D R; do
  echo "== fill $v $(scratch/bin/fill_$v 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|WRONG|LOST' | paste -s -d' ')  kv64: $(scratch/bin/fill_$v 33554432 0.9 1 64 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|WRONG|LOST' | paste -s -d' ')"
done | tee $R/ab.log
for v in D R; do echo "== ncu kv64 $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum scratch/bin/fill_$v 33554432 0.9 1 64 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee -a $R/ab.log
