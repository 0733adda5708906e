#!/usr/bin/env bash
# Session 13: where the short deferred launch waits (H = 1f96f03): full ncu set, source counters on the SASS
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r13e; mkdir -p $R; trap 'tar czf $OUT/r13e.tgz -C /tmp r13e' EXIT
ncu --clock-control none -k regex:"hive_deferred_kv32" --launch-count 2 --set full --import-source no -o $R/deferred scratch/bin/fillW_H 67108864 0.9 1 32 1 > $R/ncu-run.log 2>&1
ncu -i $R/deferred.ncu-rep --print-details all > $R/details.txt 2>&1
ncu -i $R/deferred.ncu-rep --page source --csv --print-source sass > $R/source-sass.csv 2>&1
ls -la $R; wc -l $R/*.txt $R/*.csv
grep -E "Duration|Throughput|Active Warps|Eligible|Issued Warp|Stall|fabric|Hit Rate|L2 .*%|Warp Cycles" $R/details.txt | head -60
