#!/usr/bin/env bash
# run.sh BUILD_DIR SOURCE_DIR C_COMPILER — the install test: install the
# built hive into a scratch prefix, then build and run a consumer against it
# twice: with CMake (find_package(hive), target hive::hive) and with
# pkg-config (pkg-config --cflags --libs hive).  Exit 0 pass, 1 fail, 77 skip.
set -euo pipefail
build=$1
src=$2
cc=${3:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hive-install-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

echo "== cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || {
  cat "$tmp/install.log"; echo "install test: cmake --install FAILED"; exit 1; }
test -f "$prefix/include/hive.h" || { echo "install test: hive.h not installed"; exit 1; }
test -n "$(find "$prefix" -path '*/doc/hive/LICENSE' -print -quit)" ||
  { echo "install test: LICENSE not installed (share/doc/hive)"; exit 1; }
libdir=$(dirname "$(find "$prefix" -name hive.pc -print -quit)")
libdir=${libdir%/pkgconfig}
test -d "$libdir" || { echo "install test: no hive.pc installed"; exit 1; }

echo "== CMake consumer: find_package(hive) + hive::hive"
cmake -S "$src" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_C_COMPILER="$cc" >"$tmp/configure.log" 2>&1 || {
  cat "$tmp/configure.log"; echo "install test: configuring the consumer FAILED"; exit 1; }
cmake --build "$tmp/consumer" >"$tmp/build.log" 2>&1 || {
  cat "$tmp/build.log"; echo "install test: building the consumer FAILED"; exit 1; }
"$tmp/consumer/hive-consumer"

echo "== pkg-config consumer: pkg-config --cflags --libs hive"
if ! command -v pkg-config >/dev/null; then
  echo "install test: pkg-config is not installed; SKIPPED the pkg-config half"
  exit 77
fi
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs hive)
echo "pkg-config: $flags"
"$cc" -std=c11 "$src/main.c" $flags -Wl,-rpath,"$libdir" -o "$tmp/hive-consumer-pc"
"$tmp/hive-consumer-pc"
echo "install test: passed (CMake package and pkg-config)"
