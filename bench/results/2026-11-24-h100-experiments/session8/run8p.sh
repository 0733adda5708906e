#!/usr/bin/env bash
# Session 8: what a fresh table's first insert pays outside the kernels (WARM: an insert and a clear before the timed insert)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8p; mkdir -p $R; trap 'tar czf $OUT/r8p.tgz -C /tmp r8p' EXIT
for w in 0 1 1 0; do
  if [ $w = 1 ]; then E="env WARM=1"; else E="env"; fi
  echo "== warm $w $($E scratch/bin/fillW_C 67108864 0.9 1 32 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | paste -s -d' ')  kv64: $($E scratch/bin/fillW_C 33554432 0.9 1 64 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | paste -s -d' ')"
done | tee $R/ab.log
