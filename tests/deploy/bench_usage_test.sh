#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The benchmark scripts' arguments (bench/fidelity.sh, bench/reproducibility.sh), without running a
# benchmark: --help prints the usage and exits 0 (it failed with "help: unbound variable" after
# building clear_loop), and a count that is not a positive number is refused with exit 2 before
# anything runs (fidelity.sh 0 printed tables of 0.000 as results).
# Usage: bench_usage_test.sh SOURCE_DIR
set -euo pipefail
src=$1
fail() { echo "FAIL: $*"; exit 1; }
for script in fidelity reproducibility; do
  out=$(bash "$src/bench/$script.sh" --help 2>&1) || fail "$script.sh --help exited $?: $out"
  grep -q "Usage: bench/$script.sh" <<< "$out" || fail "$script.sh --help prints no usage: $out"
  for bad in 0 x -3; do
    rc=0
    out=$(bash "$src/bench/$script.sh" "$bad" 2>&1) || rc=$?
    [ "$rc" -eq 2 ] || fail "$script.sh $bad exited $rc, not 2: $out"
    grep -q "must be a positive number" <<< "$out" || fail "$script.sh $bad: no clear refusal: $out"
  done
done
echo "ok: bench scripts: --help and bad counts"
