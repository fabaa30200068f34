#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# hotplug.sh BUILDDIR [ROUNDS] - hot-add to movable, end to end: QMP
# device_add of a CXL Type-3 card until every memory block of its new region
# is online in ZONE_MOVABLE, in one guest with systemd as PID 1 (udevd,
# journald; cxltier's udev rule and units installed as vm-test.sh installs
# them; topology hotplug4: four free root ports). Sides, in an order that
# rotates from round to round (test/bench/hotplug-guest.sh says how):
#   chain   the real chain: udev (90-cxltier.rules) -> systemd
#           (cxltier-hotplug.service, started at boot by the boot memdev's
#           tag) -> cxltier online --policy
#   floor   the rule off; a minimal script of the sysfs writes (region made,
#           committed, bound; each block written online_movable), started
#           as the QMP command returns (polling for the memdev)
#   kernel  the rule off; the same script makes the region and the kernel
#           onlines it (auto_online_blocks=online_movable)
#   four    four cards at once through the chain
#   fourfloor  four cards at once, the floor's script for each (BENCH_SIDES)
# Each run is timed in the guest from the kernel's first sight of the card
# (pciehp's "Card present" in its log; the guest is stopped while QEMU adds
# the cards) to the poll that finds every block online movable, verified (a
# run that did not end so is dropped and counted), then torn down untimed.
# (Not from the QMP reply as the guest sees it: that comes through the share,
# and the host's latency shows in icount time as a jump to the guest's next
# timer, 3-170 ms of the kernel's probing done before the reply is seen.)
# Before the rounds, BENCH_PROFILE (default 3) chain runs with udevadm
# monitor and cxltier -vv (not counted; the first is a warm-up too) say
# where the chain's time goes, and the start of a oneshot unit running
# `cxltier --version` is timed bare, with cxltier-hotplug.service's sandbox, and
# with each line of that sandbox alone.
# Prints median, min and max per side, the ratios chain/floor, kernel/floor
# and four/chain, and the profile's medians.
# Environment: CXLTIER_VM_ICOUNT (default shift=0,sleep=off: guest time
# counts instructions), BENCH_SIZE (per card, default 512M), BENCH_POLL
# (seconds between polls, default 0.01), BENCH_PROFILE, BENCH_KERNEL (6.12),
# BENCH_TIMEOUT (seconds, default 10800), BENCH_WORK (keep the files there),
# BENCH_SIDES (default "chain floor kernel four"; fourfloor too).
# A guest that ran out of time still has what it measured summed up.
set -euo pipefail
BUILD=$(realpath "${1:-build}") ROUNDS=${2:-7}
(( ROUNDS >= 7 || ${BENCH_ANY_ROUNDS:-0} )) || { echo "hotplug.sh: at least 7 rounds" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
VM=$HERE/../vm
SRC=$(cd "$HERE/../.." && pwd)
export CXLTIER_VM_ICOUNT=${CXLTIER_VM_ICOUNT-shift=0,sleep=off}
SIZE=$(numfmt --from=iec "${BENCH_SIZE:-512M}") K=${BENCH_KERNEL:-6.12}
"$VM/fetch.sh" "$K" >/dev/null
work=${BENCH_WORK:-$(mktemp -d)}; [[ -n ${BENCH_WORK:-} ]] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
share=$work/share
rm -rf "$share"; mkdir -p "$share"

# cxltier, its rule and its units as vm-test.sh installs them
adds=(-a "$BUILD/cxltier:/usr/bin/cxltier"
      -a "$SRC/udev/90-cxltier.rules:/usr/lib/udev/rules.d/90-cxltier.rules")
for u in cxltier-hotplug.service cxltier-events.service cxltier-metrics.service cxltier-metrics.timer; do
    [[ -f $BUILD/$u ]] && adds+=(-a "$BUILD/$u:/usr/lib/systemd/system/$u")
done
exe=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$BUILD/cxltier-hotplug.service")
[[ -z $exe || $exe == /usr/bin/cxltier ]] || adds+=(-a "$BUILD/cxltier:$exe")
adds+=(-a /usr/bin/udevadm:/usr/bin/udevadm)
"$VM/mkinitramfs.sh" -k "$K" -o "$work/initrd.gz" "${adds[@]}" >/dev/null

{
    printf 'ROUNDS=%d SIZE=%d POLL=%s PROFILE=%d SIDES=%q\n' "$ROUNDS" "$SIZE" "${BENCH_POLL:-0.01}" "${BENCH_PROFILE:-3}" \
        "${BENCH_SIDES:-chain floor kernel four}"
    cat "$HERE/hotplug-guest.sh"
} > "$share/run.sh"
rc=0
"$VM/run.sh" -k "$K" -i "$work/initrd.gz" -S "$share" --topology hotplug4 --append cxltier.init=systemd \
    -c 512M --timeout "${BENCH_TIMEOUT:-10800}" >"$share/run.log" 2>&1 || rc=$?
if [[ $rc != 0 ]] || ! grep -q '^BENCH end' "$share/bench.log" 2>/dev/null; then
    echo "hotplug.sh: the guest did not finish (run.sh status $rc): what it measured so far" >&2
    tail -5 "$share/run.log" >&2
fi
[[ -f $share/bench.log ]] || { tail -20 "$share/console.log" >&2; exit 1; }
python3 "$HERE/hotplug-summary.py" "$share/bench.log" "$ROUNDS" "${BENCH_SIZE:-512M}"
