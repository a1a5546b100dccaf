#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# deploy/slurm without Slurm: the array task and the merge job run as plain bash here (sbatch
# reads the #SBATCH lines; the scripts themselves need nothing of Slurm). Checks: one run per host
# (a second task on the same node skips), then fleet CSV, quirk table and report.
# Usage: slurm_scripts_test.sh BWLAB_BIN SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/bwlab-slurm-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
host=$(hostname -s)
export BWLAB="$bin" BWLAB_RESULTS="$work/results" BWLAB_KERNELS=stosb,movnti BWLAB_SIZES=4M,8M BWLAB_THREADS=1 \
  BWLAB_REPS=2 BWLAB_DURATION=20ms

SLURM_ARRAY_TASK_ID=0 bash "$src/deploy/slurm/bwlab-array.sbatch" > "$work/task0.log" 2>&1 ||
  { cat "$work/task0.log"; fail "array task 0 failed"; }
[ -s "$work/results/hosts/$host.json" ] || fail "task 0 wrote no $host.json"
[ ! -e "$work/results/hosts/$host.json.part" ] || fail "a .part file was left behind"
SLURM_ARRAY_TASK_ID=1 bash "$src/deploy/slurm/bwlab-array.sbatch" > "$work/task1.log" 2>&1 ||
  { cat "$work/task1.log"; fail "array task 1 failed"; }
grep -q "already measured" "$work/task1.log" || { cat "$work/task1.log"; fail "task 1 on the same node did not skip"; }

bash "$src/deploy/slurm/bwlab-merge.sbatch" > "$work/merge.log" 2>&1 || { cat "$work/merge.log"; fail "merge job failed"; }
rows=$(($(wc -l < "$work/results/fleet.csv") - 1))
[ "$rows" -eq 4 ] || fail "fleet.csv has $rows rows, expected 4"
grep -q "stosb" "$work/results/quirk-table.txt" || fail "no quirk table"
grep -q "$(hostname)" "$work/results/quirk-table.txt" || fail "the quirk table does not name this host"
[ -s "$work/results/reports/$host.html" ] || fail "no report"

# Without BWLAB_RESULTS both scripts refuse.
if env -u BWLAB_RESULTS bash "$src/deploy/slurm/bwlab-merge.sbatch" > "$work/refused.log" 2>&1; then
  fail "the merge job ran without BWLAB_RESULTS"
fi
grep -q "set BWLAB_RESULTS" "$work/refused.log" || fail "no clear refusal: $(cat "$work/refused.log")"
echo "ok: array task, skip on a measured node, merge: $rows fleet rows, quirk table, report"
