#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# online.sh BUILDDIR [ROUNDS] [SIZE...] - onlining a CXL region's memory
# blocks movable in the VM guest, three ways side by side:
#   floor    test/bench/online-floor: one open+write+close of online_movable
#            per block, nothing else (the least any tool can do)
#   cxltier  cxltier online daxX.Y
#   daxctl   daxctl online-memory daxX.Y (ndctl's tool)
# For each SIZE of CXL memory (default 1G and 4G: 8 and 32 blocks of 128M)
# one guest boots; every round times each side once, in an order that
# rotates from round to round, with every block offlined (untimed) before
# each run. Every run is verified: all blocks offline before it (else not
# timed), exit status 0, and after it every block of the dax device online
# and in ZONE_MOVABLE (state online, valid_zones Movable). A run that fails
# is dropped from the medians and counted ("cxltier: 2 runs failed
# verification (dropped)"); then the bench exits 1, after every SIZE.
# Prints median, min and max per side and the ratios of medians;
# -p also profiles one cxltier run (strace -c, and -v phase timings).
# Under TCG timings vary a lot from run to run: ROUNDS (default 9, at
# least 7) alternating rounds and medians are what to compare. On a busy
# host, CXLTIER_VM_ICOUNT=shift=0,sleep=off makes the guest's clock count
# instructions (test/vm/run.sh): the work each side does, whatever the load.
set -euo pipefail
PROFILE=0
[[ ${1:-} == -p ]] && { PROFILE=1; shift; }
BUILD=$(realpath "${1:-build}") ROUNDS=${2:-9}
shift 2 2>/dev/null || shift $#
SIZES=("$@"); [[ ${#SIZES[@]} -gt 0 ]] || SIZES=(1G 4G)
(( ROUNDS >= 7 )) || { echo "online.sh: at least 7 rounds" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
VM=$HERE/../vm
"$VM/fetch.sh" >/dev/null
work=${BENCH_WORK:-$(mktemp -d)}; [[ -n ${BENCH_WORK:-} ]] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
"$VM/mkinitramfs.sh" -o "$work/initrd.gz" -a "$BUILD/cxltier:/usr/bin/cxltier" \
    -a "$BUILD/test/online-floor:/usr/bin/online-floor" >/dev/null

failed=0
for size in "${SIZES[@]}"; do
    share=$work/share-$size
    mkdir -p "$share"
    cat > "$share/run.sh" <<GUEST
. /usr/share/cxltier-vm/lib.sh
r=\$(vm_create_ram_region mem0) || exit 1
d=\$(vm_dax_of \$r)
blocks=\$(vm_blocks_of \$d)
off() { local b; for b in \$blocks; do [ "\$(cat \$MEMSYS/\$b/state)" = offline ] || echo offline > \$MEMSYS/\$b/state; done; }
# check STATE [ZONE]: every block in STATE (and ZONE); else names the first that is not
check() {
    local b st z
    for b in \$blocks; do
        st=\$(cat \$MEMSYS/\$b/state)
        [ "\$st" = \$1 ] || { echo "\$b \$st"; return 1; }
        [ -z "\${2:-}" ] || { z=\$(cat \$MEMSYS/\$b/valid_zones); [ "\$z" = \$2 ]; } || { echo "\$b \$st in \$z"; return 1; }
    done
}
us() { local t=\$EPOCHREALTIME; echo \$(( 10#\${t/./} )); }
run() {
    case \$1 in
        floor) online-floor \$blocks ;;
        cxltier) cxltier online \$d >/dev/null 2>&1 ;;
        daxctl) daxctl online-memory \$d >/dev/null 2>&1 ;;
    esac
}
sides=(floor cxltier daxctl)
echo "BENCH blocks \$(echo \$blocks | wc -w)"
for ((i = 0; i < $ROUNDS; i++)); do
    for ((k = 0; k < 3; k++)); do
        how=\${sides[(i + k) % 3]}
        off
        if ! why=\$(check offline); then echo "BENCH fail \$how \$i not offline before the run: \$why"; continue; fi
        t0=\$(us); run \$how; rc=\$?; t1=\$(us)
        if [ \$rc -ne 0 ]; then echo "BENCH fail \$how \$i exit status \$rc"
        elif ! why=\$(check online Movable); then echo "BENCH fail \$how \$i not online movable: \$why"
        else echo "BENCH run \$how \$i \$(( t1 - t0 ))"; fi
    done
done
if [ $PROFILE = 1 ]; then
    for ((i = 0; i < $ROUNDS; i++)); do
        off; cxltier online \$d -vv 2>&1 >/dev/null | sed -n 's/^cxltier online: \(.*\): \([0-9.]*\) ms\$/PHASE \1|\2/p'
        for how in "cxltier --version" "daxctl --version" online-floor; do
            t0=\$(us); \$how >/dev/null 2>&1; t1=\$(us); echo "START \${how// /_} \$(( t1 - t0 ))"
        done
    done
    off; strace -c -o /share/strace-cxltier.txt cxltier online \$d >/dev/null 2>&1
    off; strace -c -o /share/strace-daxctl.txt daxctl online-memory \$d >/dev/null 2>&1
    off; strace -c -o /share/strace-floor.txt online-floor \$blocks >/dev/null 2>&1
fi
off
GUEST
    "$VM/run.sh" -i "$work/initrd.gz" -S "$share" -c "$size" --timeout 3000 >/dev/null ||
        { tail -20 "$share/console.log"; exit 1; }
    tr -d '\r' < "$share/console.log" | awk -v size="$size" -v rounds="$ROUNDS" -f "$HERE/median.awk" -f /dev/fd/3 3<<'AWK' || failed=1
    /^BENCH blocks/ { n = $3 }
    /^BENCH run/ { v[$3] = v[$3] " " $5; at[$3, $4] = $5 }
    /^BENCH fail/ { fail[$3]++; nfail++; if (!($3 in why)) { w = $0; sub(/^BENCH fail [^ ]+ [0-9]+ /, "", w); why[$3] = "round " $4 + 1 ": " w } }
    END {
        printf "onlining %d blocks (%s) movable, %d alternating rounds, TCG guest%s (ms):\n", n, size, rounds,
            ENVIRON["CXLTIER_VM_ICOUNT"] != "" ? ", icount " ENVIRON["CXLTIER_VM_ICOUNT"] : ""
        printf "  %-8s %9s %9s %9s\n", "", "median", "min", "max"
        split("floor cxltier daxctl", names, " ")
        for (i = 1; i <= 3; i++) {
            m[names[i]] = median(v[names[i]])
            if (v[names[i]] == "") printf "  %-8s no run verified\n", names[i]
            else printf "  %-8s %9.1f %9.1f %9.1f\n", names[i], m[names[i]] / 1000, lo / 1000, hi / 1000
        }
        if (m["cxltier"] && m["floor"] && m["daxctl"])
            printf "  ratio of medians: cxltier / floor %.3fx, cxltier / daxctl online-memory %.3fx\n",
                m["cxltier"] / m["floor"], m["cxltier"] / m["daxctl"]
        # the same round shares the host load: the median of per-round ratios
        # (over the rounds where both runs were verified)
        rf = ""; rx = ""
        for (i = 0; i < rounds; i++) {
            if ((("cxltier", i) in at) && (("floor", i) in at)) rf = rf " " at["cxltier", i] / at["floor", i]
            if ((("cxltier", i) in at) && (("daxctl", i) in at)) rx = rx " " at["cxltier", i] / at["daxctl", i]
        }
        if (rf != "" && rx != "")
            printf "  median of per-round ratios: cxltier / floor %.3fx, cxltier / daxctl %.3fx\n", median(rf), median(rx)
        for (i = 1; i <= 3; i++) if (fail[names[i]])
            printf "  %s: %d run%s failed verification (dropped); the first: %s\n", names[i], fail[names[i]],
                fail[names[i]] == 1 ? "" : "s", why[names[i]]
        exit nfail > 0
    }
AWK
    if [[ $PROFILE == 1 ]]; then
        # medians of the phases cxltier -vv reports, and of bare start-ups
        sed -n 's/^PHASE //p; s/^START \([^ ]*\) \([0-9]*\)$/start-up: \1|\2/p' "$share/console.log" | awk -F'|' '
            /^start-up/ { $2 = $2 / 1000 }
            { v[$1] = v[$1] " " $2; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
            END {
                print "  medians (ms) of cxltier -vv phases and of bare start-ups:"
                for (i = 1; i <= n; i++) {
                    k = split(v[order[i]], a, " ")
                    for (x = 1; x <= k; x++) for (y = x + 1; y <= k; y++) if (a[y] < a[x]) { t = a[x]; a[x] = a[y]; a[y] = t }
                    printf "    %-40s %8.2f\n", order[i], k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
                }
            }'
        for side in cxltier daxctl floor; do
            echo "  strace -c, $side: $(awk '$NF == "total" {print $4, "syscalls,", $5 + 0, "errors"}' "$share/strace-$side.txt")"
        done
    fi
done
exit $failed
