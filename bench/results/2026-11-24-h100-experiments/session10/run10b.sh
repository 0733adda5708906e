#!/usr/bin/env bash
# Session 10: is the buddy half of a 64-byte L2 fetch free (buddy_micro); the 8-slot KV32 geometry with today's kernels (fillW_H, SLOTS=8)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r10b; mkdir -p $R; trap 'tar czf $OUT/r10b.tgz -C /tmp r10b' EXIT
scratch/bin/buddy_micro | tee $R/buddy-micro.log
for s in 4 8 4 8; do echo "== SLOTS=$s kv32"; SLOTS=$s scratch/bin/fillW_H 67108864 0.9 1 32 3 | grep -E "all|find"; done | tee $R/slots8.log
for s in 4 8; do echo "== ncu SLOTS=$s"; SLOTS=$s ncu --clock-control none -k regex:"hive_" --metrics gpu__time_duration.sum,dram__sectors_read.sum,lts__t_sectors.sum scratch/bin/fillW_H 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|duration|sectors" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - - ; done | tee $R/ncu-slots.log
