#!/usr/bin/env bash
# D = HEAD, X = short locked path inline in the pass (per-warp hold of 32), Y = hold 16, O = HEAD with the pass at 4 blocks/SM
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/rx; mkdir -p $R; trap 'tar czf $OUT/rx.tgz -C /tmp rx' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
for v in D X Y O D X Y O D X Y O; do
  if [ $v = O ]; then P="env HIVE_X2_BLOCKS=4 scratch/bin/fill_O"; else P="scratch/bin/fill_$v"; fi
  echo "== $v $($P 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|steps [0-9 ]*|LOST|verified' | paste -s -d' ')  kv64: $($P 33554432 0.9 1 64 3 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST|verified' | paste -s -d' ')"
done | tee $R/ab.log
for v in D X; do echo "== slices $v"; scratch/bin/fill_$v 67108864 0.9 9 32 2 | tail -2; done | tee $R/slices.log
for v in D X Y O; do echo "== ncu $v"; if [ $v = O ]; then P="env HIVE_X2_BLOCKS=4 scratch/bin/fill_O"; else P="scratch/bin/fill_$v"; fi; ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum $P 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee $R/ncu.log
for v in D X; do echo "== ncu kv64 $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum scratch/bin/fill_$v 33554432 0.9 1 64 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee -a $R/ncu.log
