#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-test.sh - the VM test tier: boot Debian's 6.12 kernel under QEMU 10 with
# emulated CXL memory and run test/vm/*.bats inside against the real drivers.
#
# usage: vm-test.sh BUILDDIR [FILE.bats...]
# Each .bats file names the machine it needs in a header line:
#   # vm-topology: default|two-devices   [# vm-args: --cdat test/vm/data/x.cdat --ram-node 1G]
# Files needing the same machine share one boot. TAP from the guest is
# printed here; the exit status is 0 when every test passed, 1 otherwise,
# 77 when no VM can be started on this machine (said loudly).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
BUILD=$(realpath "${1:?usage: vm-test.sh BUILDDIR [FILE.bats...]}")
shift
FILES=("$@")
[[ ${#FILES[@]} -gt 0 ]] || FILES=("$HERE"/*.bats)

"$HERE/fetch.sh"
rc=$?
if [[ $rc == 77 ]]; then
    echo "vm-test: SKIPPED: the VM tier cannot run on this machine (kernel or QEMU not available)" >&2
    exit 77
elif [[ $rc != 0 ]]; then
    echo "vm-test: fetch failed ($rc)" >&2; exit 1
fi

WORK=${CXLTIER_VM_WORK:-$BUILD/vm}
rm -rf "$WORK"; mkdir -p "$WORK"
INITRD=$WORK/initrd.gz
ADDS=(-a "$BUILD/cxltier:/usr/bin/cxltier" -a "$HERE:/tests"
      -a "$SRC/test/capture-sysfs.sh:/usr/bin/capture-sysfs")
for helper in pin-pages mkcdat hog; do
    [[ -x $BUILD/test/$helper ]] && ADDS+=(-a "$BUILD/test/$helper:/usr/bin/$helper")
done
# the udev rule where udev reads it, and udevadm to test it (udevadm test)
ADDS+=(-a "$SRC/udev/90-cxltier.rules:/usr/lib/udev/rules.d/90-cxltier.rules")
[[ -x /usr/bin/udevadm ]] && ADDS+=(-a /usr/bin/udevadm:/usr/bin/udevadm)
"$HERE/mkinitramfs.sh" -o "$INITRD" "${ADDS[@]}" || { echo "vm-test: initramfs failed" >&2; exit 1; }

declare -A GROUP=()
for f in "${FILES[@]}"; do
    topo=$(sed -n 's/^# vm-topology: *//p' "$f" | head -1)
    args=$(sed -n "s/^# vm-args: *//p" "$f" | head -1)
    args=${args//@BUILD@/$BUILD}
    key="--topology ${topo:-default} $args"
    GROUP[$key]+="$(basename "$f") "
done

failed=0 total=0 bad=0 g=0
for key in "${!GROUP[@]}"; do
    g=$((g + 1))
    share=$WORK/share$g
    mkdir -p "$share"
    cat > "$share/run.sh" <<RUN
cd /
export CXLTIER_NO_MAN=1 TERM=dumb
rc=0
for t in ${GROUP[$key]}; do
    echo "# file \$t" >> /share/tap.txt
    bats --tap /tests/\$t >> /share/tap.txt 2>&1 || rc=1
done
dmesg > /share/dmesg.txt
exit \$rc
RUN
    echo "vm-test: boot $g: $key: ${GROUP[$key]}" >&2
    # shellcheck disable=SC2086
    (cd "$SRC" && "$HERE/run.sh" -i "$INITRD" -S "$share" $key --timeout "${CXLTIER_VM_TIMEOUT:-480}")
    rc=$?
    [[ -f $share/tap.txt ]] && cat "$share/tap.txt"
    n=$(grep -c '^ok ' "$share/tap.txt" 2>/dev/null); n=${n:-0}
    f=$(grep -c '^not ok ' "$share/tap.txt" 2>/dev/null); f=${f:-0}
    total=$((total + n + f)); failed=$((failed + f))
    if [[ $rc != 0 && $f == 0 ]]; then
        echo "vm-test: boot $g ended with status $rc (console: $share/console.log)" >&2
        bad=1
    fi
done
echo "vm: $((total - failed)) passed, $failed failed"
[[ $failed == 0 && $bad == 0 && $total -gt 0 ]]
