#!/usr/bin/env bash
# Session 9: A = f4ceb95 (0973330 kernels); F0 = marks (3733196) + the table's own full bits kept by the inserts; F = F0 + batch kernels' launch bounds (256, 3)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/scratch/lib
R=/tmp/r9b; mkdir -p $R; trap 'tar czf $OUT/r9b.tgz -C /tmp r9b' EXIT
S=$SECONDS
for v in A F0 F F F0 A; do
  echo "== $v $(scratch/bin/fillH_$v 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')  kv64: $(scratch/bin/fillH_$v 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')"
done | tee $R/ab-fill.log
echo "fills took $((SECONDS-S)) s"
for v in A F0 F; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum scratch/bin/fillH_$v $kv 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done; done | tee $R/ncu.log
echo "ncu done at $((SECONDS-S)) s"
for v in A F F A; do
  timeout 150 scratch/bin/bench_$v limits balanced mixed --out $R/b_$v > $R/bench-$v-$SECONDS.log 2>&1
  echo "== $v KV32 (at $((SECONDS-S)) s)"; ls -t $R/bench-$v-*.log | head -1 | xargs grep -E "^(insert|find|find-negative|apply-0.5:0.3:0.2|gather-sector|atomic-cas64) " | grep -E " (67108864|33554432|4194304|1073741824) "
done | tee $R/ab-bench.log
for v in A F F A; do
  timeout 100 scratch/bin/bench_$v --kv 64 balanced mixed --n 33554432 --out $R/b64_$v > $R/bench64-$v-$SECONDS.log 2>&1
  echo "== $v KV64 (at $((SECONDS-S)) s)"; ls -t $R/bench64-$v-*.log | head -1 | xargs grep -E "^(insert|find|find-negative|apply-0.5:0.3:0.2) "
done | tee $R/ab-bench64.log
