#!/usr/bin/env bash
# Session 8: erase and find kernels capped at N blocks per SM on tables beyond twice L2 (P2 = bca7a33 + env caps)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/scratch/lib
R=/tmp/r8m; mkdir -p $R; trap 'tar czf $OUT/r8m.tgz -C /tmp r8m' EXIT
for c in 0 4 3 0 3 4; do
  HIVE_ERASE_BLOCKS=$c HIVE_FIND_BLOCKS=$c scratch/bin/bench_P2 scaling --n 100000000 --runs 3 --out $R/s_$c > $R/scaling_$c.log 2>&1
  HIVE_ERASE_BLOCKS=$c HIVE_FIND_BLOCKS=$c scratch/bin/bench_P2 balanced --runs 3 --out $R/b_$c > $R/balanced_$c.log 2>&1
  echo "== cap $c: $(grep -E '^(find|erase)' $R/scaling_$c.log | tail -2 | awk '{print $1, $2, $5}' | paste -s -d' ') | $(grep -E '^(find|find-negative)' $R/balanced_$c.log | grep -E ' 67108864 0.900' | awk '{print $1, $5}' | paste -s -d' ')"
done | tee $R/ab.log
for c in 0 3; do HIVE_ERASE_BLOCKS=$c HIVE_FIND_BLOCKS=$c scratch/bin/bench_P2 --kv 64 balanced --runs 3 --out $R/b64_$c > $R/b64_$c.log 2>&1; echo "== kv64 cap $c: $(grep -E '^(find|find-negative)' $R/b64_$c.log | grep -E ' 33554432 0.900' | awk '{print $1, $5}' | paste -s -d' ')"; done | tee -a $R/ab.log
