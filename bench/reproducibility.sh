#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reproducibility benchmark (not a test): runs the same `bwlab run` sweep N times back to back,
# without and with --reject-noisy (alternating, A B A B, so both see the same hours of the host),
# and prints per point the run-to-run spread of the medians, max/min - 1, for both.
# Usage: bench/reproducibility.sh [N] [-- extra bwlab run options]
#   N defaults to 3; the sweep defaults to bwlab run's own (every kernel, 16M,1G, 1..max threads).
#   bench/reproducibility.sh 3 -- --kernels stosb,avx512-nt --sizes 1G --threads 1,2
set -euo pipefail
usage() { sed -n '3,8p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
N=3
if [ "$#" -gt 0 ] && [ "$1" != "--" ]; then N=$1; shift; fi
[ "${1:-}" = "--" ] && shift
case "$N" in
  '' | *[!0-9]* | 0) echo "reproducibility.sh: N must be a positive number of runs, got '$N'" >&2; usage >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
BW=build/bwlab
[ -x "$BW" ] || { echo "build bwlab first: cmake --build build --target bwlab" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for ((i = 1; i <= N; i++)); do
  for mode in plain reject; do
    extra=()
    [ "$mode" = reject ] && extra=(--reject-noisy)
    echo "run $i/$N $mode" >&2
    "$BW" run "$@" "${extra[@]}" -q --csv "$tmp/$mode.$i.csv" >/dev/null
  done
done

# Columns by name (the header has no quoted cells). The key columns come before any quoted cell;
# columns after `flags` (whose quoted text may hold commas) are counted from the end of the row.
spread() { # mode -> "kernel size threads fill spread% medians" per point
  awk -F, -v mode="$1" '
    FNR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; width = NF; next }
    {
      key = $col["kernel"] " " $col["size_bytes"] " " $col["threads"] " " $col["fill"]
      g = $col["gbps_median"] + 0
      if (!(key in lo) || g < lo[key]) lo[key] = g
      if (!(key in hi) || g > hi[key]) hi[key] = g
      sep = (key in list) ? " " : ""
      list[key] = list[key] sep sprintf("%.2f", g)
      if (!(key in seen)) { order[++n] = key; seen[key] = 1 }
      noisy[key] += $(NF - (width - col["noisy_windows"])) + 0
    }
    END {
      for (i = 1; i <= n; i++) {
        k = order[i]
        printf "%-7s %-40s %6.1f%%  noisy windows kept %d  medians %s\n", mode, k,
               (lo[k] > 0 ? 100 * (hi[k] / lo[k] - 1) : 0), noisy[k], list[k]
      }
    }' "$tmp/$1".*.csv
}
echo "run-to-run spread of gbps_median over $N runs (max/min - 1), GB/s = 1e9 B/s"
echo "mode    kernel size_bytes threads fill"
spread plain
spread reject
