#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Queue one bwlab sweep per node (a job array) and the merge that runs once they all finished.
# Usage: deploy/slurm/submit.sh NODES RESULTS_DIR [extra sbatch options for both jobs...]
#   BWLAB=/shared/bin/bwlab BWLAB_SIZES=16M,1G deploy/slurm/submit.sh 16 "$PWD/fleet" --partition=compute
# The extra options (--account, --partition, --qos, ...) go to the array and to the merge job.
# RESULTS_DIR must be on a filesystem every node sees. The BWLAB_* variables of
# bwlab-array.sbatch (BWLAB, BWLAB_SIZES, BWLAB_THREADS, BWLAB_REPS, BWLAB_KERNELS,
# BWLAB_DURATION) are passed on to the jobs.
set -euo pipefail
if [ "$#" -lt 2 ]; then
  echo "usage: $0 NODES RESULTS_DIR [sbatch options for both jobs...]" >&2
  exit 2
fi
nodes=$1
results=$2
shift 2
case "$nodes" in
  '' | *[!0-9]*) echo "submit.sh: NODES must be a positive number, got '$nodes'" >&2; exit 2 ;;
esac
given=$nodes
nodes=$((10#$nodes))  # "08" and "010" are 8 and 10, not octal
[ "$nodes" -gt 0 ] || { echo "submit.sh: NODES must be a positive number, got '$given'" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$results/hosts"
export BWLAB_RESULTS
BWLAB_RESULTS=$(cd "$results" && pwd)
array=$(sbatch --parsable --array="0-$((nodes - 1))" --export=ALL "$@" "$here/bwlab-array.sbatch")
array=${array%%;*}  # --parsable prints "jobid[;cluster]"
if ! merge=$(sbatch --parsable --dependency="afterany:$array" --export=ALL "$@" "$here/bwlab-merge.sbatch"); then
  echo "submit.sh: the array $array is queued but its merge job was refused (sbatch said why above):" \
    "cancel it with 'scancel $array', or merge after it with BWLAB=${BWLAB:-bwlab} BWLAB_RESULTS=$BWLAB_RESULTS bash $here/bwlab-merge.sbatch" >&2
  exit 1
fi
echo "queued: array $array ($nodes tasks), merge ${merge%%;*} after it; results in $BWLAB_RESULTS"
