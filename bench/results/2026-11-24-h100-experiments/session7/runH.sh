#!/usr/bin/env bash
# D = HEAD, H = full-bit hint taken before the deferred kernels, HO = H with every launch at <= 4 blocks/SM
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/rh; mkdir -p $R; trap 'tar czf $OUT/rh.tgz -C /tmp rh' EXIT
for v in D H HO D H HO D H HO; do
  if [ $v = HO ]; then P="env HIVE_X2_BLOCKS=4 scratch/bin/fill_H"; else P="scratch/bin/fill_$v"; fi
  echo "== $v $($P 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|steps [0-9 ]*|evictions [0-9]*|LOST|verified' | paste -s -d' ')  kv64: $($P 33554432 0.9 1 64 3 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|size [0-9]*( WRONG)?|LOST|verified' | paste -s -d' ')"
done | tee $R/ab.log
for v in D H; do echo "== slices $v"; scratch/bin/fill_$v 67108864 0.9 9 32 2 | tail -2; done | tee $R/slices.log
for v in D H HO; do echo "== ncu $v"; if [ $v = HO ]; then P="env HIVE_X2_BLOCKS=4 scratch/bin/fill_H"; else P="scratch/bin/fill_$v"; fi; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum $P 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee $R/ncu.log
for v in D H; do echo "== ncu kv64 $v"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum scratch/bin/fill_$v 33554432 0.9 1 64 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee -a $R/ncu.log
