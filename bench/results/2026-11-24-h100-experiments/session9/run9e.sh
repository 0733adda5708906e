#!/usr/bin/env bash
# Session 9: what a fresh table's first insert still pays for its pool (HEAD 8e8c3a6): fills into fresh tables against fills after an insert and a clear
set -uo pipefail
R=/tmp/r9e; mkdir -p $R; trap 'tar czf $OUT/r9e.tgz -C /tmp r9e' EXIT
for w in 0 1 1 0 0 1; do
  if [ $w = 1 ]; then export WARM=1; else unset WARM; fi
  echo "== warm $w $(scratch/bin/fillW_H 67108864 0.9 1 32 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)' | paste -s -d' ')  kv64: $(scratch/bin/fillW_H 33554432 0.9 1 64 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)' | paste -s -d' ')"
done | tee $R/warm-pool.log
