#!/usr/bin/env bash
# Session 12: what a fresh table's first insert pays for its pool (c755319): fills with and without WARM (a first insert and a clear before the timed one)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r12j; mkdir -p $R; trap 'tar czf $OUT/r12j.tgz -C /tmp r12j' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
f() { "$@" | grep -oE 'all [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; }
for w in 0 1 1 0 0 1 1 0; do
  if [ $w = 1 ]; then echo "== WARM kv32: $(WARM=1 f scratch/bin/fillW_T2 67108864 0.9 1 32 3)"; else echo "== cold kv32: $(f scratch/bin/fillW_T2 67108864 0.9 1 32 3)"; fi
done | tee $R/warm.log
for w in 0 1 0 1; do
  if [ $w = 1 ]; then echo "== WARM kv64: $(WARM=1 f scratch/bin/fillW_T2 33554432 0.9 1 64 3)"; else echo "== cold kv64: $(f scratch/bin/fillW_T2 33554432 0.9 1 64 3)"; fi
done | tee -a $R/warm.log
