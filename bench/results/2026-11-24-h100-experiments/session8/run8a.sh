#!/usr/bin/env bash
# Session 8 probe: D = 667699e, H = deferred launches compute key/value from the index (no reads of keys[]/values[]): upper bound of a compact deferred list
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8a; mkdir -p $R; trap 'tar czf $OUT/r8a.tgz -C /tmp r8a' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
for v in D H D H D H; do
  echo "== $v $(scratch/bin/fillH_$v 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST|verified' | paste -s -d' ')  kv64: $(scratch/bin/fillH_$v 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST|verified' | paste -s -d' ')"
done | tee $R/ab.log
for v in D H; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum,dram__sectors_read.sum,dram__sectors_write.sum scratch/bin/fillH_$v $kv 2>&1 | grep -E "^  hive_|duration|sectors" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - - ; done; done | tee $R/ncu.log
