#!/usr/bin/env bash
# Session 11: B = c7c93d2 (the kernels of de72057); N = B + full notes (the insert pass notes the buckets it fills; a fresh table's full bits come from the notes, both widths)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r11a; mkdir -p $R; trap 'tar czf $OUT/r11a.tgz -C /tmp r11a' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
which nsys ncu | tee -a $R/gpu.txt
f() { "$@" | grep -oE 'all [0-9.]* G/s|steps.*|find [0-9.]* G/s|absent [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; }
for v in B N N B B N N B; do
  echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 3)"
  echo "== $v kv64: $(f scratch/bin/fillW_$v 33554432 0.9 1 64 3)"
done | tee $R/ab-notes.log
for v in B N; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum,dram__sectors_read.sum,dram__sectors_write.sum,lts__t_sectors.sum scratch/bin/fillW_$v $kv 2>&1 | grep -E "^  hive_|duration|sectors" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - - - ; done; done | tee $R/ncu-notes.log
