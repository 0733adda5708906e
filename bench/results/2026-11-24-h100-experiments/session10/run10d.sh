#!/usr/bin/env bash
# Session 10: H = 23b39d7; U = H with every bucket scanned a sector at a time (one-sector buckets too: one scan for every geometry)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/scratch/lib
R=/tmp/r10d; mkdir -p $R; trap 'tar czf $OUT/r10d.tgz -C /tmp r10d' EXIT
f() { "$@" | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s [a-zA-Z]*|absent [0-9.]* G/s \([0-9]* found\)|LOST|WRONG' | paste -s -d' '; }
for v in H U U H; do
  echo "== $v kv32 fill: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 4)"
done | tee $R/ab-fill.log
for v in H U U H; do
  scratch/bin/hive-bench_$v balanced mixed --n 67108864 --runs 5 --out $R/b-$v > $R/bench-$v.log 2>&1
  echo "== $v"; grep -E "^(insert|find|apply|erase)" $R/bench-$v.log
  scratch/bin/hive-bench_$v scaling --n 100000000 --runs 3 --out $R/s-$v > $R/scal-$v.log 2>&1
  grep -E "^(find|erase)" $R/scal-$v.log | tail -2
done | tee $R/ab-bench.log
