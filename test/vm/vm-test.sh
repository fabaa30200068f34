#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-test.sh - the VM test tier: boot Debian's kernels (6.12 LTS and the
# newest 7.x) under QEMU 10 with emulated CXL memory and run test/vm/*.bats
# inside against the real drivers, every file on every kernel.
#
# usage: vm-test.sh BUILDDIR [FILE.bats...]
#
# One boot per .bats file and kernel, except for the files that name the same
# boot group: those share one boot per kernel, one file after the other in
# the order of their names. (A boot costs 10-20 s before the first test
# under TCG, 25-50 s on a host whose CPUs are mostly taken; but a shared
# boot lets one file's leftovers and one hang take the others down: only
# files that leave the machine as they found it share one, a few at a time.)
# Header lines of a .bats file:
#   # vm-topology: NAME          the machine (run.sh --topology; default: default)
#   # vm-args: ARGS              more run.sh options (@BUILD@: the build directory)
#                                (--append cxltier.init=systemd: Debian's systemd as PID 1)
#   # vm-kernels: 6.12 -- WHY    only these kernels, and why (default: every kernel)
#   # vm-test-timeout: SECS -- WHY  per-test limit (default $CXLTIER_VM_TEST_TIMEOUT)
#   # vm-asan-tests: REGEX -- WHY   the ASan/UBSan boot of this file runs only
#                                the tests whose names match (bats --filter)
#   # vm-boot-group: NAME        share a boot with the other files of group
#                                NAME (same topology, args, kernels and build,
#                                or vm-test.sh refuses; an ASan boot with a
#                                filter boots alone)
#   # vm-disk: SIZE -- WHY      the guest gets a disk (/dev/vda: a raw image of
#                                SIZE, ext4 made by the host, label cxltier-test)
#                                kept through the boot's reboots; every file of
#                                a group names the same
#   # vm-reboot: before -- WHY   (a boot group's file) the guest is powered off
#                                after the files before it and booted again, the
#                                same share and disk, before this one: a file
#                                that is not a group's first, and never runs alone
#   # vm-userland: trixie -- WHY  the file also boots, on the 7.x kernel (the
#                                pair a Debian 13 user has), a guest whose
#                                userland is Debian 13's (systemd 257, udev,
#                                libcxl/ndctl 81, bash, bats) with cxltier
#                                built there, as "[7.x trixie]"; only with
#                                CXLTIER_VM_TRIXIE_BUILD
#   # vm-build: crash-points -- WHY  the file needs the test-only build
#                                (meson -Dcrash_points=true: CXLTIER_CRASH_AT):
#                                it boots only with CXLTIER_VM_CRASH_BUILD (or,
#                                without it, CXLTIER_VM_ASAN_BUILD), which must
#                                have it, on every kernel, never with the plain
#                                build or the package; without that build
#                                vm-test.sh refuses to run
#
# Environment:
#   CXLTIER_VM_KERNELS        kernels to run on (default: every kernel fetch.sh
#                             brings: "6.12 7.x")
#   CXLTIER_VM_TEST_TIMEOUT   per-test limit in seconds (default 300; TCG is slow)
#   CXLTIER_VM_TIMEOUT        backstop per boot in seconds (default: the file's
#                             tests' limits + 300 s for setup/teardown + 300 s to boot)
#   CXLTIER_VM_ASAN_BUILD     an ASan/UBSan build directory: also run
#   CXLTIER_VM_ASAN_FILES     these files (default: online cdat migrate events) with its
#                             cxltier, on the first kernel; a sanitizer report
#                             fails the test during which it was written. The
#                             files with "# vm-build: crash-points" run with it
#                             alone, on every kernel, when no CXLTIER_VM_CRASH_BUILD
#                             is given
#   CXLTIER_VM_TRIXIE_BIN     cxltier built in a Debian 13 root (tools/trixie-test.sh
#                             build): in every boot's share as cxltier-trixie, run
#                             with trixie's libraries (the ndctl81 export); the
#                             tests that use it skip without it
#   CXLTIER_VM_TRIXIE_BUILD   what tools/trixie-test.sh build leaves (cxltier
#                             built in a Debian 13 root, its units, the tests'
#                             tools): the files with "# vm-userland: trixie"
#                             boot it in a Debian 13 userland made from
#   CXLTIER_VM_TRIXIE_ROOT    that root (default /var/cache/cxltier-trixie/root:
#                             tools/trixie-root.sh's)
#   CXLTIER_VM_LABELS         only the boots of these labels, '|' between them
#                             ("7.x trixie|6.12 crash")
#   CXLTIER_VM_CRASH_BUILD    a build directory configured -Dcrash_points=true
#                             (with or without sanitizers): the files with
#                             "# vm-build: crash-points" boot with it, on every
#                             kernel, as "[KERNEL crash]" ("[KERNEL asan]" when
#                             it is an ASan build). tools/test.sh gives a plain
#                             one: a walk runs cxltier a hundred times, and the
#                             ASan tiers test the code it walks (region.bats)
#   CXLTIER_VM_EARLY_BOOT_LIMIT  seconds a guest kernel may take to reach the
#                             guest's init (default 240) before its boot counts
#                             as stalled and the file boots once more
#   CXLTIER_VM_WORK           where boots keep their files (default BUILDDIR/vm)
#   CXLTIER_VM_STALL_MARGIN   a test under way longer than its limit plus this
#                             (seconds, host clock; default 300) stops its boot:
#                             the guest no longer enforces its limits. A boot
#                             so stopped whose kernel lost its timer (RCU's
#                             "timer wakeup didn't happen") boots once more,
#                             as does one whose QEMU aborted on an assertion
#                             of its own (CXLTIER_VM_QEMU: another QEMU, as
#                             run.sh says); a test that failed before still
#                             counts, and the last line says how many files
#                             booted twice
#   CXLTIER_VM_LIST_BOOTS=1   print the boots ("LABEL: FILE..."), a line each,
#                             and boot none
#   CXLTIER_VM_JOBS           boots side by side (default 2; 1 streams the TAP
#                             as it comes)
#   CXLTIER_VM_TCG_THREAD     single or multi (run.sh); default single when
#                             the boots' vCPUs (2 each) outnumber the cores
#
# TAP is printed a boot at a time, each test named "[KERNEL] FILE: test" (as
# the guest writes it when one boot runs at a time).
# A test over its limit fails with what it waited for; a boot stopped by the
# backstop fails naming the file and test that were running. The last line:
#   vm: N passed, M failed, K skipped (6.12: a/b, 7.x: c/d: passed/passed+failed)
# Exit 0 when every test passed, 1 otherwise, 77 when no VM can be started on
# this machine (said loudly).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
. "$SRC/test/tools/cxltier-args.bash"   # how the kept outputs' command lines read
BUILD=$(realpath "${1:?usage: vm-test.sh BUILDDIR [FILE.bats...]}")
shift
FILES=()
for f in "$@"; do FILES+=("$(realpath "$f")"); done
[[ ${#FILES[@]} -gt 0 ]] || FILES=("$HERE"/*.bats)
# in the order of their names (a boot group's files run in this order)
mapfile -t FILES < <(for f in "${FILES[@]}"; do printf '%s\t%s\n' "$(basename "$f")" "$f"; done | sort -t $'\t' -k1,1 | cut -f2-)
T0=$(date +%s)

header() { sed -n "s/^# $1: *//p" "$2" | head -1; }
# a header that names no kernel fetch.sh knows, or no reason, would drop its
# file from every kernel without a word: refused
KNOWN_KERNELS=" 6.12 7.x "
for f in "${FILES[@]}"; do
    list=$(header vm-kernels "$f")
    [[ -n $list ]] || continue
    named=0
    for k in ${list%%--*}; do
        [[ $KNOWN_KERNELS == *" $k "* ]] ||
            { echo "vm-test: $f: '# vm-kernels: $list' names kernel '$k'; the kernels are:$KNOWN_KERNELS" >&2; exit 1; }
        named=$((named + 1))
    done
    (( named > 0 )) || { echo "vm-test: $f: '# vm-kernels: $list' names no kernel" >&2; exit 1; }
    # leaving a kernel out needs a reason: "# vm-kernels: 6.12 -- WHY"
    why=${list#*--}
    (( named == $(wc -w <<< "$KNOWN_KERNELS") )) || [[ $list == *--* && -n ${why// } ]] ||
        { echo "vm-test: $f: '# vm-kernels: $list' leaves a kernel out without a reason ('-- WHY')" >&2; exit 1; }
done
# an ASan filter that matches no test would leave the ASan boot empty
for f in "${FILES[@]}"; do
    x=$(header vm-asan-tests "$f"); x=${x%% -- *}
    [[ -n $x ]] || continue
    [[ $(bats --count --filter "$x" "$f" 2>/dev/null) -gt 0 ]] ||
        { echo "vm-test: $f: '# vm-asan-tests: $x' matches no test" >&2; exit 1; }
done
# a file that needs the test-only build says which and why; no other build
# is known ("# vm-build: crash-points -- WHY")
KNOWN_BUILDS=" crash-points "
for f in "${FILES[@]}"; do
    x=$(header vm-build "$f")
    [[ -n $x ]] || continue
    [[ $KNOWN_BUILDS == *" ${x%% *} "* ]] ||
        { echo "vm-test: $f: '# vm-build: $x' names build '${x%% *}'; the builds are:$KNOWN_BUILDS" >&2; exit 1; }
    why=${x#*--}
    [[ $x == *--* && -n ${why// } ]] ||
        { echo "vm-test: $f: '# vm-build: $x' gives no reason ('-- WHY')" >&2; exit 1; }
done
# the files of a boot group share its machine: a file whose topology, args,
# kernels or build differ from the group's first would be run on a machine
# it did not ask for
declare -A GROUP_FIRST=()
for f in "${FILES[@]}"; do
    g=$(header vm-boot-group "$f")
    [[ -n $g ]] || continue
    [[ $g =~ ^[a-z0-9][a-z0-9-]*$ ]] ||
        { echo "vm-test: $f: '# vm-boot-group: $g': a group is named with a-z, 0-9 and -" >&2; exit 1; }
    first=${GROUP_FIRST[$g]:-}
    [[ -n $first ]] || { GROUP_FIRST[$g]=$f; continue; }
    for h in vm-topology vm-args vm-kernels vm-build vm-disk; do
        [[ $(header $h "$f") == "$(header $h "$first")" ]] ||
            { echo "vm-test: $f and $first share boot group '$g' but not their '# $h:' line" >&2; exit 1; }
    done
done
# a file booted again after others ("# vm-reboot: before") reads what they
# left on the disk: it needs a group, a file of it before its own name in
# this run, and a reason
for f in "${FILES[@]}"; do
    x=$(header vm-reboot "$f")
    [[ -n $x ]] || continue
    why=${x#*--}
    [[ ${x%% *} == before && $x == *--* && -n ${why// } ]] ||
        { echo "vm-test: $f: '# vm-reboot: $x': write '# vm-reboot: before -- WHY'" >&2; exit 1; }
    g=$(header vm-boot-group "$f")
    [[ -n $g ]] || { echo "vm-test: $f reboots before it runs (# vm-reboot) but is in no boot group" >&2; exit 1; }
    earlier=
    for e in "${FILES[@]}"; do
        [[ $(header vm-boot-group "$e") == "$g" && $(basename "$e") < $(basename "$f") ]] && earlier=$e
    done
    [[ -n $earlier ]] ||
        { echo "vm-test: $f reboots after the files of group '$g' before it, and none is in this run" >&2; exit 1; }
done
# CXLTIER_VM_CHECK_HEADERS=1: only this check (test/cli/skips.bats)
[[ ${CXLTIER_VM_CHECK_HEADERS:-0} == 1 ]] && exit 0

# does FILE need the test-only build? ("# vm-build: crash-points -- why")
needs_crash_points() { [[ $(header vm-build "$1") == crash-points* ]]; }
# such a file never runs a binary without crash points: it is refused loudly,
# before anything boots, when that build is not given or lacks them
CRASH_BUILD=${CXLTIER_VM_CRASH_BUILD:-${CXLTIER_VM_ASAN_BUILD:-}}
for f in "${FILES[@]}"; do
    needs_crash_points "$f" || continue
    [[ -n $CRASH_BUILD ]] ||
        { echo "vm-test: $f needs the test-only build (# vm-build: crash-points): give it as CXLTIER_VM_CRASH_BUILD=DIR (meson setup DIR -Dcrash_points=true)" >&2; exit 1; }
    # (the env name is in the binary only when crash points are built in;
    # read whole: under pipefail, grep -q ending first gives a SIGPIPE)
    [[ $(grep -ac CXLTIER_CRASH_AT "$CRASH_BUILD/cxltier" 2>/dev/null) -gt 0 ]] ||
        { echo "vm-test: $f needs crash points, and $CRASH_BUILD/cxltier has none: configure it with -Dcrash_points=true" >&2; exit 1; }
done

CACHE=${CXLTIER_VM_CACHE:-/var/cache/cxltier-vm}
# CXLTIER_VM_LIST_BOOTS=1: print the boots ("LABEL: FILE..."), boot none
LIST_BOOTS=${CXLTIER_VM_LIST_BOOTS:-0}
rc=0
# shellcheck disable=SC2086
[[ $LIST_BOOTS == 1 ]] || "$HERE/fetch.sh" ${CXLTIER_VM_KERNELS:-} || rc=$?
if [[ $rc == 77 ]]; then
    echo "vm-test: SKIPPED: the VM tier cannot run on this machine (kernel or QEMU not available)" >&2
    exit 77
elif [[ $rc != 0 ]]; then
    echo "vm-test: fetch failed ($rc)" >&2; exit 1
fi

read -ra KERNELS <<< "${CXLTIER_VM_KERNELS:-$(tr '\n' ' ' < "$CACHE/kernels" 2>/dev/null || echo 6.12)}"
TEST_TIMEOUT=${CXLTIER_VM_TEST_TIMEOUT:-300}
WORK=${CXLTIER_VM_WORK:-$BUILD/vm}
[[ $LIST_BOOTS == 1 ]] || { rm -rf "$WORK"; mkdir -p "$WORK"; }

# the bats filter of LABEL's boot of FILE: its "# vm-asan-tests:" on an ASan
# boot, none otherwise; and the number of tests that boot runs
filter_of() {
    local x
    [[ $1 == *asan* ]] || return 0
    x=$(header vm-asan-tests "$2"); x=${x%% -- *}
    printf '%s' "${x%"${x##*[! ]}"}"
}
count_tests() {
    local filter
    filter=$(filter_of "$1" "$2")
    if [[ -n $filter ]]; then bats --count --filter "$filter" "$2" 2>/dev/null || echo 0
    else bats --count "$2" 2>/dev/null || echo 0; fi
}

# does FILE run on KERNEL? ("# vm-kernels: 6.12 7.x -- why")
runs_on() {
    local list
    list=$(header vm-kernels "$2"); list=${list%%--*}
    [[ -z ${list// } || " $list " == *" $1 "* ]]
}

# the boots: "LABEL|KERNEL|BUILD|FILE"
JOBS=()
for k in "${KERNELS[@]}"; do
    for f in "${FILES[@]}"; do
        needs_crash_points "$f" && continue   # (the crash build's, below)
        runs_on "$k" "$f" && JOBS+=("$k|$k|$BUILD|$f")
    done
done
if [[ -n ${CXLTIER_VM_ASAN_BUILD:-} ]]; then
    ABUILD=$(realpath "$CXLTIER_VM_ASAN_BUILD")
    # (read whole: under pipefail, grep -q ending first gives ldd a SIGPIPE)
    [[ $(ldd "$ABUILD/cxltier") == *libasan* ]] ||
        { echo "vm-test: $ABUILD/cxltier is not an ASan build" >&2; exit 1; }
    for a in ${CXLTIER_VM_ASAN_FILES:-online cdat migrate events}; do
        for f in "${FILES[@]}"; do
            [[ $(basename "$f" .bats) == "$a" ]] || continue
            needs_crash_points "$f" && continue   # (on every kernel, below)
            for k in "${KERNELS[@]}"; do
                runs_on "$k" "$f" && { JOBS+=("$k asan|$k|$ABUILD|$f"); break; }
            done
        done
    done
fi
# the files that need the test-only build: with it, on every kernel
if [[ -n $CRASH_BUILD ]]; then
    CBUILD=$(realpath "$CRASH_BUILD") ckind=crash
    [[ $(ldd "$CBUILD/cxltier") == *libasan* ]] && ckind=asan
    for f in "${FILES[@]}"; do
        needs_crash_points "$f" || continue
        for k in "${KERNELS[@]}"; do
            runs_on "$k" "$f" && JOBS+=("$k $ckind|$k|$CBUILD|$f")
        done
    done
fi
# the files that ask for it, in a Debian 13 userland with cxltier built
# there, on 7.x (the build given as the boot's "build": TRIXIE)
TBUILD= TROOT=
if [[ -n ${CXLTIER_VM_TRIXIE_BUILD:-} ]]; then
    TBUILD=$(realpath "$CXLTIER_VM_TRIXIE_BUILD")
    TROOT=${CXLTIER_VM_TRIXIE_ROOT:-/var/cache/cxltier-trixie/root}
    [[ -x $TBUILD/cxltier && -x $TROOT/usr/bin/bash ]] ||
        { echo "vm-test: CXLTIER_VM_TRIXIE_BUILD=$TBUILD needs its cxltier and a Debian 13 root ($TROOT: tools/trixie-root.sh)" >&2; exit 1; }
    for f in "${FILES[@]}"; do
        [[ $(header vm-userland "$f") == trixie* ]] && ! needs_crash_points "$f" || continue
        for k in "${KERNELS[@]}"; do
            [[ $k == 7.x ]] && runs_on "$k" "$f" && JOBS+=("$k trixie|$k|$TBUILD|$f")
        done
    done
fi
# CXLTIER_VM_LABELS="7.x trixie|6.12 crash": only the boots of these labels
if [[ -n ${CXLTIER_VM_LABELS:-} ]]; then
    kept=()
    for j in "${JOBS[@]}"; do [[ "|$CXLTIER_VM_LABELS|" == *"|${j%%|*}|"* ]] && kept+=("$j"); done
    JOBS=("${kept[@]}")
fi
[[ ${#JOBS[@]} -gt 0 ]] || { echo "vm-test: no test file runs on kernels ${KERNELS[*]}" >&2; exit 1; }
# the files of a boot group (# vm-boot-group:) with the same label (kernel
# and build) become one boot, "LABEL|KERNEL|BUILD|FILE|FILE...", in the
# order of their names; a boot with a bats filter (an ASan one) stays alone
declare -A GROUP_JOB=()
MERGED=()
for j in "${JOBS[@]}"; do
    IFS='|' read -r label k b f <<< "$j"
    g=$(header vm-boot-group "$f")
    if [[ -z $g || -n $(filter_of "$label" "$f") ]]; then MERGED+=("$j"); continue; fi
    if [[ -n ${GROUP_JOB[$label|$g]:-} ]]; then
        MERGED[${GROUP_JOB[$label|$g]}]+="|$f"
    else
        GROUP_JOB[$label|$g]=${#MERGED[@]}; MERGED+=("$j")
    fi
done
JOBS=("${MERGED[@]}")
if [[ $LIST_BOOTS == 1 ]]; then
    for j in "${JOBS[@]}"; do
        IFS='|' read -r label _ _ rest <<< "$j"
        IFS='|' read -ra files <<< "$rest"
        names=(); for f in "${files[@]}"; do names+=("$(basename "$f")"); done
        echo "$label: ${names[*]}"
    done
    exit 0
fi

# CXLTIER_VM_DEB=cxltier_*.deb: the guests (not the ASan ones) get cxltier as
# that package installs it -- binary, udev rule, units, man pages -- instead of
# BUILD/cxltier and the source tree's rule (tools/deb-extract.sh lays it out)
DEBROOT=
if [[ -n ${CXLTIER_VM_DEB:-} ]]; then
    DEBROOT=$WORK/deb-root
    "$SRC/tools/deb-extract.sh" "$CXLTIER_VM_DEB" "$DEBROOT" >/dev/null &&
        [[ -x $DEBROOT/usr/bin/cxltier ]] ||
        { echo "vm-test: cannot lay out $CXLTIER_VM_DEB" >&2; exit 1; }
    echo "# vm-test: cxltier from the package $(basename "$CXLTIER_VM_DEB")"
fi

# one initramfs per build and kernel
declare -A INITRD=()
for j in "${JOBS[@]}"; do
    IFS='|' read -r label k b f <<< "$j"
    [[ -z ${INITRD[$b|$k]:-} ]] || continue
    out=$WORK/initrd-$k-$(basename "$b").cpio
    # the userland: this machine's (Debian 12), or for the Debian 13 build
    # the trixie root's (mkinitramfs.sh -r), with the tests' tools built there
    userland=() tools=$BUILD/test
    [[ $b != "$TBUILD" ]] || userland=(-r "$TROOT") tools=$b/test
    if [[ -n $DEBROOT && $b == "$BUILD" ]]; then
        adds=(-a "$DEBROOT:/")
    else
        adds=(-a "$b/cxltier:/usr/bin/cxltier"
              -a "$SRC/udev/90-cxltier.rules:/usr/lib/udev/rules.d/90-cxltier.rules"
              -a "$SRC/systemd/cxltier-events-retire.conf:/usr/share/doc/cxltier/examples/cxltier-events-retire.conf")
        # the unit the rule starts (its ExecStart is what the hotplug tests
        # run), and the others, as the package installs them
        if [[ -f $b/cxltier-hotplug.service ]]; then
            for u in cxltier-hotplug.service cxltier-events.service cxltier-metrics.service cxltier-metrics.timer; do
                [[ -f $b/$u ]] && adds+=(-a "$b/$u:/usr/lib/systemd/system/$u")
            done
            # and the binary where that unit looks for it (the build's bindir)
            exe=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$b/cxltier-hotplug.service")
            [[ -z $exe || $exe == /usr/bin/cxltier ]] || adds+=(-a "$b/cxltier:$exe")
        fi
    fi
    adds+=(-a "$HERE:/tests" -a "$SRC/test/capture-sysfs.sh:/usr/bin/capture-sysfs")
    for f in "${FILES[@]}"; do   # files from elsewhere (e.g. the harness's own checks)
        [[ $(dirname "$f") == "$HERE" ]] || adds+=(-a "$f:/tests/$(basename "$f")")
    done
    # the tests' own tools from the plain build (the Debian 13 one's in its
    # guests), in the ASan boots too: they are not under test, and an ASan
    # hog "leaks" the memory it holds by design
    for helper in pin-pages mkcdat hog map-dax; do
        [[ -x $tools/$helper ]] && adds+=(-a "$tools/$helper:/usr/bin/$helper")
    done
    # udevadm to test the rule (udevadm test; a Debian 13 userland has its own)
    [[ -n ${userland[*]} || ! -x /usr/bin/udevadm ]] || adds+=(-a /usr/bin/udevadm:/usr/bin/udevadm)
    "$HERE/mkinitramfs.sh" -k "$k" "${userland[@]}" -o "$out" "${adds[@]}" ||
        { echo "vm-test: initramfs for kernel $k and $b${userland[*]:+ (userland ${userland[1]})} failed" >&2; exit 1; }
    INITRD[$b|$k]=$out
done

# run_guest kernel build share topology args backstop stream test-limit margin:
# one guest runs FILE's tests (run.sh; its status is returned) while the host
# watches it: a guest that no longer enforces its own limits (seen: idle, its
# test waiting on something that never came, its own watchdog not ending it)
# is stopped when a test, or setup_file, has been under way longer than its
# limit plus MARGIN by the host's clock (state/current is rewritten at each
# start), or no test started MARGIN s after QEMU started (a boot takes
# 10-45 s; LOST_TIMER_BOOT_LIMIT when its kernel reported a lost timer); SHARE/stalled
# says for how long. (The 5 s is how often it looks.)
# what a guest kernel that lost its timer prints (RCU), and how long a boot
# whose console shows it may go on before its first test
LOST_TIMER="timer wakeup didn't happen"
LOST_TIMER_BOOT_LIMIT=120
# what the guest's init prints first (guest/init): a console without it is a
# kernel still in its own boot, which takes 1-20 s (50 s seen on a host whose
# CPUs were mostly stolen by its hypervisor);
# one that has not got there in EARLY_BOOT_LIMIT s stalled (seen once under
# load: 6.12's console stopped at 0.99 s, no RCU message) and boots again
GUEST_INIT_MARK='^CXLTIER-VM: init started'
EARLY_BOOT_LIMIT=${CXLTIER_VM_EARLY_BOOT_LIMIT:-240}
# qemu_aborted CONSOLE: true (and QEMU's own message printed) when QEMU died
# of SIGABRT with an assertion of its own on its stderr (run.sh merges it into
# the console and ends it with "CXLTIER-VM-HOST: qemu exit N")
qemu_aborted() {
    grep -qx 'CXLTIER-VM-HOST: qemu exit 134' "$1" 2>/dev/null || return 1
    grep -m1 -E '^qemu-system-[a-z0-9_]+: .*Assertion .* failed' "$1" | cut -c1-200 | grep .
}
run_guest() {
    local k=$1 b=$2 share=$3 topo=$4 args=$5 backstop=$6 stream=$7 tt=$8 margin=$9
    local t0 rpid wpid tpid=
    t0=$(date +%s)
    # shellcheck disable=SC2086
    (cd "$SRC" && exec "$HERE/run.sh" -k "$k" -i "${INITRD[$b|$k]}" -S "$share" \
        --topology "${topo:-default}" $args --timeout "$backstop") > "$share/run.log" 2>&1 &
    rpid=$!
    ( while kill -0 $rpid 2>/dev/null; do
          if since=$(stat -c %Y "$share/state/current" 2>/dev/null); then allowed=$((tt + margin))
          else
              since=$t0 allowed=$margin
              grep -qs "$LOST_TIMER" "$share/console.log" && (( allowed > LOST_TIMER_BOOT_LIMIT )) &&
                  allowed=$LOST_TIMER_BOOT_LIMIT
              grep -qs "$GUEST_INIT_MARK" "$share/console.log" || (( allowed <= EARLY_BOOT_LIMIT )) ||
                  allowed=$EARLY_BOOT_LIMIT
          fi
          if (( $(date +%s) - since > allowed )); then
              echo $(( $(date +%s) - since )) > "$share/stalled"
              kill -TERM $rpid
              exit 0
          fi
          sleep 5
      done ) &
    wpid=$!
    if [[ $stream == 1 ]]; then
        # the guest appends TAP to the share as it goes: print it as it comes
        # (from where it is: a boot's later part appends to it)
        tail -c "+$(( $(stat -c %s "$share/tap.txt") + 1 ))" -s 0.2 -f --pid=$rpid "$share/tap.txt" &
        tpid=$!
    fi
    wait $rpid   # (a signal interrupts wait, not a foreground tail)
    local rc=$?
    kill $wpid 2>/dev/null; wait $wpid 2>/dev/null
    [[ -z $tpid ]] || wait $tpid
    return $rc
}

# a boot's name in messages: its file, or its group with its files
boot_name() { # file...
    if (( $# == 1 )); then basename "$1"; return; fi
    local f names=()
    for f; do names+=("$(basename "$f")"); done
    echo "boot group $(header vm-boot-group "$1") (${names[*]})"
}
# the TAP lines of one file's tests in a boot's TAP: "ok N [LABEL] NAME: ...",
# "not ok N ...", "not ok - [LABEL] NAME: ..." (bats-format-vm's names)
file_tap() { # tap label name
    awk -v p="[$2] $3: " '{ s = $0; if (sub(/^(not )?ok ([0-9]+|-) /, "", s) && substr(s, 1, length(p)) == p) print }' "$1"
}

# one boot: runs the tests of its FILEs (one, or a boot group's, in order)
# in a guest, checks the outputs they kept, and leaves in SHARE: report (the
# lines to print), counts ("ok nok bad notrun skipped booted-twice") and
# time (the lines of the table at the end, one per file). With STREAM=1 the
# TAP is printed as the guest writes it (one boot at a time).
boot() { # n label kernel build share backstop stream test-limit file...
    local n=$1 label=$2 k=$3 b=$4 share=$5 backstop=$6 stream=$7 tt=$8
    shift 8
    local files=("$@")
    local bname topo args t0 secs rc boot again= why f
    bname=$(boot_name "${files[@]}")
    topo=$(header vm-topology "${files[0]}")
    args=$(header vm-args "${files[0]}"); args=${args//@BUILD@/$b}
    # stopped (vm-test.sh interrupted or ended): the guest stops too (run.sh
    # stops its QEMU); jobs -p, not a saved $!, so that a signal between
    # starting run.sh and saving its pid misses nothing
    trap 'kill $(jobs -p) 2>/dev/null; exit 143' TERM
    trap 'kill $(jobs -p) 2>/dev/null' EXIT
    local margin=${CXLTIER_VM_STALL_MARGIN:-300} try lost note
    # its disk (# vm-disk:), made anew for each first boot
    local disk part parts=() pi tapsize=0
    disk=$(header vm-disk "${files[0]}"); disk=${disk%%--*}; disk=${disk// /}
    [[ -z $disk ]] || args+=" --disk $share/disk.img"
    make_disk() { [[ -z $disk ]] || { rm -f "$share/disk.img"; truncate -s "$disk" "$share/disk.img" &&
                                      mkfs.ext4 -q -F -L cxltier-test "$share/disk.img"; }; }
    # its parts: a file with "# vm-reboot: before" starts the next (the guest
    # powered off and booted again)
    part=
    for f in "${files[@]}"; do
        if [[ -n $part && $(header vm-reboot "$f") == before* ]]; then parts+=("$part"); part=; fi
        part+="${part:+ }$(basename "$f")"
    done
    parts+=("$part")
    t0=$(date +%s)
    make_disk || echo "# [$label] $bname: its disk image could not be made"
    for pi in "${!parts[@]}"; do
    sed -i "s|^exec bash /usr/share/cxltier-vm/run-bats.sh .*|exec bash /usr/share/cxltier-vm/run-bats.sh ${parts[$pi]}|" "$share/run.sh"
    if (( pi > 0 )); then
        # the next part: the same share and disk, a new guest
        echo "# [$label] $bname: the guest powered off; booting it again for ${parts[$pi]} (its disk kept)" >> "$share/tap.txt"
        mv "$share/console.log" "$share/console-part$pi.log"
        rm -f "$share/state/current" "$share/state/waiting" "$share/stalled"
        [[ -z $disk ]] || cp --sparse=always "$share/disk.img" "$share/disk-part$pi.img"
        tapsize=$(stat -c %s "$share/tap.txt")
    fi
    for try in 1 2; do
        run_guest "$k" "$b" "$share" "$topo" "$args" "$backstop" "$stream" "$tt" "$margin"
        rc=$?
        # Three faults of the emulation, not of cxltier, boot the file once more
        # (in a fresh share; both boots are reported, the second not retried):
        # a guest kernel that lost its timer interrupts (RCU: "timer wakeup
        # didn't happen", an idle vCPU never woken again) under a busy host,
        # QEMU itself aborting on one of its own assertions (seen with
        # multi-threaded TCG while the guest changes its memory map: at boot,
        # after device_del: "iotlb_to_section: Assertion ... failed"), and a
        # guest kernel that never got to the guest's init (no cxltier code
        # has run by then).
        note=
        lost=$(grep -m1 -o "$LOST_TIMER for [0-9]* jiffies" "$share/console.log" 2>/dev/null)
        if [[ -f $share/stalled && -n $lost ]]; then
            note="the guest kernel lost its timer (RCU: $lost) and made no progress for $(cat "$share/stalled") s"
            why="its kernel lost its timer"
        elif qemu_aborted "$share/console.log" >/dev/null; then
            note="QEMU aborted ($(qemu_aborted "$share/console.log"))"
            why="QEMU aborted"
        elif [[ -f $share/stalled ]] && ! grep -qs "$GUEST_INIT_MARK" "$share/console.log"; then
            note="the guest kernel stalled in its own boot: no word from the guest's init in $(cat "$share/stalled") s (the console's last line: $(tail -n 1 "$share/console.log" 2>/dev/null | tr -cd '[:print:]' | cut -c1-120))"
            why="its kernel stalled in its own boot"
        fi
        [[ $try == 1 && -n $note ]] || break
        note+=" during: $(cat "$share/state/current" 2>/dev/null || echo "its boot")"
        again=" (booted twice: in the first boot $why)"
        if (( pi > 0 )); then
            # a later part again: its TAP and disk as they were before it
            echo "# [$label] $bname: $note; booting ${parts[$pi]} again (the first try's console: console-part$pi-first.log)"
            mv "$share/console.log" "$share/console-part$pi-first.log"
            truncate -s "$tapsize" "$share/tap.txt"
            rm -f "$share/state/current" "$share/state/waiting" "$share/stalled"
            [[ -z $disk ]] || cp --sparse=always "$share/disk-part$pi.img" "$share/disk.img"
            continue
        fi
        echo "# [$label] $bname: $note; booting it again (the first boot's files: $share.first-boot)"
        mv "$share" "$share.first-boot"
        mkdir -p "$share/state"; cp "$share.first-boot/run.sh" "$share/"; : > "$share/tap.txt"
        [[ ! -f $share.first-boot/cxltier-trixie ]] || cp "$share.first-boot/cxltier-trixie" "$share/"
        make_disk || echo "# [$label] $bname: its disk image could not be made"
    done
    done
    # a test that failed before the first boot ended failed: the second boot
    # does not wash it out (it is counted, named as such)
    if [[ -n $again ]]; then
        grep '^not ok ' "$share.first-boot/tap.txt" |
            sed "s/^not ok \([0-9]*\) /not ok - /; s/\$/ # in the first boot, before $why/" > "$share.first-failed"
    fi
    [[ $stream == 1 ]] || cat "$share/tap.txt"
    if [[ -s ${share}.first-failed ]]; then
        tee -a "$share/tap.txt" < "$share.first-failed"
    fi
    secs=$(( $(date +%s) - t0 ))
    boot=$(cat "$share/boot-seconds" 2>/dev/null || echo '?')
    # the output contract: every -j output the tests read (kept by
    # helper.bash with its command line, named FILE-TEST-XXXXXX) is valid
    # against its schema in docs/schema, and metrics' Prometheus text passes
    # promtool; a broken one is a "not ok - [LABEL] FILE: test N: ..." line
    # (the JSON ones in one validate-json run: a python start per output
    # was seconds of every boot on a loaded host)
    local nj=0 a o msg t argv bad_json=() bad=0
    : > "$share/json-kept"
    for a in "$share"/json/*.argv; do
        [[ -f $a ]] || continue
        o=${a%.argv}
        [[ -s $o ]] || continue     # a run that printed nothing (its test checks why)
        mapfile -d '' -t argv < "$a"
        nj=$((nj + 1))
        cxltier_args "${argv[@]}"
        if [[ $CXLTIER_ARGS_CMD == metrics && -z $CXLTIER_ARGS_JSON ]]; then
            msg=$(promtool check metrics < "$o" 2>&1) ||
                bad_json+=("$o"$'\t'"cxltier ${argv[*]}: the output breaks promtool check metrics: ${msg//$'\n'/; }")
        else
            echo "$o $a" >> "$share/json-kept"
        fi
    done
    if [[ -s $share/json-kept ]]; then
        local vout vrc n0=${#bad_json[@]}
        vout=$("$SRC/tools/validate-json" --kept "$share/json-kept" 2>&1); vrc=$?
        while IFS=$'\t' read -r o msg; do
            [[ -n $msg ]] && bad_json+=("$o"$'\t'"the output breaks its schema in docs/schema: $msg")
        done <<< "$vout"
        # a validate-json that failed without naming an output fails the boot too
        (( vrc == 0 || ${#bad_json[@]} > n0 )) ||
            bad_json+=("validate-json"$'\t'"validate-json --kept failed (status $vrc): ${vout//$'\n'/; }")
    fi
    for a in "${bad_json[@]}"; do
        o=${a%%$'\t'*} msg=${a#*$'\t'}
        t=${o##*/}
        if [[ $t =~ ^(.*)-([0-9]+)-[A-Za-z0-9]+$ ]]; then
            echo "not ok - [$label] ${BASH_REMATCH[1]}: test ${BASH_REMATCH[2]}: $msg"
        else
            echo "not ok - [$label] $(basename "${files[0]}" .bats): $msg"
        fi | tee -a "$share/tap.txt"
        bad=1
    done
    (( nj == 0 )) || echo "# [$label] $bname: $nj outputs checked (-j against docs/schema, metrics with promtool)"
    # each file's tests and verdict, in the order they ran; a file after the
    # one the boot ended in did not run
    local ok=0 nok=0 sk=0 notrun=0 fok fnok fsk fran fstatus planned line log name
    local ended= fsecs used=0 rows=()
    for f in "${files[@]}"; do
        name=$(basename "$f" .bats)
        planned=$(count_tests "$label" "$f")
        file_tap "$share/tap.txt" "$label" "$name" > "$share/tap-$name.txt"
        fok=$(grep '^ok ' "$share/tap-$name.txt" | grep -vc ' # skip')
        fsk=$(grep -c '^ok .* # skip' "$share/tap-$name.txt")
        fnok=$(grep -c '^not ok ' "$share/tap-$name.txt")
        fran=$(grep -cE '^(not )?ok [0-9]+ ' "$share/tap-$name.txt")
        line= log=0 fsecs= fstatus=
        if read -r fsecs fstatus < <(sed -n "s/^# kernel .*, file $name\.bats: \([0-9]*\) s, bats status \([0-9]*\)\$/\1 \2/p" "$share/tap.txt" | tail -1); then :; fi
        if [[ -n $ended ]]; then
            line="not ok - [$label] $name: did not run: the boot ended in $ended"
        elif [[ -z $fsecs ]]; then
            log=1 ended=$name.bats
            # the boot ended before the file did: say where
            local what waiting
            what=$(cat "$share/state/current" 2>/dev/null || echo "before the tests started")
            waiting=$(cut -f3 "$share/state/waiting" 2>/dev/null)
            line="not ok - [$label] $name: the boot ended (run.sh status $rc after $secs s) during: $what"
            [[ -n $waiting ]] && line+="; wait_for was waiting for: $waiting"
            [[ -f $share/stalled ]] &&
                line+="; stopped by the host: no progress for $(cat "$share/stalled") s (limit $tt s + ${margin} s for a test, ${margin} s for the boot, $LOST_TIMER_BOOT_LIMIT s once its kernel lost a timer): the guest stalled"
        elif [[ $fstatus != 0 && $fnok == 0 ]]; then
            line="not ok - [$label] $name: bats failed (status $fstatus) without a failing test"
        fi
        if (( fran < planned )); then
            notrun=$((notrun + planned - fran))
            # (a file the guest stopped has its "not ok -" line already)
            [[ -n $line || $fnok != 0 ]] || line="not ok - [$label] $name: only $fran of $planned tests reported"
            [[ -z $line ]] || line+="; $((planned - fran)) of $planned tests did not run"
        fi
        if [[ -n $line ]]; then
            echo "$line" | tee -a "$share/tap.txt"
            [[ $log == 0 ]] || sed 's/^/#   /' "$share/run.log"
            fnok=$((fnok + 1)); bad=1
        fi
        (( ${#files[@]} == 1 )) ||
            echo "# [$label] $name.bats: $fok passed, $fnok failed, $fsk skipped; ${fsecs:-?} s of the boot"
        ok=$((ok + fok)) nok=$((nok + fnok)) sk=$((sk + fsk))
        used=$((used + ${fsecs:-0}))
        rows+=("$name|${fsecs:-0}")
    done
    # run.sh failed with every file passed (the guest's own script)
    if [[ $rc != 0 && $nok == 0 ]]; then
        echo "not ok - [$label] $bname: the boot failed (run.sh status $rc) without a failing test" | tee -a "$share/tap.txt"
        sed 's/^/#   /' "$share/run.log"
        nok=$((nok + 1)); bad=1
    fi
    echo "# [$label] $bname: $ok passed, $nok failed, $sk skipped; boot $boot s, wall $secs s$again"
    # the table's rows: one per file, its own seconds; the first also has
    # what the boot cost besides the files (the boot itself, the checks)
    : > "$share/time"
    local i
    for i in "${!rows[@]}"; do
        IFS='|' read -r name fsecs <<< "${rows[$i]}"
        if (( i == 0 )); then
            printf '%-10s %-18s %6s %6s\n' "$label" "$name" "$boot" "$((fsecs + secs - used))"
        else
            printf '%-10s %-18s %6s %6s\n' "$label" "$name" "+" "$fsecs"
        fi >> "$share/time"
    done
    echo "$ok $nok $bad $notrun $sk $([[ -n $again ]] && echo 1 || echo 0)" > "$share/counts"
}

# Boots run side by side, CXLTIER_VM_JOBS at a time (default 2): a guest is
# mostly one busy emulated CPU or waiting on its own timers, so two guests
# use a 2-core host's second core, and on a host that is busy with other
# work they get the share of two. (Three at a time were measured no faster:
# on a host kept busy by two other processes, 2812 s for the whole tier
# against 2658 s with two.) The longest boots start first, by the seconds
# test/vm/boot-seconds lists (10 s a test for a boot it does not list).
# One boot at a time streams its TAP as it comes; side by side, each boot's
# TAP and verdict are printed whole when it ends, as boots end.
VMJOBS=${CXLTIER_VM_JOBS:-2}
[[ $VMJOBS =~ ^[1-9][0-9]*$ ]] || { echo "vm-test: CXLTIER_VM_JOBS must be a positive number, not '$VMJOBS'" >&2; exit 2; }
expected_seconds() { # label file
    local s
    s=$(awk -v l="${1// /_}" -v f="$(basename "$2" .bats)" \
        '!/^#/ && $1 == l && $2 == f && $3 ~ /^[0-9]+$/ { print $3; exit }' "$HERE/boot-seconds" 2>/dev/null)
    echo "${s:-$(( $(count_tests "$1" "$2") * 10 ))}"
}
mapfile -t JOBS < <(for j in "${JOBS[@]}"; do
    IFS='|' read -r label _ _ rest <<< "$j"
    IFS='|' read -ra files <<< "$rest"
    secs=0
    for f in "${files[@]}"; do secs=$(( secs + $(expected_seconds "$label" "$f") )); done
    printf '%s\t%s\n' "$secs" "$j"
done | sort -t $'\t' -k1,1nr -s | cut -f2-)
(( ${#JOBS[@]} > 1 )) || VMJOBS=1
stream=0; (( VMJOBS == 1 )) && stream=1
# TCG's threading (run.sh: CXLTIER_VM_TCG_THREAD). A host thread per guest
# vCPU (multi) pays only with a core for each; with more guests' vCPUs than
# host cores (two boots of two vCPUs on a 2-core host) the threads fight,
# and one thread per guest (single) ran online.bats on both kernels side by
# side in 121 and 100 s against 150 and 152 s (alternating rounds, idle
# host). Single then, unless set.
if [[ -z ${CXLTIER_VM_TCG_THREAD:-} && -z ${CXLTIER_VM_ICOUNT:-} ]] && (( VMJOBS * 2 > $(nproc) )); then
    export CXLTIER_VM_TCG_THREAD=single
fi

# interrupted: every boot under way stops (the jobs still running: a pid
# of one that ended may belong to another process by now)
trap 'kill $(jobs -p) 2>/dev/null; wait' EXIT
trap 'exit 143' TERM; trap 'exit 130' INT
echo "# vm-test: ${#JOBS[@]} boots (kernels: ${KERNELS[*]}), $VMJOBS at a time${CXLTIER_VM_TCG_THREAD:+ (TCG thread=$CXLTIER_VM_TCG_THREAD)}"
SHARES=() LABEL_OF=()
declare -A SHARE_OF=()   # a running boot's pid -> its share
ACTIVE=()
# wait for one of the running boots to end and print its report
reap() {
    local ended="" p rest=()
    wait -n -p ended "${ACTIVE[@]}"
    [[ -n $ended ]] || ended=${ACTIVE[0]}   # (cannot happen: every one is a child)
    for p in "${ACTIVE[@]}"; do [[ $p == "$ended" ]] || rest+=("$p"); done
    ACTIVE=("${rest[@]}")
    [[ $stream == 1 ]] || cat "${SHARE_OF[$ended]}.report" 2>/dev/null
}
for j in "${JOBS[@]}"; do
    IFS='|' read -r label k b rest <<< "$j"
    IFS='|' read -ra files <<< "$rest"
    n=$(( ${#SHARES[@]} + 1 ))
    # a group's boot: the longest per-test limit of its files (the host's
    # stall watch), the sum of their budgets (the backstop)
    tt=0 budget=0 names=()
    for f in "${files[@]}"; do
        t=$(header vm-test-timeout "$f"); t=${t%%--*}; t=${t// /}; t=${t:-$TEST_TIMEOUT}
        (( t > tt )) && tt=$t
        budget=$(( budget + $(count_tests "$label" "$f") * t ))
        names+=("$(basename "$f")")
    done
    backstop=${CXLTIER_VM_TIMEOUT:-$(( budget + 300 * ${#files[@]} + 300 ))}
    name=$(basename "${files[0]}" .bats)
    (( ${#files[@]} == 1 )) || name=$(header vm-boot-group "${files[0]}")
    share=$WORK/$(printf '%02d' $n)-${label// /-}-$name
    mkdir -p "$share/state"
    # cxltier built on Debian 13, run in the guest with trixie's libraries
    # (ndctl-oracle.bash: cxltier13)
    [[ -z ${CXLTIER_VM_TRIXIE_BIN:-} ]] || cp "$CXLTIER_VM_TRIXIE_BIN" "$share/cxltier-trixie"
    san=0; [[ $label == *asan* ]] && san=1
    cat > "$share/run.sh" <<RUN
export CXLTIER_VM_KERNEL='$label' CXLTIER_VM_TEST_TIMEOUT=$TEST_TIMEOUT CXLTIER_VM_SANITIZE=$san CXLTIER_VM_FILE_MARGIN=${CXLTIER_VM_FILE_MARGIN:-300}
export CXLTIER_VM_FILTER=$(printf '%q' "$(filter_of "$label" "${files[0]}")")
exec bash /usr/share/cxltier-vm/run-bats.sh ${names[*]}
RUN
    : > "$share/tap.txt"
    while (( ${#ACTIVE[@]} >= VMJOBS )); do reap; done
    topo=$(header vm-topology "${files[0]}"); args=$(header vm-args "${files[0]}"); args=${args//@BUILD@/$b}
    echo "# boot $n/${#JOBS[@]}: [$label] $(boot_name "${files[@]}") (topology ${topo:-default}${args:+, $args}; backstop ${backstop} s)"
    if [[ $stream == 1 ]]; then
        boot "$n" "$label" "$k" "$b" "$share" "$backstop" 1 "$tt" "${files[@]}" &
    else
        boot "$n" "$label" "$k" "$b" "$share" "$backstop" 0 "$tt" "${files[@]}" > "$share.report" 2>&1 &
    fi
    ACTIVE+=($!)
    SHARE_OF[$!]=$share
    SHARES+=("$share"); LABEL_OF+=("$label")
done
while (( ${#ACTIVE[@]} )); do reap; done

declare -A PASS=() FAIL=()
LABELS=() TIMES=()
passed=0 failed=0 bad=0 notrun=0 skipped=0 rebooted=0
for i in "${!SHARES[@]}"; do
    share=${SHARES[$i]} label=${LABEL_OF[$i]}
    [[ -n ${PASS[$label]+x} ]] || { PASS[$label]=0; FAIL[$label]=0; LABELS+=("$label"); }
    if ! read -r ok nok b nr sk twice < "$share/counts" 2>/dev/null; then
        # (the boot's own bookkeeping died: count it failed)
        echo "not ok - [$label] $(basename "$share"): the boot left no result"
        ok=0 nok=1 b=1 nr=0 sk=0 twice=0
    fi
    rebooted=$((rebooted + twice))
    TIMES+=("$(cat "$share/time" 2>/dev/null)")
    PASS[$label]=$(( ${PASS[$label]} + ok )); FAIL[$label]=$(( ${FAIL[$label]} + nok ))
    passed=$((passed + ok)); failed=$((failed + nok)); notrun=$((notrun + nr)); skipped=$((skipped + sk))
    (( b == 0 )) || bad=1
done

echo "# boot and wall seconds per boot:"
printf '#   %-10s %-18s %6s %6s\n' kernel file boot wall
# (a file of a boot group after its first: "+" for boot, its own seconds;
# the first's wall has the boot's cost besides the files)
for t in "${TIMES[@]}"; do sed 's/^/#   /' <<< "$t"; done
echo "# vm-test: wall time $(( $(date +%s) - T0 )) s$( (( notrun )) && echo ", $notrun tests did not run")"
per=
for l in "${LABELS[@]}"; do
    per+="${per:+, }$l: ${PASS[$l]}/$(( ${PASS[$l]} + ${FAIL[$l]} ))"
done
# a file booted twice (the emulator's fault, named above) is on the last line too
echo "vm: $passed passed, $failed failed, $skipped skipped$( (( rebooted )) && echo ", $rebooted booted twice (a fault of the emulation: QEMU aborted, or a guest kernel lost its timer or stalled in its boot)") ($per)"
[[ $failed == 0 && $bad == 0 && $passed -gt 0 ]]
