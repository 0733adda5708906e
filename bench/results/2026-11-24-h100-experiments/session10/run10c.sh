#!/usr/bin/env bash
# Session 10: H = 23b39d7; L = H with buckets of more than one sector scanned a sector at a time (stop at the key or a free slot), everywhere
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r10c; mkdir -p $R; trap 'tar czf $OUT/r10c.tgz -C /tmp r10c' EXIT
f() { "$@" | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s [a-zA-Z]*|absent [0-9.]* G/s \([0-9]* found\)|LOST|WRONG' | paste -s -d' '; }
for v in H L L H H L; do
  echo "== $v kv64: $(f scratch/bin/fillW_$v 33554432 0.9 1 64 4 | cut -c1-400)"
  echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 3)"
  echo "== $v kv32 S8: $(SLOTS=8 f scratch/bin/fillW_$v 67108864 0.9 1 32 3)"
done | tee $R/ab.log
for v in H L; do echo "== ncu $v kv64"; ncu --clock-control none -k regex:"hive_" --metrics gpu__time_duration.sum,dram__sectors_read.sum,lts__t_sectors.sum scratch/bin/fillW_$v 33554432 0.9 1 64 1 2>&1 | grep -E "^  hive_|duration|sectors" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - - ; done | tee $R/ncu.log
