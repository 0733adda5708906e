#!/usr/bin/env bash
# Session 8: where a small fill's time goes (2^20..2^23 keys to 0.9 and 0.95)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8d; mkdir -p $R; trap 'tar czf $OUT/r8d.tgz -C /tmp r8d' EXIT
for n in 1048576 4194304 8388608; do for lf in 0.9 0.95; do echo "== fill $n $lf: $(scratch/bin/fillH_D $n $lf 1 32 5 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|steps [0-9 ]*|evictions [0-9]*' | paste -s -d' ')"; done; done | tee $R/fills.log
M=gpu__time_duration.sum,smsp__warps_active.avg.per_cycle_active,lts__t_sectors_op_atom.sum,smsp__inst_executed.sum
for n in 1048576 8388608; do echo "== ncu $n"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics $M scratch/bin/fillH_D $n 0.9 1 32 2 2>&1 | grep -E "^  hive_|duration|warps|sectors|inst" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - - - ; done | tee $R/ncu.log
nsys profile -o $R/small --force-overwrite true scratch/bin/fillH_D 1048576 0.9 1 32 3 > /dev/null 2>&1; nsys stats -r cuda_gpu_trace,cuda_api_sum $R/small.nsys-rep 2>/dev/null | grep -vE "^\s*$" | tail -80 > $R/nsys.txt; rm -f $R/small.nsys-rep $R/small.sqlite
tail -60 $R/nsys.txt
