#!/usr/bin/env bash
# Session 8: the mixed kernel capped at N blocks per SM on tables beyond twice L2 (M = f5a2f88 + HIVE_MIXED_BLOCKS)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/scratch/lib
R=/tmp/r8q; mkdir -p $R; trap 'tar czf $OUT/r8q.tgz -C /tmp r8q' EXIT
for c in 0 4 3 0 3 4; do
  HIVE_MIXED_BLOCKS=$c scratch/bin/bench_M mixed --runs 3 --out $R/m_$c > $R/mixed_$c.log 2>&1
  echo "== cap $c: $(grep -E '^apply' $R/mixed_$c.log | awk '{print $2, $5}' | paste -s -d' ')"
done | tee $R/ab.log
for c in 0 3 4; do HIVE_MIXED_BLOCKS=$c scratch/bin/bench_M --kv 64 mixed --runs 3 --out $R/m64_$c > $R/mixed64_$c.log 2>&1; echo "== kv64 cap $c: $(grep -E '^apply' $R/mixed64_$c.log | awk '{print $2, $5}' | paste -s -d' ')"; done | tee -a $R/ab.log
