#!/usr/bin/env bash
# Session 12: item 20 again on today's kernels (c755319): the batch ordered by ranges of first buckets (PARTS ranges, untimed host partition), then one hive_insert
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r12d; mkdir -p $R; trap 'tar czf $OUT/r12d.tgz -C /tmp r12d' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
f() { "$@" | grep -oE 'all [0-9.]* G/s|steps.*|find [0-9.]* G/s|absent [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; }
for p in 1 4 16 32 64 256 1 32; do
  echo "== PARTS=$p kv32: $(PARTS=$p f scratch/bin/fillPart 67108864 0.9 1 32 2)"
done | tee $R/parts.log
for p in 1 16 32 64; do echo "== ncu PARTS=$p"; PARTS=$p ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum,lts__t_requests.sum,dram__sectors_read.sum,dram__sectors_write.sum,lts__t_requests_op_atom.sum scratch/bin/fillPart 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done | tee $R/ncu-parts.log
