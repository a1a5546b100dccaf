#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerates every GUI picture in docs/ (docs/gui-*.png) from committed inputs, off-screen:
#   docs/inputs/measured-vm-2vcpu-epyc.csv  a scaling run measured on a 2-vCPU AMD EPYC VM (host "vm")
#   docs/inputs/victim-vm-2vcpu-epyc.csv    a victim run on the same VM
# plus two simulations made here by `bwlab simulate` (no measuring, the same figures every time).
# The GUI runs in an empty scratch directory (no results/ of this host, no settings), so the demo
# uses the committed sample and no path of this machine appears in a picture.
# Usage: scripts/screenshots.sh [build-dir]   (needs build/bwlab and build/bwlab-gui)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=$(cd "${1:-build}" && pwd)
BWLAB=$BUILD/bwlab
GUI=$BUILD/bwlab-gui
for b in "$BWLAB" "$GUI"; do
  [ -x "$b" ] || { echo "screenshots: $b is missing; build the bwlab and bwlab-gui targets" >&2; exit 2; }
done
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
cp docs/inputs/measured-vm-2vcpu-epyc.csv "$SCRATCH/measured-vm.csv"
cp docs/inputs/victim-vm-2vcpu-epyc.csv "$SCRATCH/victim-vm.csv"
cd "$SCRATCH"
export XDG_CONFIG_HOME=$SCRATCH/config XDG_RUNTIME_DIR=$SCRATCH/runtime QT_QPA_PLATFORM=offscreen
mkdir "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"  # $SCRATCH exists: one level

# A simulated 2-socket server (2 x 26 cores, SMT) and, for the overlay, the same sweep as the
# measured file predicted on a 2-core machine of a preset.
"$BWLAB" simulate --machine skylake-x-8270cl --kernels stosb,movnti,avx512-nt --sizes 32M,256M \
  --threads 1,2,4,8,16,26,52,104 --csv sim-2socket.csv -q >/dev/null
"$BWLAB" simulate --machine icelake-x-8358 --topology 'package:1 core:2 pu:1' --kernels stosb,movnti,avx512-nt \
  --sizes 4M,32M,256M --threads 1,2 --csv sim-2core.csv -q >/dev/null

shot() {  # shot NAME ARGS...: docs/gui-NAME.png
  local name=$1
  shift
  "$GUI" "$@" --size 1400x860 --screenshot "$ROOT/docs/gui-$name.png"
}
shot threads measured-vm.csv --view threads
shot size measured-vm.csv --view size
shot table measured-vm.csv --view table
shot overlay measured-vm.csv sim-2core.csv --view threads
shot heatmap victim-vm.csv --view heatmap
shot runs measured-vm.csv sim-2core.csv sim-2socket.csv victim-vm.csv --view runs
shot demo --demo --view threads
shot heatmap-demo --demo --view heatmap
shot topology --demo --view topology
# The what-if dock over a 2 x 64-core zen4 machine (bench/whatif_redraw: 3 edits timed, then the grab).
if [ -x "$BUILD/whatif_redraw" ]; then
  "$BUILD/whatif_redraw" 3 --png "$ROOT/docs/gui-whatif.png" >/dev/null
else
  echo "screenshots: $BUILD/whatif_redraw is missing: docs/gui-whatif.png not regenerated" >&2
fi
