#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# deploy/slurm without Slurm: the array task and the merge job run as plain bash here (sbatch
# reads the #SBATCH lines; the scripts themselves need nothing of Slurm). Checks: one run per host
# (a second task on the same node skips), then fleet CSV, quirk table and report; a cut host file
# left out; a fleet with nothing to judge still reported; submit.sh with a stand-in sbatch.
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

# One host's file cut short (a full disk) is left out, not fatal: the others are merged and reported.
head -c 2000 "$work/results/hosts/$host.json" > "$work/results/hosts/zz-cut.json"
bash "$src/deploy/slurm/bwlab-merge.sbatch" > "$work/merge2.log" 2>&1 || { cat "$work/merge2.log"; fail "a cut host file stopped the merge job"; }
grep -q "left out: .*zz-cut.json" "$work/merge2.log" || { cat "$work/merge2.log"; fail "the cut file is not named"; }
grep -q "reports/ (1 of 2 hosts)" "$work/merge2.log" || { cat "$work/merge2.log"; fail "the report count is not said"; }
rm "$work/results/hosts/zz-cut.json"

# Nothing to judge (one kernel): the quirk table says why, and the reports are still written.
rm -rf "$work/results/reports" "$work/results/hosts"
BWLAB_KERNELS=stosb SLURM_ARRAY_TASK_ID=2 bash "$src/deploy/slurm/bwlab-array.sbatch" > "$work/task2.log" 2>&1 ||
  { cat "$work/task2.log"; fail "array task 2 failed"; }
bash "$src/deploy/slurm/bwlab-merge.sbatch" > "$work/merge3.log" 2>&1 || { cat "$work/merge3.log"; fail "a fleet without a verdict stopped the merge job"; }
grep -q "^no quirk table:" "$work/results/quirk-table.txt" || fail "the quirk table does not say why it is empty: $(cat "$work/results/quirk-table.txt")"
if grep -q "bwlab: error:" "$work/results/quirk-table.txt" "$work/merge3.log"; then fail "the reason is prefixed twice"; fi
[ -s "$work/results/reports/$host.html" ] || fail "no report when there is no verdict"

# submit.sh with a stand-in sbatch: the extra options reach both jobs; a refused merge job says the
# array is queued without it.
mkdir -p "$work/bin"
cat > "$work/bin/sbatch" <<'SBATCH'
#!/usr/bin/env bash
echo "$*" >> "$SBATCH_LOG"
case " $* " in *" --account=proj "*) ;; *) echo "sbatch: error: Invalid account" >&2; exit 1 ;; esac
case " $* " in *bwlab-merge.sbatch*) [ -z "${SBATCH_REFUSE_MERGE:-}" ] || { echo "sbatch: error: QOS" >&2; exit 1; } ;; esac
echo "4242"
SBATCH
chmod +x "$work/bin/sbatch"
export SBATCH_LOG="$work/sbatch.log"
PATH="$work/bin:$PATH" bash "$src/deploy/slurm/submit.sh" 3 "$work/sub" --account=proj > "$work/submit.log" 2>&1 ||
  { cat "$work/submit.log" "$SBATCH_LOG"; fail "submit.sh failed"; }
[ "$(grep -c -- "--account=proj" "$SBATCH_LOG")" -eq 2 ] || { cat "$SBATCH_LOG"; fail "the extra options did not reach both jobs"; }
# A count with a leading zero is decimal ("08" was "value too great for base", "010" an array of 8).
PATH="$work/bin:$PATH" bash "$src/deploy/slurm/submit.sh" 010 "$work/sub" --account=proj > "$work/submit0.log" 2>&1 ||
  { cat "$work/submit0.log"; fail "submit.sh 010 failed"; }
grep -q -- "--array=0-9 " "$SBATCH_LOG" || { cat "$SBATCH_LOG"; fail "NODES 010 was not 10 tasks"; }
if PATH="$work/bin:$PATH" bash "$src/deploy/slurm/submit.sh" 00 "$work/sub" > "$work/submit00.log" 2>&1; then
  fail "submit.sh 00 was accepted"
fi
grep -q "NODES must be a positive number, got '00'" "$work/submit00.log" || fail "no clear refusal of 00: $(cat "$work/submit00.log")"
if SBATCH_REFUSE_MERGE=1 PATH="$work/bin:$PATH" bash "$src/deploy/slurm/submit.sh" 3 "$work/sub" --account=proj \
  > "$work/submit2.log" 2>&1; then
  fail "submit.sh succeeded though the merge job was refused"
fi
grep -q "the array 4242 is queued but its merge job was refused" "$work/submit2.log" || { cat "$work/submit2.log"; fail "no clear word on the refused merge"; }

# Without BWLAB_RESULTS both scripts refuse.
if env -u BWLAB_RESULTS bash "$src/deploy/slurm/bwlab-merge.sbatch" > "$work/refused.log" 2>&1; then
  fail "the merge job ran without BWLAB_RESULTS"
fi
grep -q "set BWLAB_RESULTS" "$work/refused.log" || fail "no clear refusal: $(cat "$work/refused.log")"
echo "ok: array task, skip on a measured node, merge: $rows fleet rows, quirk table, report; a cut host file left out; no verdict still reports; submit.sh options to both jobs"
