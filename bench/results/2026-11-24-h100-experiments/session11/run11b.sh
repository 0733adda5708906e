#!/usr/bin/env bash
# Session 11: what bounds the pass and the deferred launches (c7c93d2's kernels, fill of 2^26 KV32 keys to 0.9): ncu sections
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r11b; mkdir -p $R; trap 'tar czf $OUT/r11b.tgz -C /tmp r11b' EXIT
ncu --clock-control none -k regex:"hive_(upsert|deferred)" --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section SchedulerStats --section Occupancy -o $R/sections scratch/bin/fillW_B 67108864 0.9 1 32 1 > $R/ncu-run.log 2>&1
ncu --import $R/sections.ncu-rep --page details > $R/sections.txt 2>&1
grep -E "^  hive_|Throughput|Busy|Hit Rate|Pipe|Issued|Eligible|Active Warps|Bandwidth" $R/sections.txt | head -120
