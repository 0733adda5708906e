#!/usr/bin/env bash
# Session 8: small tables: whole insert in one kernel (lock-free and locked parts inline, W) against the three launches (P), same binary, env switch
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/scratch/lib
R=/tmp/r8h; mkdir -p $R; trap 'tar czf $OUT/r8h.tgz -C /tmp r8h' EXIT
B=scratch/bin/bench_W
for v in P W W P; do
  if [ $v = W ]; then E="env HIVE_WHOLE_MAX_BYTES=100000000"; else E="env"; fi
  $E $B balanced mixed --runs 3 --out $R/out_$v > $R/bench_$v.log 2>&1
  echo "== $v"; grep -E "^(insert|apply)" $R/bench_$v.log | awk '{printf "%s %s %s %s\n", $1, $2, $3, $5}' | paste -s -d' ' | fold -w 400
  grep -E "verification failures" $R/bench_$v.log
done | tee $R/ab.log
for v in P W; do
  if [ $v = W ]; then E="env HIVE_WHOLE_MAX_BYTES=100000000"; else E="env"; fi
  $E $B --kv 64 balanced mixed --runs 3 --out $R/out64_$v > $R/bench64_$v.log 2>&1
  echo "== kv64 $v"; grep -E "^(insert|apply)" $R/bench64_$v.log | awk '{printf "%s %s %s %s\n", $1, $2, $3, $5}' | paste -s -d' ' | fold -w 400
  grep -E "verification failures" $R/bench64_$v.log
done | tee -a $R/ab.log
