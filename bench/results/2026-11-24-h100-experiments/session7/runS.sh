#!/usr/bin/env bash
# D = 25fe776, S = working tree (full bits from the pool, KV32 bulk inserts only; dense locks)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/scratch/lib
R=/tmp/rs; mkdir -p $R; trap 'tar czf $OUT/rs.tgz -C /tmp rs' EXIT
for v in D S D S D S; do
  echo "== fill $v $(scratch/bin/fill_$v 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|WRONG|LOST' | paste -s -d' ')  kv64: $(scratch/bin/fill_$v 33554432 0.9 1 64 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|WRONG|LOST' | paste -s -d' ')"
done | tee $R/ab.log
for v in S D; do
  echo "== $v"; scratch/bin/bench_$v balanced mixed --runs 3 --out $R/out_$v > $R/bench_$v.log 2>&1
  grep -E "^(insert|apply)" $R/bench_$v.log | awk '{print $1, $2, $3, $5}' | paste -s -d' '
done | tee -a $R/ab.log
for v in D S; do echo "== ncu $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum scratch/bin/fill_$v 33554432 0.9 1 64 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum scratch/bin/fill_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee -a $R/ab.log
