#!/usr/bin/env bash
# Session 8: stall reasons (PC sampling) of the deferred launches and the pass, fill of 2^24 KV32 keys to 0.9
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8e; mkdir -p $R; trap 'tar czf $OUT/r8e.tgz -C /tmp r8e' EXIT
S=""; for s in membar long_scoreboard lg_throttle barrier branch_resolving sleeping wait no_instructions selected not_selected math_pipe_throttle mio_throttle short_scoreboard drain misc dispatch_stall imc_miss; do S="$S,smsp__pcsamp_warps_issue_stalled_$s"; done
timeout 150 ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum,smsp__pcsamp_sample_count$S scratch/bin/fillH_D 16777216 0.9 1 32 1 > $R/ncu-stalls.log 2>&1
grep -vE "^==PROF==|^\s*$" $R/ncu-stalls.log | grep -E "hive_|pcsamp|duration" | sed 's/(hive_view.*//;s/ \+/ /g'
