#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh - install what is needed, build, and run cxltier's main job: on a
# machine with CXL memory, against it; otherwise inside the VM lab (Linux 6.12
# with an emulated CXL Type-3 device under QEMU 10).
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/install-deps.sh
[[ -d build ]] || meson setup build >/dev/null
ninja -C build >/dev/null
if ls /sys/bus/cxl/devices/ 2>/dev/null | grep -q '^mem[0-9]'; then
    ./build/cxltier list
    ./build/cxltier cdat
    ./build/cxltier --list-cmds | grep -qx tiers && ./build/cxltier tiers
    exit 0
fi
echo "run: no CXL memory devices here; booting the VM lab (Linux 6.12 + QEMU 10, about 10 s)" >&2
./test/vm/fetch.sh
work=build/vm-tour
rm -rf "$work"; mkdir -p "$work/share"
./test/vm/mkinitramfs.sh -o "$work/initrd.gz" -a build/cxltier:/usr/bin/cxltier \
    -a build/test/hog:/usr/bin/hog
cp test/vm/guest/tour.sh "$work/share/run.sh"
rc=0
./test/vm/run.sh -i "$work/initrd.gz" -S "$work/share" || rc=$?
sed -n '/^CXLTIER-VM: running/,/^CXLTIER-VM: exit status/p' "$work/share/console.log" | sed '1d;$d'
exit $rc
