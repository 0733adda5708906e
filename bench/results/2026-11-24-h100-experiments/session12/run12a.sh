#!/usr/bin/env bash
# Session 12: P = a8828e4 (the kernels of HEAD); N = the eviction search starts from the rescans' words (4 blocks KV32); N3 = N with 3 blocks for the KV32 deferred kernels
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r12a; mkdir -p $R; trap 'tar czf $OUT/r12a.tgz -C /tmp r12a' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
f() { "$@" | grep -oE 'all [0-9.]* G/s|steps.*|find [0-9.]* G/s|absent [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; }
for v in P N N3 N3 N P P N N3; do
  echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 3)"
done | tee $R/ab-seen.log
for v in P N N3 N3 N P; do
  echo "== $v kv64: $(f scratch/bin/fillW_$v 33554432 0.9 1 64 3)"
done | tee -a $R/ab-seen.log
for v in P N N3; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum,lts__t_requests.sum,lts__t_requests_op_read.sum,lts__t_requests_op_atom.sum,lts__t_requests_op_write.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum scratch/bin/fillW_$v $kv 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done; done | tee $R/ncu-seen.log
