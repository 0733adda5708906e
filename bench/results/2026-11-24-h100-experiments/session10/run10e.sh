#!/usr/bin/env bash
# Session 10: blocks per SM of the insert pass (env PASS_CAP in an experiment build of de72057), KV64 with sector scans
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r10e; mkdir -p $R; trap 'tar czf $OUT/r10e.tgz -C /tmp r10e' EXIT
f() { "$@" | grep -oE 'all [0-9.]* G/s|LOST|WRONG' | tail -n +2 | paste -s -d' '; }
for c in 3 2 4 3 2 4 2 3; do
  echo "== cap $c kv64: $(PASS_CAP=$c f scratch/bin/fillW_C 33554432 0.9 1 64 4)"
done | tee $R/ab-pass-cap-kv64.log
for c in 3 2 2 3; do
  echo "== cap $c kv32: $(PASS_CAP=$c f scratch/bin/fillW_C 67108864 0.9 1 32 4)"
done | tee $R/ab-pass-cap-kv32.log
for c in 2 3; do echo "== ncu cap $c kv64"; PASS_CAP=$c ncu --clock-control none -k regex:"hive_(upsert|deferred)" --metrics gpu__time_duration.sum scratch/bin/fillW_C 33554432 0.9 1 64 1 2>&1 | grep -E "^  hive_|duration" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - - ; done | tee $R/ncu.log
