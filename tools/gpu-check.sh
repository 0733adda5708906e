#!/usr/bin/env bash
# gpu-check: the one-shot run for a machine with a GPU (no network needed).
# Builds for sm_90, runs every test with HIVE_REQUIRE_GPU=1 (a missing GPU
# fails instead of skipping), the Python package's CUDA tests where CuPy or
# PyTorch is installed, then the soak run (tests/stress/soak/: 10^9 mixed ops
# on KV32, 2 x 10^8 on KV64, each under a time limit), runs the GPU tests
# under compute-sanitizer (memcheck and racecheck, short inputs), then the
# quick benchmark.  Logs and results go to build-gpu/gpu-check, and when $OUT
# is set (the device tool brings back at most 8 files) into
# $OUT/gpu-check.tgz plus $OUT/summary.log.
# Environment: BENCH_ARGS (default "quick"), SANITIZE=0 to skip the sanitizer;
# SOAK=0 to skip the soak run, SOAK=only to run nothing but the build and the
# soak run; SOAK_OPS (default 1e9) and SOAK_KV64_OPS (default 2e8) set its op
# counts (0 leaves that width out), SOAK_LIMIT (default 540) its seconds per
# width.
set -uo pipefail
cd "$(dirname "$0")/.."
build=build-gpu
out=$build/gpu-check
rm -rf "$out"; mkdir -p "$out"
status=0
step() { echo "=== $*"; }

gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
step "configure + build (sm_90)"
cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DHIVE_WITH_CUDA=ON \
      -DCMAKE_CUDA_ARCHITECTURES=90 >"$out/build.log" 2>&1 &&
  cmake --build "$build" -j "$(nproc)" >>"$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; echo "gpu-check: build failed"; exit 1; }

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv >"$out/gpu.txt" 2>&1
cat "$out/gpu.txt"
# HIVE_COMMIT first: a copy of the tree (the device tool's) may carry an older .git.
echo "${HIVE_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}" >"$out/commit.txt"

soak_only=0
[ "${SOAK:-1}" = only ] && soak_only=1

if [ $soak_only = 0 ]; then
  step "tests (HIVE_REQUIRE_GPU=1)"
  # 16 at once: the longest GPU tests (conformance fill, four of them, about
  # 250 s each on an H100) then overlap with the rest; -j 8 took over 560 s.
  HIVE_REQUIRE_GPU=1 ctest --test-dir "$build" --output-on-failure -j 16 -LE slow 2>&1 | tee "$out/tests.log" | tail -25
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi

# The soak run, one width at a time, each under SOAK_LIMIT seconds: a run cut
# short or failing fails the check.  Its log is soak-<width>.log; soak.txt
# holds each run's summary line (or why there is none).
soak() { # <width> <ops>
  local limit=${SOAK_LIMIT:-540} log="$out/soak-$1.log"
  step "soak $1: $2 ops (limit $limit s)"
  HIVE_REQUIRE_GPU=1 timeout "$limit" "$build"/tests/hive-soak cuda "$1" --ops "$2" >"$log" 2>&1
  local rc=$?
  tail -4 "$log" | cut -c1-400
  local line
  line=$(grep -E "^soak cuda $1: [0-9]+ ops, " "$log" | tail -1)
  if [ $rc -eq 124 ]; then
    line="soak cuda $1: TIMED OUT after $limit s ($(grep -c "ops (" "$log") progress lines)"
  elif [ $rc -ne 0 ]; then
    line="soak cuda $1: FAILED, exit $rc${line:+ ($line)}"
  fi
  [ $rc -eq 0 ] || status=1
  echo "$line" | tee -a "$out/soak.txt"
}
if [ "${SOAK:-1}" != 0 ]; then
  : >"$out/soak.txt"
  [ "${SOAK_OPS:-1e9}" != 0 ] && soak kv32 "${SOAK_OPS:-1e9}"
  [ "${SOAK_KV64_OPS:-2e8}" != 0 ] && soak kv64 "${SOAK_KV64_OPS:-2e8}"
fi

# compute-sanitizer on the GPU suites that drive every kernel: the
# adversarial race (one mixed batch per round), inserts, mixed batches, and
# growth and shrinking (every resize kernel), crowded keys whose shrink is
# undone, a crowd that enlarges the stash; and the double design's kernels.  racecheck looks at shared
# memory, which only the two deferred-inserts kernels use, so it runs the
# conformance suites that insert (the adversarial test did not finish in 70 s
# under racecheck on the H200).  Each run has a time limit (SANITIZE_LIMIT
# seconds): a run cut short is reported, and fails the check.
if [ $soak_only = 0 ] && [ "${SANITIZE:-1}" != 0 ] && command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck; do
    step "compute-sanitizer --tool $tool"
    log="$out/sanitizer-$tool.log"
    : >"$log"
    runs=("hive-conformance cuda kv32 insert" "hive-conformance cuda kv32 apply")
    [ "$tool" = memcheck ] && runs+=("hive-adversarial cuda kv32" "hive-resize cuda kv32 --part mix --mix-keys 20000 --cycles 2"
                                     "hive-crowded cuda kv32 small --geometry 4x1" "hive-crowded cuda kv64 sparse --geometry 4x1"
                                     "hive-conformance cuda kv32 --design double apply" "hive-adversarial cuda kv64 --design double"
                                     "hive-crowded cuda kv32 small --geometry 4x1 --design double"
                                     "hive-cache-concurrency cuda --scale 0.25" "hive-cache-differential cuda --scale 0.25"
                                     "hive-cache-save_load cuda --scale 0.25")
    for run in "${runs[@]}"; do
      # shellcheck disable=SC2086
      HIVE_REQUIRE_GPU=1 timeout "${SANITIZE_LIMIT:-240}" compute-sanitizer --tool "$tool" "$build"/tests/$run >>"$log" 2>&1
      rc=$?
      if [ $rc -eq 124 ]; then
        echo "TIMED OUT after ${SANITIZE_LIMIT:-240} s: $run" | tee -a "$log"
        status=1
      fi
    done
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Internal Sanitizer Error" "$log" | sort | uniq -c
    # A hazard or memory error fails the check; the tool's own "failed to
    # track a kernel launch" is reported but is not a finding about hive.
    if grep -qE "ERROR SUMMARY: [1-9]|Race reported|Potential .* hazard|Invalid (__global__|__shared__)" "$log"; then
      status=1
      echo "FAILED: compute-sanitizer $tool (see $log)"
    fi
  done
fi

# The Python package's CUDA tests (CuPy and PyTorch arrays), against this
# build's libhive.so and the package's sources, so that nothing is installed
# (the GPU machine has no network).  Without pytest, or without CuPy and
# PyTorch, they are reported as not run.
if [ $soak_only = 0 ]; then
  step "python: CUDA tests"
  if python3 -c "import pytest, numpy" 2>/dev/null &&
     python3 -c "import importlib.util as u, sys; sys.exit(not (u.find_spec('cupy') or u.find_spec('torch')))"; then
    HIVE_LIBRARY="$(pwd)/$build/src/libhive.so" PYTHONPATH="$(pwd)/python" HIVE_REQUIRE_GPU=1 \
      timeout 300 python3 -m pytest -q python/tests/test_cuda.py 2>&1 | tee "$out/python-cuda.log" | tail -5
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  else
    echo "NOT RUN: python3 lacks pytest and numpy, or both CuPy and PyTorch" | tee "$out/python-cuda.log"
  fi
fi

if [ $soak_only = 0 ]; then
  step "hive-bench ${BENCH_ARGS:-quick}"
  # shellcheck disable=SC2086
  "$build"/bench/hive-bench ${BENCH_ARGS:-quick} --out "$out/results" 2>&1 | tee "$out/bench.log" | tail -60
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi
echo "gpu-check: $([ $status -eq 0 ] && echo PASSED || echo FAILED)"
if [ -n "${OUT:-}" ]; then
  tar czf "$OUT/gpu-check.tgz" -C "$build" gpu-check
  { cat "$out/gpu.txt"
    [ -f "$out/tests.log" ] && tail -30 "$out/tests.log"
    [ -f "$out/soak.txt" ] && cat "$out/soak.txt"
    [ -f "$out/bench.log" ] && tail -80 "$out/bench.log"; } >"$OUT/summary.log" 2>&1
fi
exit $status
