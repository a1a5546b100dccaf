#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bash -n and shellcheck (warnings and errors; info and style notes are not failures) over every
# shell script of deploy/, scripts/ and bench/, and the tests' own.
set -euo pipefail
src=$1
command -v shellcheck >/dev/null || { echo "FAIL: shellcheck is missing (scripts/setup.sh installs it)"; exit 1; }
mapfile -t files < <(cd "$src" && ls deploy/slurm/*.sbatch deploy/slurm/*.sh scripts/*.sh bench/*.sh tests/deploy/*.sh)
[ "${#files[@]}" -ge 5 ] || { echo "FAIL: found only ${#files[@]} scripts"; exit 1; }
cd "$src"
for f in "${files[@]}"; do bash -n "$f"; done
shellcheck --shell=bash --severity=warning "${files[@]}"
echo "ok: ${#files[@]} scripts pass bash -n and shellcheck -S warning"
