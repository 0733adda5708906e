#!/usr/bin/env bash
# Session 9: the fresh-table cost, again with the right library (8e8c3a6 + pregrow.diff + probe.diff; run9g-j had linked a stale libhive.a, the table-bits build T).
# fresh; one = an insert of 1 key and a clear first; pregrow = the pool grown at create by a capacity batch's scratch and written; counters = counter blocks touched at create; pool = one small allocation at create.  HIVE_PROBE prints host times inside hive_insert.
set -uo pipefail
R=/tmp/r9l; mkdir -p $R; trap 'tar czf $OUT/r9l.tgz -C /tmp r9l' EXIT
for m in fresh one pregrow counters pool fresh pool counters pregrow one; do
  unset WARM WARM_N HIVE_PREGROW HIVE_PREGROW_TOUCH HIVE_W_COUNTERS HIVE_W_POOL HIVE_PROBE
  [ $m = one ] && export WARM=1 WARM_N=1
  [ $m = pregrow ] && export HIVE_PREGROW=1 HIVE_PREGROW_TOUCH=1
  [ $m = counters ] && export HIVE_W_COUNTERS=1
  [ $m = pool ] && export HIVE_W_POOL=1
  echo "== $m $(scratch/bin/fillW_P 67108864 0.9 1 32 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | tail -n +2 | paste -s -d' ')  kv64: $(scratch/bin/fillW_P 33554432 0.9 1 64 4 | grep -oE 'all [0-9.]* G/s \([0-9.]* ms\)|LOST|WRONG' | tail -n +2 | paste -s -d' ')"
done | tee $R/warm-which.log
export HIVE_PROBE=1
for m in fresh one pregrow fresh one pregrow; do
  unset WARM WARM_N HIVE_PREGROW HIVE_PREGROW_TOUCH
  [ $m = one ] && export WARM=1 WARM_N=1
  [ $m = pregrow ] && export HIVE_PREGROW=1 HIVE_PREGROW_TOUCH=1
  echo "== $m"; scratch/bin/fillW_P 67108864 0.9 1 32 4 2>&1 | grep -E "PROBE|all" | sed 's/|.*//'
done | tee $R/probe.log
