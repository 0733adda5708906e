#!/usr/bin/env bash
# D = 25fe776, N = working tree (cap and full bits only for uniform inserts into tables > 2x L2)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/scratch/lib
R=/tmp/rb4; mkdir -p $R; trap 'tar czf $OUT/rb4.tgz -C /tmp rb4' EXIT
for v in N D; do
  echo "== $v"; scratch/bin/bench_$v balanced mixed --runs 3 --out $R/out_$v > $R/bench_$v.log 2>&1
  grep -E "^(insert|apply)" $R/bench_$v.log | awk '{print $1, $2, $3, $5}' | paste -s -d' '
done | tee $R/ab.log
for v in D N D N D N; do
  echo "== fill $v $(scratch/bin/fill_$v 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|WRONG|LOST' | paste -s -d' ')  kv64: $(scratch/bin/fill_$v 33554432 0.9 1 64 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|WRONG|LOST' | paste -s -d' ')"
done | tee -a $R/ab.log
