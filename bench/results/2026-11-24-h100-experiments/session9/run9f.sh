#!/usr/bin/env bash
# Session 9: H = 8e8c3a6 (marks + launch bounds); T = H with the full bits kept in the table (no per-call allocation, taken by bulk inserts, zeroed by resizes)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/scratch/lib
R=/tmp/r9f; mkdir -p $R; trap 'tar czf $OUT/r9f.tgz -C /tmp r9f' EXIT
S=$SECONDS
for v in H T T H H T; do for w in 0 1; do
  if [ $w = 1 ]; then export WARM=1; else unset WARM; fi
  echo "== $v warm $w $(scratch/bin/fillW_$v 67108864 0.9 1 32 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | tail -n +2 | paste -s -d' ')  kv64: $(scratch/bin/fillW_$v 33554432 0.9 1 64 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | tail -n +2 | paste -s -d' ')"
done; done | tee $R/ab-fill.log
unset WARM
for v in H T T H H T; do
  timeout 150 scratch/bin/bench_$v limits balanced mixed --out $R/b_$v > $R/bench-$v-$SECONDS.log 2>&1
  echo "== $v KV32 (at $((SECONDS-S)) s)"; ls -t $R/bench-$v-*.log | head -1 | xargs grep -E "^(insert|find|find-negative|apply-0.5:0.3:0.2|gather-sector) " | grep -E " (67108864|33554432|4194304|1048576|1073741824) "
done | tee $R/ab-bench.log
for v in H T T H H T; do
  timeout 100 scratch/bin/bench_$v --kv 64 balanced mixed --n 33554432 --out $R/b64_$v > $R/bench64-$v-$SECONDS.log 2>&1
  echo "== $v KV64 (at $((SECONDS-S)) s)"; ls -t $R/bench64-$v-*.log | head -1 | xargs grep -E "^(insert|find|find-negative|apply-0.5:0.3:0.2) "
done | tee $R/ab-bench64.log
