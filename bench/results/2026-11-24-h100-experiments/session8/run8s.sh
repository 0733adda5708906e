#!/usr/bin/env bash
# Session 8: C = fc73fa6 (a13f143 kernels), K = C with the tally's step counters at constant indices (no local-memory tally), K3 = K with KV32's deferred kernels at 3 blocks
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8s; mkdir -p $R; trap 'tar czf $OUT/r8s.tgz -C /tmp r8s' EXIT
for v in C K K3 C K3 K; do
  echo "== $v $(scratch/bin/fillH_$v 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')  kv64: $(scratch/bin/fillH_$v 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')"
done | tee $R/ab.log
for v in C K K3; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum,launch__registers_per_thread scratch/bin/fillH_$v $kv 2>&1 | grep -E "^  hive_|duration|registers" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - ; done; done | tee $R/ncu.log
