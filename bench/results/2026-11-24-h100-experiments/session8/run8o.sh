#!/usr/bin/env bash
# Session 8: C = c49c351, R = C with hive_fence as fence.release.gpu (no L1 invalidation after the writer's fences)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8o; mkdir -p $R; trap 'tar czf $OUT/r8o.tgz -C /tmp r8o' EXIT
cuobjdump -sass scratch/bin/fillH_R | grep -cE "MEMBAR" > $R/membar-count.txt; cuobjdump -sass scratch/bin/fillH_C | grep -cE "MEMBAR" >> $R/membar-count.txt
for v in C R R C C R R C; do
  echo "== $v $(scratch/bin/fillH_$v 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')  kv64: $(scratch/bin/fillH_$v 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')"
done | tee $R/ab.log
for v in C R; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum scratch/bin/fillH_$v $kv 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done; done | tee $R/ncu.log
