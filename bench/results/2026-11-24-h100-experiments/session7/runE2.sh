#!/usr/bin/env bash
# T = f879d97 (final), E = T with the deep launch split: second level over b1's pairs, then the rest in a fourth launch
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/re2; mkdir -p $R; trap 'tar czf $OUT/re2.tgz -C /tmp re2' EXIT
for v in T E T E T E; do
  echo "== fill $v $(scratch/bin/fill_$v 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|WRONG|LOST|steps [0-9 ]*' | paste -s -d' ')  kv64: $(scratch/bin/fill_$v 33554432 0.9 1 64 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|WRONG|LOST' | paste -s -d' ')"
done | tee $R/ab.log
for v in T E; do echo "== ncu $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum,smsp__thread_inst_executed_per_inst_executed.ratio scratch/bin/fill_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|duration|ratio" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - ; done | tee -a $R/ab.log
