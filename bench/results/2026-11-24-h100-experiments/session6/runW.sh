#!/usr/bin/env bash
# D = f9a1ccf, W = the rescans' words reused by the eviction search
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/rw; mkdir -p $R; trap 'tar czf $OUT/rw.tgz -C /tmp rw' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
for v in D W D W D W; do
  echo "== $v $(scratch/bin/fill_$v 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|steps [0-9 ]*' | paste -s -d' ')  kv64: $(scratch/bin/fill_$v 33554432 0.9 1 64 3 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?' | paste -s -d' ')"
done | tee $R/ab.log
for v in D W; do echo "== ncu $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum scratch/bin/fill_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee $R/ncu.log
for v in D W; do echo "== ncu kv64 $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum scratch/bin/fill_$v 33554432 0.9 1 64 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee -a $R/ncu.log
