#!/usr/bin/env bash
# Session 8: U = de5a9f5, G = bca7a33 (fence.acquire between the buckets everywhere); stall samples of G
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r8k; mkdir -p $R; trap 'tar czf $OUT/r8k.tgz -C /tmp r8k' EXIT
for v in G U U G G U; do
  echo "== $v $(scratch/bin/fillH_$v 67108864 0.9 1 32 3 | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')  kv64: $(scratch/bin/fillH_$v 33554432 0.9 1 64 3 | grep -oE 'all [0-9.]* G/s|find [0-9.]* G/s|size [0-9]*( WRONG)?|LOST' | paste -s -d' ')"
done | tee $R/ab.log
for v in U G; do for kv in "67108864 0.9 1 32 1" "33554432 0.9 1 64 1"; do echo "== ncu $v $kv"; ncu --clock-control none -k regex:"hive_(upsert|deferred|full|find)" --metrics gpu__time_duration.sum scratch/bin/fillH_$v $kv 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done; done | tee $R/ncu.log
S=""; for s in membar long_scoreboard lg_throttle branch_resolving sleeping wait no_instructions selected not_selected short_scoreboard drain misc; do S="$S,smsp__pcsamp_warps_issue_stalled_$s"; done
timeout 150 ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum,smsp__pcsamp_sample_count$S scratch/bin/fillH_G 16777216 0.9 1 32 1 2>&1 | grep -E "^  hive_|pcsamp|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - - - - - - - - - - - - - > $R/ncu-stalls-G.log; cat $R/ncu-stalls-G.log
