#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# capture-sysfs.sh - capture the parts of /sys and /proc that cxltier reads
# into a tarball, for `cxltier --sysroot DIR` fixture tests (as util-linux
# keeps lsmem dumps). Run it as root on the machine to capture (the VM tier
# does it in the guest).
#
# usage: capture-sysfs.sh OUT.tar.gz
#
# A machine's tree holds thousands of files, and a process started per file
# costs minutes in a VM under TCG: one find lists a tree with the type and
# mode of each entry, directories and links are made in batches,
# and a text attribute is read by the shell itself.
# Only a file the shell cannot hold (a NUL byte: CDAT) or that reads empty is
# left to cat. bash's read has no timeout on a regular file, which sysfs
# attributes are: an attribute whose read blocks (none that cxltier reads
# does) holds the capture, and the caller bounds the whole run (the VM tier's
# per-test limit).
set -euo pipefail
# bytes as they are (read in a UTF-8 locale alters invalid sequences), and
# modes that do not depend on who runs it
export LC_ALL=C
umask 022
OUT=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

declare -A BY_MODE=()   # mode -> captured files whose mode is not 644, a line each
DIRS=() FILES=() LINKS=()   # what the trees hold, listed before any is copied
declare -A LISTED=()        # (a device's tree can hold another listed device's)

copy_file() { # path [mode]: regular file content, as far as it can be read
    local p=$1 mode=${2:-} v= rc=0
    # (root passes -r on a write-only attribute; its read fails below)
    [[ -r $p ]] || return 0
    # the shell reads to EOF; status 0 means it stopped at a NUL byte (a
    # binary attribute)
    IFS= read -r -d '' v 2>/dev/null < "$p" || rc=$?
    if [[ $rc == 1 && -n $v ]]; then
        printf '%s' "$v" > "$T$p"
    else
        # binary (CDAT reports size 0: read until EOF), or empty, or failed
        # to read: cat tells these apart
        timeout 30 cat "$p" > "$T$p" 2>/dev/null || { rm -f "$T$p"; return 0; }
    fi
    # (a process that ended since it was listed: no mode, no file)
    [[ -n $mode ]] || mode=$(stat -c %a "$p" 2>/dev/null) || { rm -f "$T$p"; return 0; }
    [[ $mode == 644 ]] || BY_MODE[$mode]+="$T$p"$'\n'
}
list_tree() { # dir: list the files, links and directories below it (links not followed)
    local d=$1 type mode p
    [[ -e $d ]] || return 0
    DIRS+=("$d")
    while IFS=' ' read -r -d '' type mode p; do
        [[ -z ${LISTED[$p]:-} ]] || continue
        LISTED[$p]=1
        case $type in
            l) LINKS+=("$p") ;;
            d) DIRS+=("$p") ;;
            f)
                case ${p##*/} in
                    uevent|modalias|reclaim|compact|power|autosuspend*|*_ms) continue ;;
                esac
                FILES+=("$mode $p") ;;
        esac
    done < <(find "$d" -mindepth 1 \( -name power -o -name firmware_node -o -name 'cpu[0-9]*' -o -name hugepages -o -name driver_override \) -prune \
                 -o -printf '%y %m %p\0' 2>/dev/null)
}

for bus in cxl dax; do
    [[ -d /sys/bus/$bus ]] || continue
    list_tree /sys/bus/$bus
    for l in /sys/bus/$bus/devices/*; do
        [[ -L $l ]] || continue
        real=$(readlink -f "$l")
        list_tree "$real"
        # the parent chain (host device names come from it)
        DIRS+=("${real%/*}")
    done
done
list_tree /sys/devices/system/node
list_tree /sys/devices/system/memory
list_tree /sys/devices/virtual/memory_tiering
list_tree /sys/kernel/mm/numa
for f in /proc/zoneinfo /proc/sys/kernel/numa_balancing /proc/sys/kernel/numa_balancing_promote_rate_limit_MBps \
         /sys/module/memory_hotplug/parameters/memmap_on_memory \
         /sys/module/memory_hotplug/parameters/online_policy \
         /sys/module/damon_stat/parameters/enabled /sys/module/damon_stat/parameters/kdamond_pid; do
    if [[ -e $f ]]; then DIRS+=("${f%/*}"); FILES+=(" $f"); fi
done
# kernel DAMON threads (kdamond.N), e.g. DAMON_STAT's, by their comm
for c in /proc/[0-9]*/comm; do
    comm=
    IFS= read -r comm 2>/dev/null < "$c" || true
    if [[ $comm == kdamond* ]]; then DIRS+=("${c%/*}"); FILES+=(" $c"); fi
done
# the directories in one go, then the files, then the links as links (cp -P:
# not followed)
printf '%s\0' "${DIRS[@]/#/"$T"}" | xargs -0 mkdir -p
for f in "${FILES[@]}"; do copy_file "${f#* }" "${f%% *}"; done
if (( ${#LINKS[@]} )); then
    printf '%s\0' "${LINKS[@]}" | xargs -0 cp -P --parents -t "$T"
fi
# the modes, one chmod per mode (sysfs and /proc paths hold no newline)
for mode in "${!BY_MODE[@]}"; do
    printf '%s' "${BY_MODE[$mode]}" | xargs -d '\n' chmod "$mode"
done
# what kernel this was
mkdir -p "$T/proc/sys/kernel"
cat /proc/sys/kernel/osrelease > "$T/proc/sys/kernel/osrelease"
cat /proc/cmdline > "$T/proc/cmdline"
tar -C "$T" -czf "$OUT" .
echo "capture-sysfs: wrote $OUT ($(du -h "$OUT" | cut -f1))" >&2
