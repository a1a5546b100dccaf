#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# deploy/ansible/bwlab-fleet.yml end to end against this machine (inventory "localhost,", local
# connection, the build's bwlab: nothing installed), then the checks: the fetched run, the merged
# fleet CSV, the quirk table and the HTML report exist and name this host.
# Usage: ansible_localhost_test.sh BWLAB_BIN SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
command -v ansible-playbook >/dev/null || { echo "FAIL: ansible-playbook is missing (scripts/setup.sh installs ansible)"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/bwlab-ansible-XXXXXX")
trap 'rm -rf "$work"' EXIT
results=$work/results
fail() { echo "FAIL: $*"; exit 1; }

# A tiny sweep: 2 kernels x 2 sizes x 1 thread x 2 reps of 20 ms, enough for a verdict pair.
ANSIBLE_LOCAL_TEMP=$work/ansible-tmp ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \
  ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3 \
  ansible-playbook -i localhost, -c local "$src/deploy/ansible/bwlab-fleet.yml" \
  -e "bwlab_bin=$bin" -e "bwlab_results_dir=$results" -e "bwlab_remote_dir=$work/remote" \
  -e bwlab_kernels=stosb,movnti -e bwlab_sizes=4M,8M -e bwlab_threads=1 -e bwlab_reps=2 \
  -e bwlab_duration=20ms > "$work/ansible.log" 2>&1 || { rc=$?; cat "$work/ansible.log"; fail "ansible-playbook exited $rc"; }

host=$(hostname)  # bwlab records gethostname(2)
[ -s "$results/hosts/localhost.json" ] || fail "no fetched run $results/hosts/localhost.json"
grep -q "\"host\": \"$host\"" "$results/hosts/localhost.json" || fail "the fetched run does not name host $host"
[ -s "$results/fleet.csv" ] || fail "no fleet.csv"
head -n 1 "$results/fleet.csv" | grep -q '^cpu_vendor,cpu_family,cpu_model_number,cpu_stepping,microcode,' ||
  fail "fleet.csv has not the fleet header: $(head -n 1 "$results/fleet.csv")"
# 2 kernels x 2 sizes = 4 points, one line each after the header.
rows=$(($(wc -l < "$results/fleet.csv") - 1))
[ "$rows" -eq 4 ] || fail "fleet.csv has $rows rows, expected 4"
grep -q ",$host," "$results/fleet.csv" || fail "fleet.csv does not name host $host"
[ -s "$results/quirk-table.txt" ] || fail "no quirk-table.txt"
grep -q "$host" "$results/quirk-table.txt" || { cat "$results/quirk-table.txt"; fail "the quirk table does not name $host"; }
grep -q "stosb" "$results/quirk-table.txt" || fail "the quirk table does not name the kernels"
[ -s "$results/reports/localhost.html" ] || fail "no reports/localhost.html"
grep -q "<html" "$results/reports/localhost.html" || fail "reports/localhost.html is not HTML"
grep -q "$host" "$results/reports/localhost.html" || fail "the report does not name $host"

# One kernel (nothing to judge), the inventory name recorded as the host, bwlab_run_args as one
# string: the quirk table says why it is empty and the report is still written (the job stopped at
# the verdict, and a string of run arguments was a Jinja type error).
results2=$work/results2
ANSIBLE_LOCAL_TEMP=$work/ansible-tmp ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \
  ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3 \
  ansible-playbook -i localhost, -c local "$src/deploy/ansible/bwlab-fleet.yml" \
  -e "bwlab_bin=$bin" -e "bwlab_results_dir=$results2" -e "bwlab_remote_dir=$work/remote2" \
  -e bwlab_kernels=stosb -e bwlab_sizes=4M -e bwlab_threads=1 -e bwlab_reps=2 -e bwlab_duration=20ms \
  -e bwlab_host_from_inventory=true -e 'bwlab_run_args="--fill 0xff"' > "$work/ansible2.log" 2>&1 ||
  { rc=$?; cat "$work/ansible2.log"; fail "ansible-playbook (one kernel) exited $rc"; }
grep -q '"host": "localhost"' "$results2/hosts/localhost.json" || fail "the inventory name was not recorded as the host"
grep -q '"fill": "0xff"' "$results2/hosts/localhost.json" || fail "bwlab_run_args given as a string did not reach bwlab run"
grep -q "^no quirk table:" "$results2/quirk-table.txt" || fail "the quirk table does not say why it is empty: $(cat "$results2/quirk-table.txt")"
[ -s "$results2/reports/localhost.html" ] || fail "no report when there is no verdict"

# Asking for both install ways (or neither) is refused before anything runs.
if ansible-playbook -i localhost, -c local "$src/deploy/ansible/bwlab-fleet.yml" -e "bwlab_bin=$bin" \
     -e bwlab_deb=/nonexistent.deb -e "bwlab_results_dir=$work/refused" > "$work/refused.log" 2>&1; then
  fail "bwlab_deb and bwlab_bin together were accepted"
fi
grep -q "give exactly one of bwlab_deb" "$work/refused.log" || { cat "$work/refused.log"; fail "no clear refusal"; }
[ ! -e "$work/refused/hosts" ] || fail "the refused run measured anyway"
echo "ok: playbook ran; $rows fleet rows, quirk table and report name $host"
