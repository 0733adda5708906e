#!/usr/bin/env bash
# Session 13: what fences cost the L2 (fence_micro), and how many the deferred kernels execute
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r13b; mkdir -p $R; trap 'tar czf $OUT/r13b.tgz -C /tmp r13b' EXIT
scratch/bin/fence_micro | tee $R/fence-micro.log
ncu --query-metrics --chip gh100 > $R/metrics-all.txt 2>&1
grep -i -E "membar|fence" $R/metrics-all.txt | head -20 | tee $R/metrics-membar.txt
ncu --query-metrics-mode suffix --metrics lts__t_requests,lts__t_sectors --chip gh100 > $R/lts-suffixes.txt 2>&1
grep -o -E "_op_[a-z_]+" $R/lts-suffixes.txt | sort -u | head -30
M=gpu__time_duration.sum,lts__t_requests.sum
for m in lts__t_requests_op_membar lts__t_requests_op_atom lts__t_requests_op_red lts__t_requests_op_read lts__t_requests_op_write smsp__inst_executed_op_membar sm__sass_inst_executed_op_membar smsp__sass_inst_executed_op_membar; do
  if grep -q -E "(^|[^a-z_])${m}([^a-z_]|$)" $R/metrics-all.txt $R/lts-suffixes.txt; then M=$M,$m.sum; fi; done
echo "metrics: $M"
ncu --clock-control none -k k --metrics $M scratch/bin/fence_micro 2>&1 | grep -E "^  k|^    [a-z]|ERROR|rror" | sed 's/(unsigned.*//;s/ \+/ /g' | tee $R/ncu-fence.log
ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics $M scratch/bin/fillW_A 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|^    [a-z]|rror" | sed 's/(hive_view.*//;s/ \+/ /g' | tee $R/ncu-fill-membar.log
cuobjdump -sass -fun '_Z21hive_deferred_kv32_s49hive_view10hive_batchPm' scratch/bin/fillW_A > $R/sass-short.txt 2>&1
cuobjdump -sass -fun '_Z26hive_deferred_deep_kv32_s49hive_view10hive_batchPm' scratch/bin/fillW_A > $R/sass-deep.txt 2>&1
for f in short deep; do echo "$f: $(grep -c . $R/sass-$f.txt) lines"; grep -o -E "(MEMBAR|ERRBAR|CCTL|FENCE)[A-Z.]*" $R/sass-$f.txt | sort | uniq -c; done | tee $R/membar-sites.txt
