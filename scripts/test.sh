#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Quick start 2: set up, build, and run the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
cd build
ctest --output-on-failure --timeout 300 -j1
