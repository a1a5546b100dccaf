#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds a ThreadSanitizer-instrumented oneTBB from Debian's own source package (the same
# version as libtbb-dev) into build-deps/tbb-tsan, for the BWLAB_TSAN build: Debian's prebuilt
# libtbb is not instrumented, so TSan cannot see its synchronisation and reports ~100 false
# races. Needs a deb-src entry; adds one for Debian's archive when none exists. ~1 minute.
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX=$PWD/build-deps/tbb-tsan
if [ -f "$PREFIX/lib/cmake/TBB/TBBConfig.cmake" ]; then echo "$PREFIX"; exit 0; fi
mkdir -p build-deps/src && cd build-deps/src
if ! ls -d onetbb-*/ >/dev/null 2>&1; then
  if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > /etc/apt/sources.list.d/debian-src.sources
  fi
  command -v dpkg-source >/dev/null || apt-get install -y -qq dpkg-dev >/dev/null
  apt-get update -qq
  apt-get source -qq onetbb >/dev/null 2>&1
fi
SRC=$(ls -d onetbb-*/ | head -n 1)
log=$PWD/tbb-tsan-build.log
{
  cmake -S "$SRC" -B tbb-tsan-build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTBB_TEST=OFF -DTBB_SANITIZE=thread \
    -DTBB_STRICT=OFF -DCMAKE_INSTALL_PREFIX="$PREFIX" &&
  cmake --build tbb-tsan-build -j"$(nproc)" &&
  cmake --install tbb-tsan-build
} >"$log" 2>&1 || { tail -n 40 "$log" >&2; echo "build-tsan-tbb: failed, see $log" >&2; exit 1; }
echo "$PREFIX"
