#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `cmake --install` into a staging directory (DESTDIR) with prefix /usr: exactly the expected files,
# and the staged binaries run from there (bwlab list, bwlab-gui --help without a display).
source "$(dirname "$0")/common.sh"
need desktop-file-validate desktop-file-utils
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

DESTDIR=$stage cmake --install "$build" --prefix /usr >"$stage.log" 2>&1 || { cat "$stage.log"; rm -f "$stage.log"; fail "cmake --install"; }
rm -f "$stage.log"
got=$(cd "$stage" && find . -type f -o -type l | sed 's|^\./||' | LC_ALL=C sort)
want=$(expected_files | LC_ALL=C sort)
[ "$got" = "$want" ] || fail "installed files differ from the expected ones:
$(diff <(echo "$want") <(echo "$got"))"

bin=$stage/usr/bin
! readelf -d "$bin/bwlab" "$bin/bwlab-gui" | grep -E 'RPATH|RUNPATH' | grep -q "$build" \
  || fail "an installed binary keeps the build tree in its RPATH"
list=$("$bin/bwlab" list) || fail "staged bwlab list exited $?"
grep -q '^stosb ' <<<"$list" || fail "staged bwlab list lacks the stosb row: $list"
gui_help=$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$bin/bwlab-gui" --help) || fail "staged bwlab-gui --help exited $?"
grep -q '^Usage: bwlab-gui' <<<"$gui_help" || fail "bwlab-gui --help: $gui_help"
version=$("$bin/bwlab" --version)
[ "$(env -u DISPLAY "$bin/bwlab-gui" --version)" = "bwlab-gui ${version#bwlab }" ] || fail "bwlab-gui --version differs from $version"

copyright=$stage/usr/share/doc/bwlab/copyright
grep -q '^License: MIT$' "$copyright" && grep -q 'Permission is hereby granted' "$copyright" \
  || fail "share/doc/bwlab/copyright lacks the MIT licence text"
diff <(sed -n '/^Permission/,$p' "$(dirname "$0")/../../LICENSE" | tr -s ' \n' ' ') \
     <(sed -n '/^ Permission/,$p' "$copyright" | sed -e 's/^ \.$//' -e 's/^ //' | tr -s ' \n' ' ') >/dev/null \
  || fail "share/doc/bwlab/copyright's licence text differs from LICENSE"
desktop-file-validate "$stage/usr/share/applications/bwlab-gui.desktop" || fail "desktop entry does not validate"
grep -qx 'Exec=bwlab-gui %F' "$stage/usr/share/applications/bwlab-gui.desktop" || fail "desktop entry does not start bwlab-gui"
completion=$stage/usr/share/bash-completion/completions/bwlab
bash -n "$completion" || fail "completion script is not valid bash"
reply=$(bash -c 'source "$1"; COMP_WORDS=(bwlab ru); COMP_CWORD=1; _bwlab; echo "${COMPREPLY[*]}"' _ "$completion")
[ "$reply" = run ] || fail "installed completion of 'bwlab ru' gave '$reply'"

if [ "${BWLAB_EXPECT_MAN:-1}" = 1 ]; then
  page=$(zcat "$stage/usr/share/man/man1/bwlab.1.gz")
  # Every command of `bwlab --help` has its section in the man page.
  for cmd in $("$bin/bwlab" --help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z0-9-]*\) .*/\1/p'); do
    grep -qF ".SS \"bwlab $cmd\"" <<<"$page" || fail "bwlab.1 has no section for bwlab $cmd"
  done
  grep -q '^\.TH BWLAB "1"' <<<"$page" || fail "bwlab.1 has no .TH header"
  zcat "$stage/usr/share/man/man1/bwlab-gui.1.gz" | grep -q '^\.TH BWLAB-GUI "1"' || fail "bwlab-gui.1 has no .TH header"
fi
echo "install_test: $(wc -l <<<"$got") files staged; bwlab list and bwlab-gui --help ran from $bin"
