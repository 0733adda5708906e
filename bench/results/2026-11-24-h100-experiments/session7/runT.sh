#!/usr/bin/env bash
# D = 25fe776, T = working tree (hint kernel clears the bits when it declines; no view copy in the deferred kernels)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/scratch/lib
R=/tmp/rt; mkdir -p $R; trap 'tar czf $OUT/rt.tgz -C /tmp rt' EXIT
for v in D T D T D T; do
  echo "== fill $v $(scratch/bin/fill_$v 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|WRONG|LOST' | paste -s -d' ')  kv64: $(scratch/bin/fill_$v 33554432 0.9 1 64 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|WRONG|LOST' | paste -s -d' ')"
done | tee $R/ab.log
for v in T D T D; do
  echo "== $v"; scratch/bin/bench_$v balanced mixed --runs 3 --out $R/out_$v > $R/bench_$v.log 2>&1
  grep -E "^(insert|apply)" $R/bench_$v.log | awk '{print $1, $2, $3, $5}' | paste -s -d' '
done | tee -a $R/ab.log
for v in D T; do echo "== ncu $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum scratch/bin/fill_$v 33554432 0.9 1 64 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum scratch/bin/fill_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee -a $R/ab.log
