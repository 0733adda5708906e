#!/usr/bin/env bash
# Session 12: c755319; the first PFRAC of the batch ordered by PARTS ranges of first buckets (untimed host partition), the rest as generated
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/r12f; mkdir -p $R; trap 'tar czf $OUT/r12f.tgz -C /tmp r12f' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
f() { "$@" | grep -oE 'all [0-9.]* G/s|steps.*|find [0-9.]* G/s|absent [0-9.]* G/s|LOST|WRONG' | paste -s -d' '; }
for c in "1 1" "16 0.5" "16 0.7" "16 0.85" "16 1" "1 1" "16 0.5" "16 0.7" "16 0.85" "4 0.7" "8 0.7"; do set -- $c
  echo "== PARTS=$1 PFRAC=$2 kv32: $(PARTS=$1 PFRAC=$2 f scratch/bin/fillPart 67108864 0.9 1 32 2)"
done | tee $R/pfrac.log
for c in "1 1" "16 0.5" "16 0.7" "16 0.85"; do set -- $c; echo "== ncu PARTS=$1 PFRAC=$2"; PARTS=$1 PFRAC=$2 ncu --clock-control none -k regex:"hive_(upsert|deferred|full)" --metrics gpu__time_duration.sum scratch/bin/fillPart 67108864 0.9 1 32 1 2>&1 | grep -E "^  hive_|^    [a-z]" | sed 's/(hive_view.*//;s/ \+/ /g' | paste - -; done | tee $R/ncu-pfrac.log
