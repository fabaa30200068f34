#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# trixie-test.sh - the Debian 13 (trixie) tier: in a trixie root
# (tools/trixie-root.sh: debootstrap, cached outside the tree), on a copy of
# this tree's files, with trixie's own toolchain and libraries (gcc 14,
# libcxl/libdaxctl 81, json-c 0.18, meson 1.7, systemd 257):
#   build  meson setup -Dwerror=true and the build; the binary is copied to
#          OUT/cxltier (the VM tier runs it in its guests with trixie's
#          libraries: CXLTIER_VM_TRIXIE_BIN), with its units and the tests'
#          tools for the Debian 13 guests (CXLTIER_VM_TRIXIE_BUILD=OUT), the
#          build kept for `test`;
#   test   the unit and CLI tests of that build, then the Debian package
#          built from the same debian/ for trixie, lintian clean
#          (tools/build-deb.sh; its tests were these: nocheck); the build
#          is removed;
#   all    both (the default).
# Run in a mount namespace of its own, chrooted: nothing is mounted on or
# installed into the host. `test` copies meson's logs to OUT (default
# build/trixie) as meson-logs/testlog.json and .txt, where a build directory
# has them (the run's counts and the skip list), and the package.
#
#   tools/trixie-test.sh [build|test|all] [OUT]
# Exit 0 when every step passed; 77 when no trixie root can be made.
set -uo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
phase=all
[[ ${1:-} == build || ${1:-} == test || ${1:-} == all ]] && { phase=$1; shift; }
OUT=${1:-$SRC/build/trixie}
root=$("$SRC/tools/trixie-root.sh") || exit $?
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
work=$root/tmp/cxltier-trixie

# in_root SCRIPT: SCRIPT run by bash in the trixie root, in /tmp/cxltier-trixie/src
in_root() {
    unshare -m --propagation private bash -uo pipefail -c '
        r=$1 script=$2
        mount -t proc proc "$r/proc" && mount --rbind /sys "$r/sys" && mount --rbind /dev "$r/dev" || exit 1
        mount -t tmpfs -o mode=1777 tmpfs "$r/dev/shm" 2>/dev/null || true
        exec chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb \
            bash -uo pipefail -c "cd /tmp/cxltier-trixie/src || exit 1; $script"' _ "$root" "$1"
}

if [[ $phase != test ]]; then
    rm -rf "$work" "$OUT"/cxltier "$OUT"/meson-logs "$OUT"/cxltier_*.deb "$OUT"/cxltier-*.service "$OUT"/cxltier-*.timer "$OUT"/test
    mkdir -p "$work/src" "$work/out"
    # the tree's files as tools/build-deb.sh takes them (git: tracked and
    # untracked-but-not-ignored; no build directories)
    if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git -C "$SRC" ls-files -z --cached --others --exclude-standard |
            while IFS= read -r -d '' f; do [[ -e $SRC/$f || -L $SRC/$f ]] && printf '%s\0' "$f"; done |
            tar -C "$SRC" --null -T - -cf - | tar -C "$work/src" -xf -
    else
        tar -C "$SRC" --exclude='./build*' -cf - . | tar -C "$work/src" -xf -
    fi
    in_root 'echo "trixie: $(. /etc/os-release; echo $PRETTY_NAME), $(gcc --version | head -1), libcxl $(pkg-config --modversion libcxl), meson $(meson --version)"
             meson setup build -Dwerror=true > build-setup.log || { cat build-setup.log; exit 1; }
             ninja -C build >/dev/null || ninja -C build' ||
        { echo "trixie: the build failed"; exit 1; }
    cp "$work/src/build/cxltier" "$OUT/cxltier" && echo "trixie: built $OUT/cxltier"
    # what the VM tier's Debian 13 guests carry beside it (vm-test.sh:
    # CXLTIER_VM_TRIXIE_BUILD): the units as built there, the tests' tools
    mkdir -p "$OUT/test"
    for f in cxltier-hotplug.service cxltier-events.service cxltier-metrics.service cxltier-metrics.timer; do
        [[ ! -f $work/src/build/$f ]] || cp "$work/src/build/$f" "$OUT/"
    done
    for f in pin-pages mkcdat hog map-dax; do
        [[ ! -x $work/src/build/test/$f ]] || cp "$work/src/build/test/$f" "$OUT/test/"
    done
fi
[[ $phase != build ]] || exit 0
[[ -x $work/src/build/cxltier ]] || { echo "trixie: no build to test (tools/trixie-test.sh build first)"; exit 1; }
in_root 'rc=0
    echo "==== trixie: unit + CLI tests"
    # every unit and CLI test but the checks of the suite itself (the
    # layering checks planted defects, the skip list, test hygiene,
    # mutants): the same source, run once, in the Debian 12 tier
    tests=$(meson test -C build --list --suite unit --suite cli 2>/dev/null | sed -n "s/^cxltier:[a-z+]* \/ //p" |
            grep -vxE "layering-check|skips|test-hygiene|mutants" | sort -u)
    [ -n "$tests" ] || { echo "trixie: no tests listed"; exit 1; }
    meson test -C build --no-rebuild --print-errorlogs $tests || rc=1
    echo "==== trixie: the Debian package (tools/build-deb.sh: built, lintian clean)"
    DEB_BUILD_OPTIONS=nocheck tools/build-deb.sh -q /tmp/cxltier-trixie/out >/dev/null || rc=1
    exit $rc'
rc=$?
mkdir -p "$OUT/meson-logs"
cp "$work/src/build/meson-logs/testlog.json" "$work/src/build/meson-logs/testlog.txt" "$OUT/meson-logs/" 2>/dev/null
cp "$work"/out/cxltier_*.deb "$OUT/" 2>/dev/null && echo "trixie: built $(basename "$(ls "$OUT"/cxltier_*.deb)")"
rm -rf "$work"
exit $rc
