#!/usr/bin/env bash
# bench_options.sh HIVE_BENCH DIR — hive-bench's --geometry, on the CPU backend:
# the tables get the geometry asked for (the adversarial workload reports its
# buckets' slots), the header, CSV and JSON record it, a run without it reports
# the backend's default, and malformed values, or geometries hive_create
# refuses, exit 2 with a message.  Exit 0 pass, 1 fail.
set -uo pipefail
bench=$1
dir=$2
fail() { echo "bench options: $*"; exit 1; }
rm -rf "$dir"
mkdir -p "$dir"

"$bench" adversarial --backend cpu --n 2^10 --runs 1 --geometry 16x1 --out "$dir/g" \
  >"$dir/g.out" 2>"$dir/g.err" || { cat "$dir/g.out" "$dir/g.err"; fail "--geometry 16x1: the run failed"; }
grep -q "buckets of 16 slots" "$dir/g.err" || fail "--geometry 16x1: the tables did not get 16 slots a bucket"
grep -q "geometry 16x1," "$dir/g.out" || fail "--geometry 16x1: not in the header"
tail -1 "$dir/g/adversarial_cpu_kv32.csv" | grep -q '"16x1"$' || fail "--geometry 16x1: not in the CSV"
grep -q '"geometry": "16x1"' "$dir/g/adversarial_cpu_kv32.json" || fail "--geometry 16x1: not in the JSON"

"$bench" adversarial --backend cpu --n 2^10 --runs 1 --out "$dir/d" >"$dir/d.out" 2>"$dir/d.err" ||
  { cat "$dir/d.out" "$dir/d.err"; fail "the default run failed"; }
grep -q "geometry [0-9]*x1 (default)" "$dir/d.out" || fail "the default geometry is not reported"
grep -q "buckets of 16 slots" "$dir/d.err" && fail "the default run kept 16 slots a bucket"

# Not of the form SxT: refused while the options are read.
for bad in 16x0 0x4 -8x1 x4 8x foo ''; do
  "$bench" adversarial --backend cpu --geometry "$bad" >/dev/null 2>"$dir/bad.err"
  rc=$?
  [ $rc -eq 2 ] || fail "--geometry '$bad' exited $rc, not 2"
  grep -q "geometry takes SxT" "$dir/bad.err" || fail "--geometry '$bad': no message"
done
# Well formed but not a geometry hive accepts: refused by hive_create, whose message is shown.
for bad in 3x1 8x16 64x1 8x3; do
  "$bench" adversarial --backend cpu --geometry "$bad" >/dev/null 2>"$dir/bad.err"
  rc=$?
  [ $rc -eq 2 ] || fail "--geometry '$bad' exited $rc, not 2"
  grep -qE "config\.(bucket_slots|lanes_per_op)" "$dir/bad.err" || fail "--geometry '$bad': no hive_create message"
done
echo "bench options: passed"
