#!/usr/bin/env bash
# bench_options.sh HIVE_BENCH DIR — hive-bench's command line, on the CPU backend:
#   * values as --name=value and as --name value (--kv 64 runs KV64 either way),
#     the workload named before or after the options;
#   * --version and --help exit 0; --help lists the options and the sizes of
#     the backend a run takes;
#   * an unknown option, a missing value or a value to --quick exit 2 with a
#     message naming the option;
#   * the results folder is printed at the end of a run;
#   * --geometry: the tables get the geometry asked for (the adversarial
#     workload reports its buckets' slots), the header, CSV and JSON record it,
#     a run without it reports the backend's default, and malformed values, or
#     geometries hive_create refuses, exit 2 with a message.
#   * --cache-hbm-fraction: the cache workload verified with values in two
#     arrays, the fraction in its header; values outside 0..1 exit 2.
#   * --hot-fraction: the tiered workload verified with a hot tier of half the
#     records, the fraction in its rows' x column, "host arrays" in their
#     geometry column; values outside (0, 1] exit 2; --pageable accepted;
#     --write-back verified, named in the geometry column.
#   * --cache-slots: the cache workload verified with 8-slot buckets, named in
#     its header and CSV; other sizes exit 2.
#   * --absent-filter: a CPU fill/find run verified over filtered tables, the
#     filter named in the geometry of its header and CSV; values outside 4..16
#     exit 2.
#   * --design: one design's rows carry its name in the CSV's design column and
#     the JSON; --design all runs a workload once per design into one CSV (the
#     probes, caching and sptc workloads, verified, at small sizes), a cache-table
#     workload once with no design; bench/table.py makes a column per design of
#     it; an unknown design exits 2 with a message.
# Exit 0 pass, 1 fail.
set -uo pipefail
bench=$1
dir=$2
fail() { echo "bench options: $*"; exit 1; }
# csv_field FILE OP COLUMN: the named column of the first row of op OP, quotes removed
csv_field() {
  awk -v op="$2" -v col="$3" '
    function fields(line, f,   n, i, ch, q, cur) {
      n = 0; cur = ""; q = 0
      for (i = 1; i <= length(line); i++) {
        ch = substr(line, i, 1)
        if (ch == "\"") q = !q
        else if (ch == "," && !q) { f[++n] = cur; cur = "" }
        else cur = cur ch
      }
      f[++n] = cur
      return n
    }
    NR == 1 { n = fields($0, h); for (i = 1; i <= n; i++) at[h[i]] = i; next }
    { fields($0, f); if (f[at["op"]] == op) { print f[at[col]]; exit } }' "$1"
}
rm -rf "$dir"
mkdir -p "$dir"

# --kv=64 and --kv 64
for form in "--kv=64" "--kv 64"; do
  # shellcheck disable=SC2086 # the form is two words or one
  "$bench" $form adversarial --backend cpu --n 2^10 --runs 1 --out "$dir/kv" \
    >"$dir/kv.out" 2>"$dir/kv.err" || { cat "$dir/kv.out" "$dir/kv.err"; fail "$form: the run failed"; }
  grep -q "CPU backend (.*), KV64," "$dir/kv.out" || fail "$form: the run was not KV64"
  [ -s "$dir/kv/adversarial_cpu_kv64.csv" ] || fail "$form: no adversarial_cpu_kv64.csv"
  tail -1 "$dir/kv.out" | grep -qx "hive-bench: results in $dir/kv" ||
    fail "$form: the last line does not name the results folder"
  rm -rf "$dir/kv"
done
"$bench" --backend=cpu --runs=3 --n=2^10 --out="$dir/eq" adversarial >"$dir/eq.out" 2>&1 ||
  { cat "$dir/eq.out"; fail "--name=value options: the run failed"; }
csv="$dir/eq/adversarial_cpu_kv32.csv"
[ -s "$csv" ] || fail "--out=DIR: no adversarial_cpu_kv32.csv there"

# The slowest and fastest run beside the median: CSV, JSON, the printed table
[ "$(csv_field "$csv" race-apply runs)" = 3 ] || fail "race-apply: not 3 runs"
lo=$(csv_field "$csv" race-apply gops_min)
mid=$(csv_field "$csv" race-apply gops)
hi=$(csv_field "$csv" race-apply gops_max)
[ -n "$lo" ] && [ -n "$mid" ] && [ -n "$hi" ] || fail "race-apply: gops '$mid', min '$lo', max '$hi'"
awk -v a="$lo" -v b="$mid" -v c="$hi" 'BEGIN { exit !(a > 0 && a <= b && b <= c) }' ||
  fail "race-apply: not min <= median <= max: $lo, $mid, $hi"
[ -z "$(csv_field "$csv" size_errors gops_min)" ] || fail "a count row has a gops_min"
grep -q '"gops_min": [0-9]' "$dir/eq/adversarial_cpu_kv32.json" || fail "no gops_min in the JSON"
grep -q '"gops_max": [0-9]' "$dir/eq/adversarial_cpu_kv32.json" || fail "no gops_max in the JSON"
grep -qE "^race-apply .* [0-9.]+\.\.[0-9.]+ " "$dir/eq.out" || fail "the table shows no min..max"

# --version
"$bench" --version >"$dir/version.out" 2>&1 || fail "--version exited $?"
grep -qE "^hive-bench [0-9]+\.[0-9]+\.[0-9]+, commit " "$dir/version.out" ||
  fail "--version: no version line: $(cat "$dir/version.out")"

# --help: the options and the sizes of the backend a run would take
"$bench" --backend cpu --help >"$dir/help.out" 2>&1 || fail "--help exited $?"
for want in "--kv 32|64" "--version" "--geometry SxT" "--out DIR" "sizes for the CPU backend"; do
  grep -qF -- "$want" "$dir/help.out" || fail "--help does not show '$want'"
done
grep -qE "^  balanced +keys +2\^[0-9]+\.\.2\^[0-9]+, load" "$dir/help.out" ||
  fail "--help: no balanced sizes"
grep -qE "^  adversarial +buckets +[0-9]" "$dir/help.out" || fail "--help: no adversarial sizes"
for want in "probes +slots +2\^" "caching +slots +2\^[0-9]+, batch" "sptc +nonzeros +2\^"; do
  grep -qE "^  $want" "$dir/help.out" || fail "--help: no line '$want'"
done
grep -qF -- "--design NAME|all" "$dir/help.out" || fail "--help: no --design NAME|all"
grep -qF "hive|double" "$dir/help.out" || fail "--help: the designs are not listed"
grep -qE "^  limits .*GPU only" "$dir/help.out" || fail "--help: limits not marked GPU only"
"$bench" -h >"$dir/h.out" 2>&1 || fail "-h exited $?"
grep -q "^usage: hive-bench" "$dir/h.out" || fail "-h: no usage line"

# Bad options: exit 2 with a message naming the option
bad_option() { # expected-text args...
  local want=$1
  shift
  "$bench" "$@" >/dev/null 2>"$dir/bad.err"
  local rc=$?
  [ $rc -eq 2 ] || fail "'$*' exited $rc, not 2"
  grep -qF -- "$want" "$dir/bad.err" || fail "'$*': no message naming $want: $(cat "$dir/bad.err")"
  grep -q -- "--help" "$dir/bad.err" || fail "'$*': the message does not point to --help"
}
bad_option "--bogus" --bogus
bad_option "--bogus" adversarial --bogus=1
bad_option "--kv" adversarial --kv
bad_option "--quick" --quick=1
"$bench" --kv=16 >/dev/null 2>"$dir/bad.err"
[ $? -eq 2 ] || fail "--kv=16 did not exit 2"
grep -q "kv takes 32 or 64" "$dir/bad.err" || fail "--kv=16: no message"
"$bench" nosuch >/dev/null 2>"$dir/bad.err"
[ $? -eq 2 ] || fail "an unknown workload did not exit 2"
grep -q "unknown workload 'nosuch'" "$dir/bad.err" || fail "an unknown workload: no message"

"$bench" adversarial --backend cpu --n 2^10 --runs 1 --geometry 16x1 --out "$dir/g" \
  >"$dir/g.out" 2>"$dir/g.err" || { cat "$dir/g.out" "$dir/g.err"; fail "--geometry 16x1: the run failed"; }
grep -q "buckets of 16 slots" "$dir/g.err" || fail "--geometry 16x1: the tables did not get 16 slots a bucket"
grep -q "geometry 16x1," "$dir/g.out" || fail "--geometry 16x1: not in the header"
[ "$(csv_field "$dir/g/adversarial_cpu_kv32.csv" race-apply geometry)" = 16x1 ] ||
  fail "--geometry 16x1: not in the CSV"
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
# --cache-hbm-fraction: a cache run with a third of the values' slots in device
# memory is verified and says so in its geometry; a value outside 0..1 exits 2.
"$bench" cache --backend cpu --runs 1 --n 2^12 --batch 256 --dim 8 --cache-hbm-fraction 0.333 \
  --out "$dir/hbm" >"$dir/hbm.out" 2>&1 || { cat "$dir/hbm.out"; fail "--cache-hbm-fraction 0.333: the run failed"; }
grep -q "0 verification failures" "$dir/hbm.out" || fail "--cache-hbm-fraction 0.333: a check failed"
grep -q "geometry 16 slots LRU hbm 0.333," "$dir/hbm.out" || fail "--cache-hbm-fraction 0.333: not in the header"
for bad in 1.5 -0.1 x ''; do
  "$bench" cache --backend cpu --cache-hbm-fraction "$bad" >/dev/null 2>"$dir/bad.err"
  rc=$?
  [ $rc -eq 2 ] || fail "--cache-hbm-fraction '$bad' exited $rc, not 2"
  grep -q "cache-hbm-fraction takes a number in 0..1" "$dir/bad.err" || fail "--cache-hbm-fraction '$bad': no message"
done
# --hot-fraction: a two-level run with a hot tier of half the records, verified,
# the fraction in every row's x column; values outside (0, 1] exit 2.
"$bench" tiered --backend cpu --runs 1 --n 2^12 --batch 1024 --hot-fraction 0.5 \
  --out "$dir/hot" >"$dir/hot.out" 2>&1 || { cat "$dir/hot.out"; fail "--hot-fraction 0.5: the run failed"; }
grep -q "0 verification failures" "$dir/hot.out" || fail "--hot-fraction 0.5: a check failed"
[ "$(csv_field "$dir/hot/tiered_cpu_kv64.csv" "tiered zipf0.99 95" x)" = "0.5" ] || fail "--hot-fraction 0.5: not in the CSV"
[ "$(csv_field "$dir/hot/tiered_cpu_kv64.csv" "tiered zipf0.99 95" geometry)" = "host arrays" ] ||
  fail "tiered: the CPU run's geometry column does not read 'host arrays'"
# --pageable: accepted (on a CPU run the arrays are malloc's either way), verified.
"$bench" tiered --backend cpu --runs 1 --n 2^12 --batch 1024 --pageable \
  --out "$dir/pageable" >"$dir/pageable.out" 2>&1 || { cat "$dir/pageable.out"; fail "--pageable: the run failed"; }
grep -q "0 verification failures" "$dir/pageable.out" || fail "--pageable: a check failed"
# --write-back: the two-level table under write-back, verified, named in the geometry column.
"$bench" tiered --backend cpu --runs 1 --n 2^12 --batch 1024 --write-back \
  --out "$dir/back" >"$dir/back.out" 2>&1 || { cat "$dir/back.out"; fail "--write-back: the run failed"; }
grep -q "0 verification failures" "$dir/back.out" || fail "--write-back: a check failed"
[ "$(csv_field "$dir/back/tiered_cpu_kv64.csv" "tiered zipf0.99 95" geometry)" = "host arrays, write-back" ] ||
  fail "--write-back: the geometry column does not read 'host arrays, write-back'"
for bad in 0 1.5 -0.1 x ''; do
  "$bench" tiered --backend cpu --hot-fraction "$bad" >/dev/null 2>"$dir/bad.err"
  rc=$?
  [ $rc -eq 2 ] || fail "--hot-fraction '$bad' exited $rc, not 2"
  grep -q "hot-fraction takes a number in (0, 1]" "$dir/bad.err" || fail "--hot-fraction '$bad': no message"
done
# --absent-filter: the tables keep a filter, verified and named; bits outside 4..16 exit 2.
"$bench" cpu-compare --backend cpu --runs 1 --n 2^14 --absent-filter 8 \
  --out "$dir/filter" >"$dir/filter.out" 2>&1 || { cat "$dir/filter.out"; fail "--absent-filter 8: the run failed"; }
grep -q "0 verification failures" "$dir/filter.out" || fail "--absent-filter 8: a check failed"
grep -q "geometry 8x1 filter 8," "$dir/filter.out" || fail "--absent-filter 8: not in the header"
[ "$(csv_field "$dir/filter/cpu-compare_cpu_kv32.csv" hive-1t-absent geometry)" = "8x1 filter 8" ] ||
  fail "--absent-filter 8: not in the CSV"
for bad in 3 17 x; do
  "$bench" cpu-compare --backend cpu --absent-filter "$bad" >/dev/null 2>"$dir/bad.err"
  rc=$?
  [ $rc -eq 2 ] || fail "--absent-filter '$bad' exited $rc, not 2"
  grep -q "absent-filter" "$dir/bad.err" || fail "--absent-filter '$bad': no message"
done
# --cache-slots: 8-slot buckets, verified and named; sizes the cache refuses exit 2.
"$bench" cache --backend cpu --runs 1 --n 2^12 --batch 256 --dim 1 --cache-slots 8 \
  --out "$dir/cs" >"$dir/cs.out" 2>&1 || { cat "$dir/cs.out"; fail "--cache-slots 8: the run failed"; }
grep -q "0 verification failures" "$dir/cs.out" || fail "--cache-slots 8: a check failed"
grep -q "geometry 8 slots LRU," "$dir/cs.out" || fail "--cache-slots 8: not in the header"
[ "$(csv_field "$dir/cs/cache_cpu_kv64.csv" find geometry)" = "8 slots LRU" ] || fail "--cache-slots 8: not in the CSV"
for bad in 4 12 256 x ''; do
  "$bench" cache --backend cpu --cache-slots "$bad" >/dev/null 2>"$dir/bad.err"
  rc=$?
  [ $rc -eq 2 ] || fail "--cache-slots '$bad' exited $rc, not 2"
  grep -q "cache-slots takes 8, 16, 32, 64 or 128" "$dir/bad.err" || fail "--cache-slots '$bad': no message"
done

# --design NAME: the design column of the CSV and JSON
"$bench" adversarial --backend cpu --n 2^10 --runs 1 --design double --out "$dir/dd" \
  >"$dir/dd.out" 2>&1 || { cat "$dir/dd.out"; fail "--design double: the run failed"; }
grep -q "design double, geometry" "$dir/dd.out" || fail "--design double: not in the header"
[ "$(csv_field "$dir/dd/adversarial_cpu_kv32.csv" race-apply design)" = double ] ||
  fail "--design double: not in the CSV's design column"
grep -q '"design": "double"' "$dir/dd/adversarial_cpu_kv32.json" || fail "--design double: not in the JSON"
bad_option "--design" adversarial --design nosuch
grep -q "design takes hive|double" "$dir/bad.err" || fail "--design nosuch: the message does not list the designs"
# Every design hive-bench knows (bench/harness/designs.c), from that message.
all_designs=$(sed -n 's/.*design takes \([^ ]*\) or all.*/\1/p' "$dir/bad.err" | tr '|' '\n')
[ -n "$all_designs" ] || fail "--design nosuch: no list of designs in '$(cat "$dir/bad.err")'"
sorted_designs=$(printf '%s\n' $all_designs | sort | tr '\n' ' ')
ndesigns=$(printf '%s\n' $all_designs | wc -l)

# --design all: every design into one CSV per workload, the new workloads verified
"$bench" probes caching sptc cache --design all --backend cpu --runs 1 --n 2^12 --batch 256 \
  --dim 1 --out "$dir/all" >"$dir/all.out" 2>"$dir/all.err" ||
  { cat "$dir/all.out" "$dir/all.err"; fail "--design all: the run failed"; }
grep -q "designs hive,double," "$dir/all.out" || fail "--design all: the header does not list the designs"
grep -q "0 verification failures" "$dir/all.out" || fail "--design all: a check failed"
for wl in probes caching sptc; do
  csv="$dir/all/${wl}_cpu_kv32.csv"
  [ -s "$csv" ] || fail "--design all: no $csv"
  designs=$(awk -F, 'NR > 1 { print $NF }' "$csv" | sort -u | tr -d '"' | tr '\n' ' ')
  expected=$sorted_designs # every design, probes too: each has a probe model (designs.c)
  [ "$designs" = "$expected" ] || fail "$wl: designs '$designs' in the CSV, not $expected"
  awk -F, 'NR > 1 && $15 != 1 { exit 1 }' "$csv" || fail "$wl: a row is not verified (ok != 1)"
done
[ "$(awk -F, 'NR > 1 { print $NF }' "$dir/all/cache_cpu_kv64.csv" | sort -u)" = '""' ] ||
  fail "cache: the cache table's rows name a design"
[ "$(grep -c "== cache:" "$dir/all.out")" = 1 ] || fail "cache: ran more than once with --design all"
# a design the backend refuses is skipped with a line; none left: exit 2
"$bench" probes --design all --backend cpu --geometry 8x3 --n 2^10 >/dev/null 2>"$dir/bad.err"
rc=$?
[ $rc -eq 2 ] || fail "--design all with no design possible exited $rc, not 2"
[ "$(grep -c "design .*: the CPU backend cannot create its tables .*: skipped" "$dir/bad.err")" = "$ndesigns" ] ||
  fail "--design all: no skip line per refused design: $(cat "$dir/bad.err")"
grep -q "no design can run" "$dir/bad.err" || fail "--design all: no message when every design is refused"
csv_field "$dir/all/probes_cpu_kv32.csv" find unit | grep -qx buckets || fail "probes: no buckets row"
if command -v python3 >/dev/null; then
  python3 "$(dirname "$0")/../bench/table.py" "$dir/all/sptc_cpu_kv32.csv" >"$dir/table.md" ||
    fail "bench/table.py failed"
  header="| op |$(printf ' %s |' $all_designs)"
  grep -qxF "$header" "$dir/table.md" || fail "table.py: no column per design: $(head -5 "$dir/table.md")"
  grep -qE "^\| accumulate \|( [0-9.]+ \|){$ndesigns}$" "$dir/table.md" || fail "table.py: no accumulate row"
fi
echo "bench options: passed"
