#!/usr/bin/env bash
# Session 8: which fences the deferred launches stall on (per-SASS-instruction stall samples), and what acquire/release atomics compile to
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8f; mkdir -p $R; trap 'tar czf $OUT/r8f.tgz -C /tmp r8f' EXIT
nvcc -arch=sm_90 -cubin -o $R/f.cubin scratch/fence_sass.cu && cuobjdump -sass $R/f.cubin | grep -E "Function|MEMBAR|ATOM|RED|LDG|CCTL|FENCE|ERRBAR|STG" > $R/fence-sass.txt; cat $R/fence-sass.txt
for k in hive_deferred_kv32_s4 hive_deferred_deep_kv32_s4; do
  timeout 120 ncu --clock-control none -k $k --launch-count 1 --section WarpStateStats --section SourceCounters --page source --print-source sass --csv scratch/bin/fillH_D 4194304 0.9 1 32 1 > $R/src-$k.csv 2>&1
  echo "== $k: $(wc -l < $R/src-$k.csv) lines"; head -3 $R/src-$k.csv | cut -c1-400
done
