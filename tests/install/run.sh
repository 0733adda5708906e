#!/usr/bin/env bash
# run.sh BUILD_DIR SOURCE_DIR C_COMPILER — the install test: install the
# built hive into a scratch prefix, then build the consumer (main.c, a C-only
# program) against it four ways and run each one:
#   CMake       find_package(hive), target hive::hive         -> libhive.so
#   CMake       find_package(hive), target hive::hive_static  -> libhive.a
#   pkg-config  hive         (+ -Wl,-rpath to its libdir)     -> libhive.so
#   pkg-config  hive-static                                   -> libhive.a
# A shared consumer must load libhive.so from the prefix (by its RPATH, with
# no LD_LIBRARY_PATH); a static one must not need libhive.so at all.
# Exit 0 pass, 1 fail, 77 skip (no pkg-config: the CMake half has passed).
set -euo pipefail
build=$1
src=$2
cc=${3:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hive-install-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

fail() { echo "install test: $*"; exit 1; }
# show LOG WHAT: prints the log of a step that failed, then fails.
show() { cat "$1"; fail "$2 FAILED"; }

command -v readelf >/dev/null || { echo "install test: readelf is not installed; SKIPPED"; exit 77; }

# check EXE shared|static: runs EXE without LD_LIBRARY_PATH, after checking
# where it gets hive from.
check() {
  local exe=$1 kind=$2 needed resolved
  needed=$(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  echo "$(basename "$exe"): needs $(echo $needed)"
  if [ "$kind" = shared ]; then
    echo "$needed" | grep -q '^libhive\.so' || fail "$exe does not link libhive.so"
    resolved=$(env -u LD_LIBRARY_PATH ldd "$exe" | awk '$1 ~ /^libhive\.so/ { print $3 }')
    [ -n "$resolved" ] && [ "$(realpath "$(dirname "$resolved")")" = "$(realpath "$libdir")" ] ||
      fail "$exe finds libhive.so at '$resolved', not in $libdir"
  else
    ! echo "$needed" | grep -q '^libhive' || fail "$exe links libhive.so, not libhive.a"
  fi
  env -u LD_LIBRARY_PATH "$exe" || fail "$exe FAILED"
}

echo "== cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || show "$tmp/install.log" "cmake --install"
test -f "$prefix/include/hive.h" || fail "hive.h not installed"
test -n "$(find "$prefix" -path '*/doc/hive/LICENSE' -print -quit)" || fail "LICENSE not installed (share/doc/hive)"
libdir=$(dirname "$(find "$prefix" -name hive.pc -print -quit)")
libdir=${libdir%/pkgconfig}
test -d "$libdir" || fail "no hive.pc installed"

echo "== CMake consumer: find_package(hive), hive::hive and hive::hive_static"
device=()
if [ -f "$prefix/include/hive/device.cuh" ]; then
  echo "== and a CUDA consumer of the device API: hive::device"
  device=(-DHIVE_DEVICE_EXAMPLE="$src/../../examples/device/groupby.cu" -DCMAKE_CUDA_ARCHITECTURES=90)
fi
cmake -S "$src" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_C_COMPILER="$cc" "${device[@]}" >"$tmp/configure.log" 2>&1 ||
  show "$tmp/configure.log" "configuring the consumer"
cmake --build "$tmp/consumer" >"$tmp/build.log" 2>&1 || show "$tmp/build.log" "building the consumer"
check "$tmp/consumer/hive-consumer" shared
check "$tmp/consumer/hive-consumer-static" static
if [ ${#device[@]} -gt 0 ]; then
  # Built against the installed headers alone; it runs where there is a GPU
  # (77: none here).
  rc=0
  env -u LD_LIBRARY_PATH "$tmp/consumer/hive-device-consumer" || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 77 ] || fail "hive-device-consumer FAILED ($rc)"
fi

echo "== pkg-config consumer: hive and hive-static"
if ! command -v pkg-config >/dev/null; then
  echo "install test: pkg-config is not installed; SKIPPED the pkg-config half"
  exit 77
fi
export PKG_CONFIG_PATH="$libdir/pkgconfig"
flags=$(pkg-config --cflags --libs hive)
rpath=$(pkg-config --variable=libdir hive)
echo "pkg-config hive: $flags"
"$cc" -std=c11 "$src/main.c" $flags -Wl,-rpath,"$rpath" -o "$tmp/hive-consumer-pc"
check "$tmp/hive-consumer-pc" shared
flags=$(pkg-config --cflags --libs hive-static)
echo "pkg-config hive-static: $flags"
"$cc" -std=c11 "$src/main.c" $flags -o "$tmp/hive-consumer-pc-static"
check "$tmp/hive-consumer-pc-static" static
echo "install test: passed (CMake package and pkg-config, shared and static)"
