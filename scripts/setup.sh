#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages bwlab needs (only those missing), then configures and
# builds it (Release) in build/. Idempotent: a second call with nothing changed takes seconds.
# Usage: scripts/setup.sh [build-dir] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
shift || true

PACKAGES=(cmake g++ make pkg-config libhwloc-dev hwloc libfmt-dev libcli11-dev
          nlohmann-json3-dev libgtest-dev
          desktop-file-utils dpkg-dev file help2man
          qt6-base-dev qt6-svg-dev libqcustomplot-dev xvfb xauth fonts-dejavu-core
          ansible libbenchmark-tools python3-scipy shellcheck)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -f "$BUILD_DIR/CMakeCache.txt" ] || (($#)); then
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
fi
cmake --build "$BUILD_DIR" -j"$(nproc)" >&2  # progress on stderr: stdout keeps only what bwlab prints
