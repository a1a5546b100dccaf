#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Side-by-side fidelity benchmark (not a test): bwlab against references, interleaved A B A B
# in one run, printing the median of the paired ratios bwlab/reference with their range.
#  1. perf bench mem memset (Debian linux-perf): -f x86-64-stosb vs bwlab stosb and -f default
#     vs bwlab memset, one thread pinned to CPU 0, sizes 2M 16M 128M 1G, same bytes written
#     (bwlab --fill perf writes the pass number, as perf's loop writes its index).
#     Units: perf prints "GB/sec" computed with K = 1024 (tools/perf/bench/mem-functions.c,
#     print_bps: bytes / K / K / K), i.e. GiB/s; we multiply by 1.073741824 to get 1e9 B/s.
#  2. bench/clear_loop.c, a minimal standalone loop per kernel family (rep stosb, movnti,
#     AVX-512 NT, clzero where the CPU has it), at 1 and 2 threads pinned with taskset,
#     against bwlab's same kernel and placement (compact = CPUs 0,1 here).
# Usage: bench/fidelity.sh [ROUNDS]   (default 5; about 7 minutes on 2 vCPUs, docs/fidelity.md)
#   Needs perf (Debian: apt-get install linux-perf); builds build/bench/clear_loop.
set -euo pipefail
usage() { sed -n '3,14p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
ROUNDS=${1:-5}
case "$ROUNDS" in
  '' | *[!0-9]* | 0) echo "fidelity.sh: ROUNDS must be a positive number, got '$ROUNDS'" >&2; usage >&2; exit 2 ;;
esac
[ "$#" -le 1 ] || { echo "fidelity.sh: one argument at most (ROUNDS), got $#" >&2; exit 2; }
command -v perf >/dev/null || { echo "fidelity.sh: perf is missing (Debian: apt-get install linux-perf)" >&2; exit 2; }
cd "$(dirname "$0")/.."
BW=build/bwlab
[ -x "$BW" ] || scripts/setup.sh build >/dev/null
mkdir -p build/bench
cc -O2 -o build/bench/clear_loop bench/clear_loop.c -lpthread
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bytes() { # 2M -> bytes (binary units, as both tools use)
  local n=${1%[KMG]} u=${1: -1}
  case $u in K) echo $((n << 10)) ;; M) echo $((n << 20)) ;; G) echo $((n << 30)) ;; *) echo "$1" ;; esac
}
bwlab_gbps() { # kernel size threads fill duration_ms -> aggregate GB/s (1e9)
  "$BW" run --kernels "$1" --sizes "$2" --threads "$3" --placement compact --fill "$4" --reps 1 \
    --duration "$5ms" -q --csv "$tmp/p.csv" >/dev/null
  awk -F, 'NR == 2 { print $17 }' "$tmp/p.csv"
}
perf_gbps() { # function size -> GB/s (1e9), perf's GiB/s converted
  local loops=$(( 2500000000 / $(bytes "$2") ))
  ((loops < 2)) && loops=2
  taskset -c 0 perf bench mem memset -f "$1" -s "${2}B" -l "$loops" 2>/dev/null |
    awk '/GB\/sec/ { printf "%.4f\n", $1 * 1.073741824 }'
}
loop_gbps() { # kind size threads -> GB/s
  local cpus=0
  (($3 > 1)) && cpus=0-$(($3 - 1))
  taskset -c "$cpus" build/bench/clear_loop "$1" "$(bytes "$2")" "$3" 0.25 0
}
summary() { # ratios... -> "median (min..max)"
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.3f (%.3f..%.3f)", m, v[1], v[NR] }'
}

echo "# bwlab fidelity, $(date -u +%Y-%m-%dT%H:%MZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $ROUNDS rounds"
echo
echo "## 1. perf bench mem memset vs bwlab, 1 thread on CPU 0, same bytes (--fill perf)"
echo
echo "| reference | bwlab | size | ratio bwlab/reference: median (min..max) | reference GB/s (median) |"
echo "|---|---|---|---|---|"
for pair in "x86-64-stosb stosb" "default memset"; do
  # shellcheck disable=SC2086 # the pair splits into the reference's function and bwlab's kernel
  set -- $pair
  for size in 2M 16M 128M 1G; do
    ratios=() refs=()
    for ((r = 0; r < ROUNDS; ++r)); do
      a=$(perf_gbps "$1" "$size"); b=$(bwlab_gbps "$2" "$size" 1 perf 250)
      refs+=("$a"); ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.5f", b / a }')")
    done
    echo "| perf -f $1 | $2 | $size | $(summary "${ratios[@]}") | $(summary "${refs[@]}" | cut -d' ' -f1) |"
  done
done

echo
echo "## 2. standalone loop (bench/clear_loop.c) vs bwlab, zero fill, pinned"
echo
echo "| kernel | threads | size | ratio bwlab/loop: median (min..max) | loop GB/s (median) |"
echo "|---|---|---|---|---|"
kinds="stosb:stosb movnti:movnti avx512nt:avx512-nt"
grep -qw clzero /proc/cpuinfo && kinds="$kinds clzero:clzero"
grep -qw avx512f /proc/cpuinfo || kinds=${kinds/avx512nt:avx512-nt/}
maxt=$(nproc); ((maxt > 2)) && maxt=2
for k in $kinds; do
  for t in $(seq 1 "$maxt"); do
    for size in 16M 1G; do
      ratios=() refs=()
      for ((r = 0; r < ROUNDS; ++r)); do
        a=$(loop_gbps "${k%%:*}" "$size" "$t"); b=$(bwlab_gbps "${k##*:}" "$size" "$t" zero 250)
        refs+=("$a"); ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.5f", b / a }')")
      done
      echo "| ${k##*:} | $t | $size | $(summary "${ratios[@]}") | $(summary "${refs[@]}" | cut -d' ' -f1) |"
    done
  done
done
