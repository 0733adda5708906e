#!/usr/bin/env bash
# Rooms read per group in the eviction search: S = 02ae5d0 (HIVE_NEAR_GROUP 4), G1 = 1, G2 = 2
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/rj; mkdir -p $R; trap 'tar czf $OUT/rj.tgz -C /tmp rj' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
for v in S G1 G2 S G1 G2 S G1 G2; do
  echo "== $v $(scratch/bin/fill_$v 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?' | paste -s -d' ')  kv64: $(scratch/bin/fill_$v 33554432 0.9 1 64 3 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?' | paste -s -d' ')"
done | tee $R/ab.log
for v in S G1 G2; do echo "== ncu $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum scratch/bin/fill_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee $R/ncu.log
