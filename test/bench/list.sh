#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# list.sh BUILDDIR [ROUNDS] - what a sysadmin runs to see the CXL memory of a
# machine, side by side in the VM guest (two-devices topology: two Type-3
# devices behind one host bridge, a 2-way RAM region over both, onlined):
#   cxltier  cxltier list -j
#   ndctl    cxl list -RM, then daxctl list (the same information from
#            ndctl's two tools)
# One guest boots; every round times each side once, the order alternating
# from round to round, after one untimed warm-up run of each. Every run is
# verified: exit status 0 (both of ndctl's tools), and its output names both
# memdevs, the region and its dax device (cxl list: memdevs and region;
# daxctl list: the dax device). A run that fails is dropped from the medians
# and counted ("cxltier: 2 runs failed verification (dropped)"); then the
# bench exits 1. Prints median, min and max per side and the ratio of medians; -p also profiles one run of
# each side (strace -c: system calls and errors; which files are opened).
# Under TCG timings vary a lot from run to run: ROUNDS (default 9, at least
# 7) alternating rounds and medians are what to compare. On a busy host,
# CXLTIER_VM_ICOUNT=shift=0,sleep=off makes the guest's clock count
# instructions (test/vm/run.sh): the work each side does, whatever the load.
set -euo pipefail
PROFILE=0
[[ ${1:-} == -p ]] && { PROFILE=1; shift; }
BUILD=$(realpath "${1:-build}") ROUNDS=${2:-9}
(( ROUNDS >= 7 )) || { echo "list.sh: at least 7 rounds" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
VM=$HERE/../vm
"$VM/fetch.sh" >/dev/null
work=${BENCH_WORK:-$(mktemp -d)}; [[ -n ${BENCH_WORK:-} ]] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/share"
"$VM/mkinitramfs.sh" -o "$work/initrd.gz" -a "$BUILD/cxltier:/usr/bin/cxltier" >/dev/null
cat > "$work/share/run.sh" <<GUEST
. /usr/share/cxltier-vm/lib.sh
r=\$(vm_create_ram_region mem0 mem1) || exit 1
dax=\$(vm_dax_of \$r)
vm_online_movable \$dax
us() { local t=\$EPOCHREALTIME; echo \$(( 10#\${t/./} )); }
run() {
    case \$1 in
        cxltier) cxltier list -j > /tmp/out-cxltier ;;
        ndctl) cxl list -RM > /tmp/out-cxl && daxctl list > /tmp/out-daxctl ;;
    esac
}
# names FILE WORD...: FILE names every WORD (in quotes, as JSON has it); else says which it does not
names() { local f=\$1 w; shift; for w; do grep -q "\"\$w\"" \$f || { echo "\${f#/tmp/out-} names no \$w"; return 1; }; done; }
verify() {
    case \$1 in
        cxltier) names /tmp/out-cxltier mem0 mem1 \$r \$dax ;;
        ndctl) names /tmp/out-cxl mem0 mem1 \$r && names /tmp/out-daxctl \$dax ;;
    esac
}
sides=(cxltier ndctl)
run cxltier; run ndctl
for ((i = 0; i < $ROUNDS; i++)); do
    for ((k = 0; k < 2; k++)); do
        how=\${sides[(i + k) % 2]}
        rm -f /tmp/out-*
        t0=\$(us); run \$how; rc=\$?; t1=\$(us)
        if [ \$rc -ne 0 ]; then echo "BENCH fail \$how \$i exit status \$rc"
        elif ! why=\$(verify \$how); then echo "BENCH fail \$how \$i \$why"
        else echo "BENCH run \$how \$i \$(( t1 - t0 ))"; fi
    done
done
if [ $PROFILE = 1 ]; then
    strace -c -o /share/strace-cxltier.txt cxltier list -j >/dev/null
    strace -c -o /share/strace-cxl.txt cxl list -RM >/dev/null
    strace -c -o /share/strace-daxctl.txt daxctl list >/dev/null
    for p in "cxltier list -j" "cxl list -RM" "daxctl list"; do
        strace -e trace=openat,open -o /tmp/opens \$p >/dev/null 2>&1
        echo "OPENS \${p%% *} \$(grep -c '= [0-9]' /tmp/opens)"
    done
fi
GUEST
"$VM/run.sh" -i "$work/initrd.gz" -S "$work/share" --topology two-devices --timeout 3000 >/dev/null ||
    { tail -20 "$work/share/console.log"; exit 1; }
failed=0
tr -d '\r' < "$work/share/console.log" | awk -v rounds="$ROUNDS" -f "$HERE/median.awk" -f /dev/fd/3 3<<'AWK' || failed=1
/^BENCH run/ { v[$3] = v[$3] " " $5; at[$3, $4] = $5 }
/^BENCH fail/ { fail[$3]++; nfail++; if (!($3 in why)) { w = $0; sub(/^BENCH fail [^ ]+ [0-9]+ /, "", w); why[$3] = "round " $4 + 1 ": " w } }
END {
    printf "listing the CXL memory (two devices, one 2-way region onlined), %d alternating rounds, TCG guest%s (ms):\n", rounds,
        ENVIRON["CXLTIER_VM_ICOUNT"] != "" ? ", icount " ENVIRON["CXLTIER_VM_ICOUNT"] : ""
    printf "  %-30s %9s %9s %9s\n", "", "median", "min", "max"
    split("cxltier ndctl", names, " ")
    label["cxltier"] = "cxltier list -j"; label["ndctl"] = "cxl list -RM + daxctl list"
    for (i = 1; i <= 2; i++) {
        m[names[i]] = median(v[names[i]])
        if (v[names[i]] == "") printf "  %-30s no run verified\n", label[names[i]]
        else printf "  %-30s %9.1f %9.1f %9.1f\n", label[names[i]], m[names[i]] / 1000, lo / 1000, hi / 1000
    }
    if (m["cxltier"] && m["ndctl"]) printf "  ratio of medians: cxltier / (cxl + daxctl) %.3fx\n", m["cxltier"] / m["ndctl"]
    # over the rounds where both runs were verified
    r = ""
    for (i = 0; i < rounds; i++) if ((("cxltier", i) in at) && (("ndctl", i) in at)) r = r " " at["cxltier", i] / at["ndctl", i]
    if (r != "") printf "  median of per-round ratios: %.3fx\n", median(r)
    for (i = 1; i <= 2; i++) if (fail[names[i]])
        printf "  %s: %d run%s failed verification (dropped); the first: %s\n", names[i], fail[names[i]],
            fail[names[i]] == 1 ? "" : "s", why[names[i]]
    exit nfail > 0
}
AWK
if [[ $PROFILE == 1 ]]; then
    for side in cxltier cxl daxctl; do
        echo "  strace -c, $side: $(awk '$NF == "total" {print $4, "syscalls,", $5 + 0, "errors"}' "$work/share/strace-$side.txt")"
    done
    sed -n 's/^OPENS \([^ ]*\) \([0-9]*\).*/  files opened, \1: \2/p' "$work/share/console.log"
fi
exit $failed
