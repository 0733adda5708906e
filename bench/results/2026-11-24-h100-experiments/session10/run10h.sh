#!/usr/bin/env bash
# Session 10: where a mixed batch's time goes (c7dc5f8 = de72057's kernels): ncu of hive-bench mixed, 2^26 ops, KV32 and KV64
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/scratch/lib
R=/tmp/r10h; mkdir -p $R; trap 'tar czf $OUT/r10h.tgz -C /tmp r10h' EXIT
for kv in 32 64; do n=67108864; [ $kv = 64 ] && n=33554432
  echo "== kv$kv mixed n=$n"
  ncu --clock-control none -k regex:"hive_(mixed|deferred|full)" --metrics gpu__time_duration.sum,dram__sectors_read.sum,dram__sectors_write.sum,lts__t_sectors.sum,smsp__thread_inst_executed_per_inst_executed.ratio scratch/bin/hive-bench_F --kv $kv mixed --n $n --runs 1 --out $R/b$kv 2>&1 | grep -E "^  hive_|duration|sectors|ratio|^apply" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - - - - 
  scratch/bin/hive-bench_F --kv $kv mixed --n $n --runs 3 --out $R/c$kv 2>&1 | grep -E "^apply" | tail -1
done | tee $R/ncu-mixed.log
