# SPDX-License-Identifier: MIT
# Shared by the packaging tests (sourced): the build directory, what must be installed, failing loudly.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${BWLAB_BUILD_DIR:?BWLAB_BUILD_DIR is not set (ctest sets it)}
fail() { echo "FAIL: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null || fail "$1 is missing: scripts/setup.sh installs it (package $2)"; }
# The files every install holds, relative to the root, sorted; without man pages when BWLAB_MAN is off.
expected_files() {
  if [ "${BWLAB_EXPECT_MAN:-1}" = 1 ]; then cat "$here/expected-files.txt"
  else grep -v '^usr/share/man/' "$here/expected-files.txt"; fi
}
[ -x "$build/bwlab" ] && [ -x "$build/bwlab-gui" ] || fail "build bwlab and bwlab-gui first (cmake --build $build)"
