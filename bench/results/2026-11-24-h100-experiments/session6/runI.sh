#!/usr/bin/env bash
# Launch bounds of the deferred kernels: S = 02ae5d0 (short 4, deep 4 blocks/SM), V1 = deep 2, V2 = deep 3, V3 = short 3
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/ri; mkdir -p $R; trap 'tar czf $OUT/ri.tgz -C /tmp ri' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
for v in S V1 V2 V3 S V1 V2 V3 S V1 V2 V3; do
  echo "== $v $(scratch/bin/fill_$v 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?' | paste -s -d' ')  kv64: $(scratch/bin/fill_$v 33554432 0.9 1 64 3 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?' | paste -s -d' ')"
done | tee $R/ab.log
for v in S V1 V2 V3; do echo "== ncu $v"; ncu --clock-control none -k regex:"hive_deferred" --metrics gpu__time_duration.sum scratch/bin/fill_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee $R/ncu.log
