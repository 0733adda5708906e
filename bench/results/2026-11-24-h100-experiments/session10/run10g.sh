#!/usr/bin/env bash
# Session 10: H = de72057; W = H with the walk in a launch of its own (the deep launch leaves to it the keys its two-move search cannot place)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r10g; mkdir -p $R; trap 'tar czf $OUT/r10g.tgz -C /tmp r10g' EXIT
f() { "$@" | grep -oE 'all [0-9.]* G/s|steps.*|LOST|WRONG' | tail -n +3 | paste -s -d' '; }
for v in H W W H H W W H; do
  echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 4)"
  echo "== $v kv64: $(f scratch/bin/fillW_$v 33554432 0.9 1 64 4)"
done | tee $R/ab-walk.log
for v in H W; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_deferred" --metrics gpu__time_duration.sum scratch/bin/fillW_$v $kv 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done; done | tee $R/ncu.log
