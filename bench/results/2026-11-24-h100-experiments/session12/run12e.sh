#!/usr/bin/env bash
# Session 12: fillPartC = the deferred kernels' warps each take a contiguous chunk of the batch (not a grid stride), batches ordered by PARTS ranges of first buckets (untimed)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r12e; mkdir -p $R; trap 'tar czf $OUT/r12e.tgz -C /tmp r12e' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
f() { "$@" | grep -oE 'all [0-9.]* G/s|steps.*|find [0-9.]* G/s|absent [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; }
for p in 1 8 16 32 1 8 16 32; do
  echo "== C PARTS=$p kv32: $(PARTS=$p f scratch/bin/fillPartC 67108864 0.9 1 32 2)"
done | tee $R/parts-chunked.log
for p in 1 8 16; do echo "== ncu C PARTS=$p"; PARTS=$p ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum,lts__t_requests.sum,dram__sectors_read.sum,dram__sectors_write.sum scratch/bin/fillPartC 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done | tee $R/ncu-parts-chunked.log
