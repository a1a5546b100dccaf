#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Quick start 1: set up, build, and run the default measurement on this machine.
# Prints the table and writes results/latest.csv, results/latest.json and results/latest.png.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
mkdir -p results  # bwlab creates no folder
build/bwlab run --csv results/latest.csv --json results/latest.json "$@"
exec build/bwlab plot results/latest.csv --out results/latest.png
