#!/usr/bin/env bash
# Session 12: O = the first part of a bulk insert copied in table order (dict_order.cu) against P2 (363c105) and T2 (c755319); memcheck/racecheck of O on tables beyond twice L2
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r12g; mkdir -p $R; trap 'tar czf $OUT/r12g.tgz -C /tmp r12g' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
f() { "$@" | grep -oE 'all [0-9.]* G/s|steps.*|find [0-9.]* G/s|absent [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; }
for v in T2 O O T2 T2 O O T2; do echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 3)"; done | tee $R/ab-order.log
for v in T2 O O T2; do echo "== $v kv64: $(f scratch/bin/fillW_$v 33554432 0.9 1 64 3)"; done | tee -a $R/ab-order.log
for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu O $kv"; ncu --clock-control none -k regex:"hive_" --metrics gpu__time_duration.sum scratch/bin/fillW_O $kv 2>&1 | grep -E "^  hive_|duration" | sed 's/(.*//;s/ \+/ /g' | paste - -; done | tee $R/ncu-order.log
timeout 200 compute-sanitizer --tool memcheck scratch/bin/fillW_O 16777216 0.9 1 32 1 > $R/memcheck-order-kv32.log 2>&1; echo "memcheck kv32 rc=$?"; tail -3 $R/memcheck-order-kv32.log
timeout 150 compute-sanitizer --tool racecheck scratch/bin/fillW_O 8388608 0.9 1 64 1 > $R/racecheck-order-kv64.log 2>&1; echo "racecheck kv64 rc=$?"; tail -3 $R/racecheck-order-kv64.log
