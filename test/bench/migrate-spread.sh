#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# migrate-spread.sh BUILDDIR [ROUNDS] - `cxltier migrate --spread weighted`
# against its floor in the VM guest: one process of 256 MiB in base pages
# (hog --small) on node 0, spread 3:1 over node 0 and the cpu-less RAM
# node by the kernel's weighted-interleave weights (written in sysfs), so
# that 64 MiB move to the RAM node, side by side in one boot in
# alternating rounds:
#   floor    test/bench/spread-floor: numa_maps (once) and maps read, then the
#            move_pages(2) calls cxltier makes (the same batches of at most
#            4096 pages in 16 MiB-aligned blocks, to the same node), nothing
#            else: the least any tool does
#   cxltier  cxltier migrate --pid P --spread weighted --nodes 0,N
# Each run is verified: all of the process on node 0 before it (else not
# timed), exit status 0, and after it the RAM node holding a quarter of
# the process's pages within 64 pages (its target: the pages ended where
# planned); then everything is moved back to node 0 (untimed). A run that
# fails is dropped from the medians and counted; then the bench exits 1.
# The guest's clock counts instructions (CXLTIER_VM_ICOUNT, default
# shift=0,sleep=off: test/vm/run.sh), the work each side does whatever
# the host's load. Prints median, min and max per side, the ratio of
# medians and the median of per-round ratios. BENCH_RESULTS=FILE keeps the
# raw samples; BENCH_PROFILE=1 also shows where cxltier's time goes (its
# start, the scan and the moves of its -j report, strace -c of each side).
set -euo pipefail
BUILD=$(realpath "${1:-build}") ROUNDS=${2:-7}
HERE=$(cd "$(dirname "$0")" && pwd)
VM=$HERE/../vm
(( ROUNDS >= 7 )) || { echo "migrate-spread.sh: at least 7 rounds" >&2; exit 2; }
export CXLTIER_VM_ICOUNT=${CXLTIER_VM_ICOUNT-shift=0,sleep=off}
"$VM/fetch.sh" >/dev/null
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/share"
"$VM/mkinitramfs.sh" -o "$work/initrd.gz" -a "$BUILD/cxltier:/usr/bin/cxltier" -a "$BUILD/test/hog:/usr/bin/hog" \
    -a "$BUILD/test/spread-floor:/usr/bin/spread-floor" >/dev/null
cat > "$work/share/run.sh" <<GUEST
R=$ROUNDS PROFILE=${BENCH_PROFILE:-0}
GUEST
cat >> "$work/share/run.sh" <<'GUEST'
us() { local t=$EPOCHREALTIME; echo $(( 10#${t/./} )); }
N=$(for n in /sys/devices/system/node/node*; do [ -z "$(cat $n/cpulist)" ] && grep -q 'MemTotal: *[1-9]' $n/meminfo && basename $n | sed 's/node//'; done | head -1)
WI=/sys/kernel/mm/mempolicy/weighted_interleave
echo 3 > $WI/node0; echo 1 > $WI/node$N
echo "BENCH node $N weights $(cat $WI/node0):$(cat $WI/node$N)"
# pages PID NODE: the process's pages on NODE (every node: NODE empty)
pages() { awk -v k="N$2=" '{ for (i = 2; i <= NF; i++) if ((k == "N=" && $i ~ /^N[0-9]+=/) || index($i, k) == 1) { split($i, a, "="); s += a[2] } } END { print s + 0 }' /proc/$1/numa_maps; }
numactl --membind=0 hog --small 256 > /tmp/h & P=$!
until grep -q ready /tmp/h; do sleep 0.1; done
back() { migratepages $P $N 0 >/dev/null; }
# NAME CMD...: one timed spread, verified, then back untimed
time_it() {
    local name=$1 t0 t1 rc all on; shift
    on=$(pages $P $N)
    if [ "$on" -gt 0 ]; then echo "BENCHFAIL $name $on pages on node $N before the run"; back; return; fi
    t0=$(us); "$@" > /dev/null 2> /tmp/err; rc=$?; t1=$(us)
    all=$(pages $P ""); on=$(pages $P $N)
    if [ $rc -ne 0 ]; then echo "BENCHFAIL $name exit status $rc: $(head -c 200 /tmp/err)"
    elif [ $(( on * 4 - all )) -gt 256 ] || [ $(( all - on * 4 )) -gt 256 ]; then
        echo "BENCHFAIL $name $on of $all pages on node $N, not a quarter"
    else echo "BENCH $name $((t1 - t0))"; fi
    back
}
floor() { spread-floor $P 0 $N 3 1; }
cx() { cxltier migrate --pid $P --spread weighted --nodes 0,$N; }
floor > /dev/null; back; cx > /dev/null 2>&1; back     # warm both paths once
for ((r = 0; r < R; r++)); do
    if (( r % 2 )); then time_it floor floor; time_it cxltier cx
    else time_it cxltier cx; time_it floor floor; fi
done
if [ "$PROFILE" = 1 ]; then
    # where cxltier's time goes: its start, its scan and moves (-j), the floor's start
    for ((r = 0; r < R; r++)); do
        t0=$(us); cxltier --version > /dev/null; t1=$(us); echo "PROFILE start $((t1 - t0))"
        t0=$(us); spread-floor 1 0 0 1 1 > /dev/null 2>&1; t1=$(us); echo "PROFILE floor_start $((t1 - t0))"
        t0=$(us); cxltier migrate --pid $P --spread weighted --nodes 0,$N -j > /tmp/j 2> /dev/null; t1=$(us)
        echo "PROFILE run $((t1 - t0)) $(jq -r '.run[0] | [.seconds, .scan_seconds, .move_seconds] | @tsv' /tmp/j)"
        back
    done
    strace -c -o /share/strace-cxltier.txt cxltier migrate --pid $P --spread weighted --nodes 0,$N > /dev/null 2>&1; back
    strace -c -o /share/strace-floor.txt spread-floor $P 0 $N 3 1 > /dev/null 2>&1; back
fi
kill -USR1 $P; until grep -qE 'intact|corrupt' /tmp/h; do sleep 0.1; done
echo "BENCH data $(grep -oE 'intact|corrupt' /tmp/h)"
kill $P
exit 0
GUEST
"$VM/run.sh" -i "$work/initrd.gz" -S "$work/share" --ram-node 512M -m 2048M --timeout "${BENCH_TIMEOUT:-7200}" >/dev/null ||
    { tail -20 "$work/share/console.log"; exit 1; }
grep -aE '^BENCH(FAIL)? ' "$work/share/console.log" | tr -d '\r' > "$work/results" || { tail -20 "$work/share/console.log"; exit 1; }
if [[ ${BENCH_PROFILE:-0} == 1 ]]; then
    grep -a '^PROFILE ' "$work/share/console.log" | tr -d '\r' | awk -f "$HERE/median.awk" -f /dev/fd/3 3<<'AWK'
$2 == "start" { s = s " " $3 } $2 == "floor_start" { f = f " " $3 }
$2 == "run" { r = r " " $3; a = a " " $4 * 1e6; sc = sc " " $5 * 1e6; mv = mv " " $6 * 1e6 }
END {
    printf "profile (ms, medians): cxltier --version %.1f, spread-floor's start %.1f; cxltier -j %.1f: its run %.1f, scan %.1f, move %.1f\n",
        median(s) / 1e3, median(f) / 1e3, median(r) / 1e3, median(a) / 1e3, median(sc) / 1e3, median(mv) / 1e3
}
AWK
    for f in "$work"/share/strace-*.txt; do echo "== ${f##*/}"; head -25 "$f"; done
fi
cp "$work/results" "${BENCH_RESULTS:-/dev/null}" 2>/dev/null || true
awk -v rounds="$ROUNDS" -f "$HERE/median.awk" -f /dev/fd/3 "$work/results" 3<<'AWK'
$1 == "BENCH" && $2 == "node" { node = $3; weights = $5 }
$1 == "BENCH" && ($2 == "floor" || $2 == "cxltier") { v[$2] = v[$2] " " $3; n[$2]++; seq[$2, n[$2]] = $3 }
$1 == "BENCH" && $2 == "data" { data = $3; if (data != "intact") nfail++ }
$1 == "BENCHFAIL" { fail[$2]++; nfail++; if (!($2 in why)) { w = $0; sub(/^BENCHFAIL [^ ]+ /, "", w); why[$2] = w } }
END {
    printf "256 MiB process spread %s over node 0 and node %s (64 MiB moved), %d alternating rounds, TCG guest%s (ms):\n",
        weights, node, rounds, ENVIRON["CXLTIER_VM_ICOUNT"] != "" ? ", icount " ENVIRON["CXLTIER_VM_ICOUNT"] : ""
    printf "  %-8s %9s %9s %9s\n", "", "median", "min", "max"
    split("floor cxltier", names, " ")
    for (i = 1; i <= 2; i++) {
        m[names[i]] = median(v[names[i]])
        if (v[names[i]] == "") { printf "  %-8s no run verified\n", names[i]; nfail++ }
        else printf "  %-8s %9.1f %9.1f %9.1f  (%d runs)\n", names[i], m[names[i]] / 1000, lo / 1000, hi / 1000, n[names[i]]
    }
    if (m["cxltier"] && m["floor"]) printf "  ratio of medians: cxltier / floor %.3fx\n", m["cxltier"] / m["floor"]
    r = ""
    for (i = 1; i <= n["cxltier"] && i <= n["floor"]; i++) r = r " " seq["cxltier", i] / seq["floor", i]
    if (r != "") printf "  per-round ratios: median %.3fx, min %.3fx, max %.3fx\n", median(r), lo, hi
    if (data != "") print "data after all moves: " data
    for (k in fail) printf "  %s: %d run%s failed verification (dropped); the first: %s\n", k, fail[k], fail[k] == 1 ? "" : "s", why[k]
    exit nfail > 0
}
AWK
