#!/usr/bin/env bash
# Session 9: H = 8e8c3a6; W = H with one small allocation from the table's pool at create (the pool's first-allocation cost paid there)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/scratch/lib
R=/tmp/r9m; mkdir -p $R; trap 'tar czf $OUT/r9m.tgz -C /tmp r9m' EXIT
S=$SECONDS
for v in H W W H H W W H; do
  echo "== $v $(scratch/bin/fillW_$v 67108864 0.9 1 32 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | tail -n +2 | paste -s -d' ')  kv64: $(scratch/bin/fillW_$v 33554432 0.9 1 64 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | tail -n +2 | paste -s -d' ')"
done | tee $R/ab-fill.log
for v in H W W H H W; do
  timeout 150 scratch/bin/bench_$v limits balanced mixed --out $R/b_$v > $R/bench-$v-$SECONDS.log 2>&1
  echo "== $v KV32 (at $((SECONDS-S)) s)"; ls -t $R/bench-$v-*.log | head -1 | xargs grep -E "^(insert|find|find-negative|apply-0.5:0.3:0.2|gather-sector) " | grep -E " (67108864|4194304|1048576|1073741824) "
done | tee $R/ab-bench.log
for v in H W W H H W; do
  timeout 100 scratch/bin/bench_$v --kv 64 balanced mixed --n 33554432 --out $R/b64_$v > $R/bench64-$v-$SECONDS.log 2>&1
  echo "== $v KV64 (at $((SECONDS-S)) s)"; ls -t $R/bench64-$v-*.log | head -1 | xargs grep -E "^(insert|find|find-negative|apply-0.5:0.3:0.2) "
done | tee $R/ab-bench64.log
