#!/usr/bin/env bash
# Session 12: is a process's first fill slow because its kernels load lazily? (c755319)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r12k; mkdir -p $R; trap 'tar czf $OUT/r12k.tgz -C /tmp r12k' EXIT
f() { "$@" | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | paste -s -d' '; }
for m in LAZY EAGER LAZY EAGER; do echo "== CUDA_MODULE_LOADING=$m: $(CUDA_MODULE_LOADING=$m f scratch/bin/fillW_T2 67108864 0.9 1 32 2)"; done | tee $R/loading.log
for m in LAZY EAGER; do /usr/bin/time -f "$m process %e s" env CUDA_MODULE_LOADING=$m scratch/bin/fillW_T2 1048576 0.9 1 32 1 > /dev/null; done 2>&1 | tee -a $R/loading.log
