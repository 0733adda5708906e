#!/usr/bin/env bash
# Session 10: H = 23b39d7; P32/P64/P128 = H with lane refill in the deferred kernels (pool of N gathered keys, each lane takes the next key when done)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r10a; mkdir -p $R; trap 'tar czf $OUT/r10a.tgz -C /tmp r10a' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
for v in H P64 P128 P32 H P128 P64 P32 H; do
  echo "== $v $(scratch/bin/fillW_$v 67108864 0.9 1 32 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | tail -n +2 | paste -s -d' ')  kv64: $(scratch/bin/fillW_$v 33554432 0.9 1 64 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | tail -n +2 | paste -s -d' ')"
done | tee $R/ab-fill.log
for v in H P64 P128; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_deferred" --metrics gpu__time_duration.sum,dram__sectors_read.sum,smsp__thread_inst_executed_per_inst_executed.ratio scratch/bin/fillW_$v $kv 2>&1 | grep -E "^  hive_|duration|sectors|ratio" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - - ; done; done | tee $R/ncu.log
