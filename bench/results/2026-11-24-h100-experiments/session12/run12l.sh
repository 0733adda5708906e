#!/usr/bin/env bash
# Session 12: L = the table's kernels loaded at hive_create (cudaFuncGetAttributes) against T2 (c755319): a process's first fill
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r12l; mkdir -p $R; trap 'tar czf $OUT/r12l.tgz -C /tmp r12l' EXIT
f() { "$@" | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | paste -s -d' '; }
for v in T2 L T2 L T2 L; do echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 2)"; done | tee $R/first-fill.log
for v in T2 L; do echo "== $v kv64: $(f scratch/bin/fillW_$v 33554432 0.9 1 64 2)"; done | tee -a $R/first-fill.log
for v in T2 L T2 L; do /usr/bin/time -f "$v process %e s" scratch/bin/fillW_$v 1048576 0.9 1 32 1 > /dev/null; done 2>&1 | tee -a $R/first-fill.log
