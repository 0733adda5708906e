#!/usr/bin/env bash
# Session 12: H = item 67 with b1's words only, on top of the tallies in shared memory (c755319's kernels, which L = 0b50530 has)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r12m; mkdir -p $R; trap 'tar czf $OUT/r12m.tgz -C /tmp r12m' EXIT
f() { "$@" | grep -oE 'all [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; }
for v in L H H L L H H L; do echo "== $v kv32: $(f scratch/bin/fillW_$v 67108864 0.9 1 32 3)"; done | tee $R/ab-head1.log
for v in L H H L; do echo "== $v kv64: $(f scratch/bin/fillW_$v 33554432 0.9 1 64 3)"; done | tee -a $R/ab-head1.log
for v in L H; do echo "== ncu $v"; ncu --clock-control none -k regex:"hive_deferred" --metrics gpu__time_duration.sum,lts__t_requests.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum scratch/bin/fillW_$v 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g'; done | tee $R/ncu-head1.log
