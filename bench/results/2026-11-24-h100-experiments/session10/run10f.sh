#!/usr/bin/env bash
# Session 10: what the walk costs the deep launch: de72057 with max_evictions 8 (default), 2, 0 (env MAXEV of the fill driver)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r10f; mkdir -p $R; trap 'tar czf $OUT/r10f.tgz -C /tmp r10f' EXIT
for m in 8 0 2 8 0 2; do
  echo "== maxev $m kv32: $(MAXEV=$m scratch/bin/fillW_U 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|steps.*|LOST|WRONG' | tail -n +3 | paste -s -d' ')"
  echo "== maxev $m kv64: $(MAXEV=$m scratch/bin/fillW_U 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|steps.*|LOST|WRONG' | tail -n +3 | paste -s -d' ')"
done | tee $R/maxev.log
for m in 8 0; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu maxev $m $kv"; MAXEV=$m ncu --clock-control none -k regex:"hive_deferred" --metrics gpu__time_duration.sum,smsp__thread_inst_executed_per_inst_executed.ratio,dram__sectors_read.sum scratch/bin/fillW_U $kv 2>&1 | grep -E "^  hive_|duration|ratio|sectors" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - - ; done; done | tee $R/ncu.log
