#!/usr/bin/env bash
# Session 12: P2 = HEAD (363c105); N5 = P2 with 5 blocks per SM for the KV32 deferred kernels (51 registers); small = fixed cost of a call
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r12b; mkdir -p $R; trap 'tar czf $OUT/r12b.tgz -C /tmp r12b' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
f() { "$@" | grep -oE 'all [0-9.]* G/s|steps.*|find [0-9.]* G/s|absent [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; }
for v in P2 N5 N5 P2 P2 N5; do
  echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 3)"
done | tee $R/ab-blocks5.log
for v in P2 N5; do echo "== ncu $v"; ncu --clock-control none -k regex:"hive_deferred" --metrics gpu__time_duration.sum,lts__t_requests.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum scratch/bin/fillW_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done | tee $R/ncu-blocks5.log
for b in 1024 65536 1048576; do scratch/bin/small_P $b 100; done 2>&1 | tee $R/small.log
