#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# capture-sysfs.sh - capture the parts of /sys and /proc that cxltier reads
# into a tarball, for `cxltier --sysroot DIR` fixture tests (as util-linux
# keeps lsmem dumps). Run it as root on the machine to capture (the VM tier
# does it in the guest).
#
# usage: capture-sysfs.sh OUT.tar.gz
set -euo pipefail
OUT=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

copy_file() { # path: regular file content, as far as it can be read
    local p=$1
    [[ -r $p ]] || return 0
    mkdir -p "$T$(dirname "$p")"
    # binary attributes (CDAT) report size 0: read until EOF. The timeout
    # only guards against an attribute that blocks; a loaded machine (a VM
    # under TCG) can take seconds to start cat, so it is generous
    timeout 30 cat "$p" > "$T$p" 2>/dev/null || rm -f "$T$p"
    chmod --reference="$p" "$T$p" 2>/dev/null || true
}
copy_tree() { # dir: files and links below it, links not followed
    local d=$1 p
    [[ -e $d ]] || return 0
    while IFS= read -r -d '' p; do
        if [[ -L $p ]]; then
            mkdir -p "$T$(dirname "$p")"
            ln -sfn "$(readlink "$p")" "$T$p"
        elif [[ -d $p ]]; then
            mkdir -p "$T$p"
        elif [[ -f $p ]]; then
            case $(basename "$p") in
                uevent|modalias|reclaim|compact|power|autosuspend*|*_ms) continue ;;
            esac
            copy_file "$p"
        fi
    done < <(find "$d" -mindepth 1 \( -name power -o -name firmware_node -o -name 'cpu[0-9]*' -o -name hugepages -o -name driver_override \) -prune -o -print0 2>/dev/null)
}

for bus in cxl dax; do
    [[ -d /sys/bus/$bus ]] || continue
    copy_tree /sys/bus/$bus
    for l in /sys/bus/$bus/devices/*; do
        [[ -L $l ]] || continue
        real=$(readlink -f "$l")
        copy_tree "$real"
        # the parent chain (host device names come from it)
        mkdir -p "$T$(dirname "$real")"
    done
done
copy_tree /sys/devices/system/node
copy_tree /sys/devices/system/memory
copy_tree /sys/devices/virtual/memory_tiering
copy_tree /sys/kernel/mm/numa
for f in /proc/zoneinfo /proc/sys/kernel/numa_balancing /proc/sys/kernel/numa_balancing_promote_rate_limit_MBps \
         /sys/module/memory_hotplug/parameters/memmap_on_memory \
         /sys/module/memory_hotplug/parameters/online_policy \
         /sys/module/damon_stat/parameters/enabled /sys/module/damon_stat/parameters/kdamond_pid; do
    if [[ -e $f ]]; then copy_file "$f"; fi
done
# kernel DAMON threads (kdamond.N), e.g. DAMON_STAT's, by their comm
for c in /proc/[0-9]*/comm; do
    if [[ $(cat "$c" 2>/dev/null) == kdamond* ]]; then copy_file "$c"; fi
done
# what kernel this was
mkdir -p "$T/proc/sys/kernel"
cat /proc/sys/kernel/osrelease > "$T/proc/sys/kernel/osrelease"
cat /proc/cmdline > "$T/proc/cmdline"
tar -C "$T" -czf "$OUT" .
echo "capture-sysfs: wrote $OUT ($(du -h "$OUT" | cut -f1))" >&2
