#!/usr/bin/env bash
# Session 12: P2 = HEAD (363c105); D3 / D2 = the KV32 deep kernel at 3 / 2 blocks per SM (80 / 128 registers), the short one at 4; T = the deferred kernels' tallies in shared memory
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r12c; mkdir -p $R; trap 'tar czf $OUT/r12c.tgz -C /tmp r12c' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
for v in P2 D3 D2 T; do echo "== $v"; cuobjdump --dump-resource-usage scratch/bin/fillW_$v 2>&1 | grep -A1 "deferred.*kv32_s4" | grep -oE "Function [^ ]*|REG:[0-9]+ STACK:[0-9]+" | paste - -; done | tee $R/regs.log
f() { "$@" | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s|absent [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; }
for v in P2 D3 D2 T T D2 D3 P2 P2 T D3 D2; do
  echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 3)"
done | tee $R/ab-deep-blocks.log
for v in P2 D3 D2 T; do echo "== ncu $v"; ncu --clock-control none -k regex:"hive_deferred" --metrics gpu__time_duration.sum,lts__t_requests.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum scratch/bin/fillW_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done | tee $R/ncu-deep-blocks.log
