#!/usr/bin/env bash
# The bounded fuzz run of `make fuzz` and CI:
#
#   tests/fuzz/run.sh <hive-fuzz> <seconds> <work dir>
#
# Starts from the inputs kept in tests/fuzz/corpus/ (read only) and keeps the
# new ones libFuzzer finds in <work dir>/corpus (kept between runs).  On a
# crash, prints each crashing input in hex with the command that adds it to
# tests/fuzz/corpus/, where hive-fuzz-replay (CTest fuzz.replay) keeps it as a
# regression test, and exits 1.
set -euo pipefail
fuzzer=$1 seconds=$2 work=$3
corpus=$(cd "$(dirname "$0")" && pwd)/corpus

mkdir -p "$work/corpus" "$work/crashes"
rm -f "$work"/crashes/*
status=0
# -timeout: one input runs in milliseconds, so 10 s is a hang;
# -max_len: the inputs stay small (a call reads at most 146 bytes).
"$fuzzer" -max_total_time="$seconds" -timeout=10 -max_len=512 -print_final_stats=1 \
  -artifact_prefix="$work/crashes/" "$work/corpus" "$corpus" || status=$?

found=0
for crash in "$work"/crashes/*; do
  [ -e "$crash" ] || continue
  found=1
  hex=$(od -An -v -tx1 "$crash" | tr -d ' \n')
  name=crash-$(sha1sum "$crash" | cut -c1-12)
  echo "hive-fuzz: failing input $(basename "$crash") ($(stat -c %s "$crash") bytes), hex:"
  echo "$hex"
  octal=$(od -An -v -to1 "$crash" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//; s/ /\\0/g; s/^/\\0/')
  echo "to keep it as a regression test:"
  echo "  printf %b '$octal' > tests/fuzz/corpus/$name"
  echo "to see its calls: HIVE_FUZZ_TRACE=1 build/tests/hive-fuzz-replay tests/fuzz/corpus/$name"
done
if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
  echo "hive-fuzz: FAILED (exit status $status)"
  exit 1
fi
echo "hive-fuzz: no failure in $seconds s"
