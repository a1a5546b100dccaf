#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets with clang (ASan+UBSan) and runs each for SECONDS (default 60).
# The repository corpus (fuzz/corpus/<target>) seeds each run; new inputs go to a scratch
# corpus under build-fuzz/, crashes to build-fuzz/crashes/<target>/. Copy a crash into
# fuzz/corpus/<target>/ once fixed: ctest replays that folder on every build.
# Usage: fuzz/run.sh [SECONDS] [TARGET...]     (targets: csv json args topology xml machine
#        import_perf_bench import_lkml_table import_likwid_bench import_pmbw import_gbench)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
shift || true
TARGETS=("$@")
((${#TARGETS[@]})) || TARGETS=(csv json args topology xml machine import_perf_bench import_lkml_table import_likwid_bench import_pmbw import_gbench)
command -v clang++ >/dev/null || apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBWLAB_FUZZ=ON >/dev/null
fi
cmake --build build-fuzz -j"$(nproc)" --target $(printf 'fuzz_%s ' "${TARGETS[@]}") >/dev/null
export LSAN_OPTIONS=suppressions=$PWD/fuzz/lsan.supp
status=0
for t in "${TARGETS[@]}"; do
  work=build-fuzz/corpus-work/$t crashes=build-fuzz/crashes/$t
  mkdir -p "$work" "$crashes"
  log=build-fuzz/fuzz_$t.log
  if build-fuzz/fuzz/fuzz_$t "$work" "fuzz/corpus/$t" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 \
       -rss_limit_mb=2048 -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1 || echo '?')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 || true)
    echo "fuzz_$t: ${SECONDS_PER_TARGET}s, $runs inputs, $cov, no crash"
  else
    status=1
    echo "fuzz_$t: CRASH, see $log and $crashes/" >&2
    grep -m1 -A3 'ERROR\|==ERROR\|uncaught\|deadly' "$log" >&2 || tail -n 20 "$log" >&2
  fi
done
exit $status
