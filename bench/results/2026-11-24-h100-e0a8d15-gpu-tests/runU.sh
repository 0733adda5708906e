#!/usr/bin/env bash
# e0a8d15: gpu-check (no sanitizer: the change since bd3ed70 is host-side and a test), limits + balanced; fill A/B T (f879d97) vs U (e0a8d15)
set -uo pipefail
export HIVE_COMMIT=e0a8d15 PATH=/usr/local/cuda/bin:$PATH
R=/tmp/ru; mkdir -p $R; trap 'tar czf $OUT/ru.tgz -C /tmp ru; tar czf $OUT/gpu-check.tgz -C build-gpu gpu-check' EXIT
SANITIZE=0 BENCH_ARGS="limits balanced" bash tools/gpu-check.sh > $R/gpucheck.out 2>&1; rc=$?
grep -E "tests passed|gpu-check:" $R/gpucheck.out; grep -E "stress.cuda.fill" build-gpu/gpu-check/tests.log
grep -E "^(insert|find|copy|gather|atomic)" build-gpu/gpu-check/bench.log | tail -8
for v in T U T U; do
  echo "== fill $v $(scratch/bin/fill_$v 67108864 0.9 1 32 4 | grep -v '^run 0' | grep -oE 'all [0-9.]* G/s|WRONG|LOST' | paste -s -d' ')"
done | tee $R/ab.log
exit $rc
