#!/usr/bin/env bash
# symbols.sh LIBRARY HEADER — the shared library exports exactly the functions
# that HEADER declares with HIVE_API: no internal function (hive_cpu_run,
# hive_fail, ...) and no symbol of a static library linked into it
# (cudart_static).  The list comes from the header, one declaration per line
# beginning `HIVE_API`; a function declared there without HIVE_API fails too.
# Exit 0 pass, 1 fail, 77 skip (no nm).
set -euo pipefail
lib=$1
header=$2
command -v nm >/dev/null || { echo "symbols: nm is not installed; SKIPPED"; exit 77; }

declared=$(sed -n 's/^HIVE_API .*[^A-Za-z0-9_]\(hive_[A-Za-z0-9_]*\)(.*/\1/p' "$header" | sort -u)
unmarked=$(grep -E '^[A-Za-z_][^#]*[^A-Za-z0-9_]hive_[A-Za-z0-9_]+\(' "$header" | grep -v '^HIVE_API ' || true)
exported=$(nm -D --defined-only "$lib" | awk '{ sub(/@.*/, "", $3); print $3 }' | sort -u)

status=0
if [ -n "$unmarked" ]; then
  echo "symbols: declared in $header without HIVE_API (so not exported):"
  echo "$unmarked" | sed 's/^/  /'
  status=1
fi
if [ "$(echo "$declared" | grep -c .)" -lt 10 ]; then
  echo "symbols: found only these HIVE_API functions in $header: is its form still"
  echo "'HIVE_API <type> hive_name(' at the start of a line?"
  echo "$declared" | sed 's/^/  /'
  exit 1
fi
extra=$(comm -13 <(echo "$declared") <(echo "$exported"))
missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
if [ -n "$extra" ]; then
  echo "symbols: $lib exports $(echo "$extra" | wc -l) symbols that $header does not declare:"
  echo "$extra" | sed 's/^/  /'
  status=1
fi
if [ -n "$missing" ]; then
  echo "symbols: $lib does not export these functions of $header:"
  echo "$missing" | sed 's/^/  /'
  status=1
fi
[ $status -eq 0 ] && echo "symbols: $lib exports the $(echo "$declared" | wc -l) functions of $header and nothing else"
exit $status
