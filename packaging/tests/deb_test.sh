#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CPack builds the Debian package; dpkg-deb shows its files (exactly the installed set, no tests or
# benches) and its fields (name, version, Depends on run-time packages only, none -dev).
source "$(dirname "$0")/common.sh"
need dpkg-deb dpkg
need dpkg-shlibdeps dpkg-dev
need file file
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$out" >"$out/cpack.log" 2>&1 || { cat "$out/cpack.log"; fail "cpack -G DEB"; }
debs=("$out"/bwlab_*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "expected one bwlab_*.deb in $out: ${debs[*]}"
deb=${debs[0]}

got=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\./||' | LC_ALL=C sort)
want=$(expected_files | LC_ALL=C sort)
[ "$got" = "$want" ] || fail "package files differ from the expected ones:
$(diff <(echo "$want") <(echo "$got"))"

version=$("$build/bwlab" --version)
[ "$(dpkg-deb -f "$deb" Package)" = bwlab ] || fail "Package is not bwlab"
[ "$(dpkg-deb -f "$deb" Version)" = "${version#bwlab }" ] || fail "Version $(dpkg-deb -f "$deb" Version) is not ${version#bwlab }"
depends=$(dpkg-deb -f "$deb" Depends)
[ -n "$depends" ] || fail "no Depends: dpkg-shlibdeps did not run (see $out/cpack.log)"
! grep -q -- '-dev\b' <<<"$depends" || fail "Depends names a -dev package: $depends"
for pkg in libhwloc15 libqt6widgets6 libqt6svg6 libqcustomplot2.1-qt6 libfmt9; do
  grep -Eq "(^|, )$pkg( |,|$)" <<<"$depends" || fail "Depends lacks $pkg: $depends"
done
! grep -q 'libtbb' <<<"$depends" || fail "Depends names oneTBB, which bwlab no longer uses: $depends"
echo "deb_test: $(basename "$deb") $(stat -c %s "$deb") bytes; Depends: $depends"
