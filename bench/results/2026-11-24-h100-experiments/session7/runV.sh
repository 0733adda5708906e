#!/usr/bin/env bash
# KV64 regression hunt: D = 25fe776, R = d1bbae3, V1 = R with locks not interleaved (no hint), V2 = R without the hint test in the search
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/rv; mkdir -p $R; trap 'tar czf $OUT/rv.tgz -C /tmp rv' EXIT
for v in D R V1 V2 D R V1 V2 D R V1 V2; do
  echo "== $v kv64: $(scratch/bin/fill_$v 33554432 0.9 1 64 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|WRONG|LOST' | paste -s -d' ')"
done | tee $R/ab.log
for v in D R V1 V2; do echo "== ncu kv64 $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum scratch/bin/fill_$v 33554432 0.9 1 64 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee -a $R/ab.log
