#!/usr/bin/env bash
# Session 12: O2 = the ordered first part with warp-aggregated ranks in the scatter, KV32 only, against T2 (c755319)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r12h; mkdir -p $R; trap 'tar czf $OUT/r12h.tgz -C /tmp r12h' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
f() { "$@" | grep -oE 'all [0-9.]* G/s|steps.*|find [0-9.]* G/s|absent [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; }
for v in T2 O2 O2 T2 T2 O2 O2 T2; do echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 3)"; done | tee $R/ab-order2.log
echo "== ncu O2"; ncu --clock-control none -k regex:"hive_" --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum scratch/bin/fillW_O2 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|duration|bytes" | sed 's/(.*//;s/ \+/ /g' | paste - - - - | tee $R/ncu-order2.log
