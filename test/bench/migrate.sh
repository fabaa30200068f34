#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# migrate.sh BUILDDIR [ROUNDS] - page migration between node 0 and a cpu-less
# RAM node in the VM guest (2 vCPUs, TCG), cxltier against numactl's
# migratepages, side by side in one boot, in alternating rounds:
#   8x64   8 processes of 64 MiB: `cxltier migrate --comm` (default jobs)
#          against 8 migratepages one after another, and 8 at once
#   1g     one 1 GiB process: cxltier against migratepages
#   1g-jobs  (with 1g) the --jobs curve (1, 2, 4) on it too, and --max-bytes
#          (move_pages on 1 GiB): scan and move time per GiB moved
#   cold   --cold (DAMON, 256 MiB with a 25 % hot set, BENCH_COLD_RUNS runs,
#          default 3): scan and move time per GiB moved, --cold precision
# (8x64 has the --jobs curve (1, 2, 4) too)
# Each sample is one move to the RAM node (moved back untimed), and each is
# verified: every process's buffer on node 0 before it (else not timed), the
# mover's exit status (each migratepages' too), every process's buffer on the
# RAM node after it (pages from /proc/PID/numa_maps), and for --max-bytes
# cxltier's bytes moved; a --cold run needs exit status 0 and a run in its
# JSON (else its precision is not counted either). A run that fails is
# dropped from the medians and counted per side ("8x64_cxltier: 2 runs failed
# verification (dropped)"), as is hog's data found corrupt at the end; then
# the bench exits 1. Prints median, min and max per side, the ratio of
# medians, and the jobs setting that was fastest here (for [migrate] jobs in
# /etc/cxltier.conf). BENCH_RESULTS=FILE
# keeps the raw samples; BENCH_TIMEOUT (s, default 3 h) bounds the guest, and
# what it measured until then is summed up; BENCH_PARTS="8x64 1g 1g-jobs cold"
# (the default) runs some parts only.
set -euo pipefail
BUILD=$(realpath "${1:-build}") ROUNDS=${2:-7}
HERE=$(cd "$(dirname "$0")" && pwd)
VM=$HERE/../vm
(( ROUNDS >= 7 )) || { echo "migrate.sh: at least 7 rounds" >&2; exit 2; }
"$VM/fetch.sh" >/dev/null
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/share"
"$VM/mkinitramfs.sh" -o "$work/initrd.gz" -a "$BUILD/cxltier:/usr/bin/cxltier" -a "$BUILD/test/hog:/usr/bin/hog"
cat > "$work/share/run.sh" <<'GUEST'
R=@ROUNDS@ PARTS="@PARTS@" COLD_RUNS=@COLDRUNS@
part() { [[ " $PARTS " == *" $1 "* ]]; }
us() { local t=$EPOCHREALTIME; echo $(( 10#${t/./} )); }
N=$(for n in /sys/devices/system/node/node*; do [ -z "$(cat $n/cpulist)" ] && grep -q 'MemTotal: *[1-9]' $n/meminfo && basename $n | sed 's/node//'; done | head -1)
echo "BENCH node $N"
back() { for p in "$@"; do migratepages "$p" "$N" 0; done; }
# pages PID NODE: the process's pages on NODE (4 KiB each, THP counted so)
pages() { awk -v k="N$2=" '{ for (i = 2; i <= NF; i++) if (index($i, k) == 1) s += substr($i, length(k) + 1) } END { print s + 0 }' /proc/$1/numa_maps; }
# placed NODE: every hog's buffer (MIB MiB) on NODE; else says where it is
placed() {
    local p n
    for p in "${PIDS[@]}"; do
        n=$(pages $p $1)
        [ "$n" -ge $((MIB * 256)) ] || { echo "process $p: $n of $((MIB * 256)) pages on node $1"; return 1; }
    done
}
start() { # COUNT MiB [hog options] -> PIDS, each ready
    local n=$1 mib=$2 i; shift 2
    PIDS=() MIB=$mib
    for ((i = 0; i < n; i++)); do
        numactl --membind=0 hog "$@" "$mib" > /tmp/h$i &
        PIDS+=($!)
    done
    for ((i = 0; i < n; i++)); do until grep -q ready /tmp/h$i; do sleep 0.1; done; done
}
stop() { kill "${PIDS[@]}"; wait "${PIDS[@]}" 2>/dev/null || true; }
# NAME CMD...: one timed move to the RAM node, verified, then back untimed;
# "BENCH NAME US", or "BENCHFAIL NAME why" (dropped)
time_it() {
    local name=$1 t0 t1 rc why; shift
    if ! why=$(placed 0); then
        echo "BENCHFAIL $name not on node 0 before the run: $why"; back "${PIDS[@]}"; return
    fi
    t0=$(us); "$@" > /dev/null; rc=$?; t1=$(us)
    if [ $rc -ne 0 ]; then echo "BENCHFAIL $name exit status $rc"
    elif ! why=$(placed $N); then echo "BENCHFAIL $name $why"
    else echo "BENCH $name $((t1 - t0))"; fi
    back "${PIDS[@]}"
}
seq_mp() { local p rc=0; for p in "${PIDS[@]}"; do migratepages "$p" 0 "$N" || rc=1; done; return $rc; }
par_mp() {
    local p q=() rc=0
    for p in "${PIDS[@]}"; do migratepages "$p" 0 "$N" & q+=($!); done
    for p in "${q[@]}"; do wait $p || rc=1; done
    return $rc
}
cx() { cxltier migrate --comm hog --to "$N" "$@"; }

# warm the RAM node: the first touch of guest RAM is slow under TCG
numactl --membind=$N hog 1200 > /tmp/w & w=$!; until grep -q ready /tmp/w; do sleep 0.2; done; kill $w; wait $w

if part 8x64; then
start 8 64
seq_mp; back "${PIDS[@]}"; par_mp; back "${PIDS[@]}"; cx >/dev/null; back "${PIDS[@]}"   # warm every path once
for ((r = 0; r < R; r++)); do
    if (( r % 2 )); then
        time_it 8x64_mp_seq seq_mp; time_it 8x64_mp_par par_mp; time_it 8x64_cxltier cx
    else
        time_it 8x64_cxltier cx; time_it 8x64_mp_par par_mp; time_it 8x64_mp_seq seq_mp
    fi
    for j in 1 2 4; do time_it 8x64_jobs$j cx --jobs $j; done
done
stop
fi

if part 1g; then
start 1 1024
migratepages "${PIDS[0]}" 0 "$N"; back "${PIDS[@]}"
for ((r = 0; r < R; r++)); do
    if (( r % 2 )); then
        time_it 1g_mp migratepages "${PIDS[0]}" 0 "$N"; time_it 1g_cxltier cx
    else
        time_it 1g_cxltier cx; time_it 1g_mp migratepages "${PIDS[0]}" 0 "$N"
    fi
    part 1g-jobs || continue
    for j in 1 2 4; do time_it 1g_jobs$j cx --jobs $j; done
    # move_pages with a limit that takes everything: the scan's share
    if why=$(placed 0); then
        t0=$(us); cx --max-bytes 2G --jobs 1 -j > /tmp/mb.json; rc=$?; t1=$(us)
        moved=$(jq -r '.run[0].bytes_moved // 0' /tmp/mb.json 2>/dev/null || echo 0)
        if [ $rc -ne 0 ]; then echo "BENCHFAIL 1g_maxbytes exit status $rc"
        elif [ "$moved" -lt $((MIB << 20)) ]; then echo "BENCHFAIL 1g_maxbytes $moved bytes moved, not $((MIB << 20))"
        elif ! why=$(placed $N); then echo "BENCHFAIL 1g_maxbytes $why"
        else
            echo "BENCH 1g_maxbytes $((t1 - t0))"
            echo "BENCHJ maxbytes $(jq -c '.run[0] | [.scan_seconds, .move_seconds, .bytes_moved] | @tsv' -r /tmp/mb.json)"
        fi
    else
        echo "BENCHFAIL 1g_maxbytes not on node 0 before the run: $why"
    fi
    back "${PIDS[@]}"
done
kill -USR1 "${PIDS[0]}"; until grep -qE 'intact|corrupt' /tmp/h0; do sleep 0.1; done
echo "BENCH data $(grep -oE 'intact|corrupt' /tmp/h0)"
stop
fi

# --cold on a known hot set: 25 % of 256 MiB read in a loop
if part cold; then
for ((r = 0; r < COLD_RUNS; r++)); do
    numactl --membind=0 hog --hot 25 256 > /tmp/hot & h=$!
    until grep -q ready /tmp/hot; do sleep 0.1; done
    cxltier migrate --pid $h --to "$N" --cold --interval 3 -j > /tmp/cold.json 2>/dev/null; rc=$?
    if [ $rc -ne 0 ]; then echo "BENCHFAIL cold exit status $rc"
    elif ! jq -e '.run[0].bytes_moved' /tmp/cold.json >/dev/null 2>&1; then echo "BENCHFAIL cold no run in its JSON"
    else
        echo "BENCHJ cold $(jq -r '.run[0] | [.scan_seconds, .move_seconds, .bytes_moved] | @tsv' /tmp/cold.json)"
        kill -USR2 $h; until [ "$(grep -c '^cold' /tmp/hot)" -ge 1 ]; do sleep 0.1; done
        read -r _ h0 h1 h2 h3 _ < <(grep '^hot ' /tmp/hot); read -r _ c0 c1 c2 c3 _ < <(grep '^cold ' /tmp/hot)
        hot=($h0 $h1 $h2 $h3); cold=($c0 $c1 $c2 $c3)
        echo "BENCHJ coldprec ${cold[$N]} ${hot[$N]} $((c0 + c1 + c2 + c3))"
    fi
    kill $h; wait $h 2>/dev/null || true
done
fi
exit 0
GUEST
sed -i "s/@ROUNDS@/$ROUNDS/; s/@PARTS@/${BENCH_PARTS:-8x64 1g 1g-jobs cold}/; s/@COLDRUNS@/${BENCH_COLD_RUNS:-3}/" "$work/share/run.sh"
incomplete=0
"$VM/run.sh" -i "$work/initrd.gz" -S "$work/share" --ram-node 1536M -m 2560M --timeout "${BENCH_TIMEOUT:-10800}" >/dev/null ||
    incomplete=1
grep -aE '^BENCH(J|FAIL)? ' "$work/share/console.log" | tr -d '\r' > "$work/results" || { tail -20 "$work/share/console.log"; exit 1; }
(( incomplete )) && echo "migrate.sh: the guest did not finish (time out?): what follows is what it measured" >&2
cp "$work/results" "${BENCH_RESULTS:-/dev/null}" 2>/dev/null || true
awk '
function sort(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
function stat(k,   a, n, i) { n = cnt[k]; for (i = 1; i <= n; i++) a[i] = v[k, i]; sort(a, n)
    med[k] = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2; lo[k] = a[1]; hi[k] = a[n] }
function line(k, label) { if (!cnt[k]) { printf "  %-34s not measured\n", label; return } stat(k)
    printf "  %-34s median %8.3f s  min %8.3f s  max %8.3f s  (%d rounds)\n", label, med[k] / 1e6, lo[k] / 1e6, hi[k] / 1e6, cnt[k] }
function ratio(a, b, label) { if (cnt[a] && cnt[b]) { stat(a); stat(b); printf "  %-56s %.2fx\n", label, med[b] / med[a] } }
$1 == "BENCH" && $2 ~ /_/ { cnt[$2]++; v[$2, cnt[$2]] = $3 }
$1 == "BENCH" && $2 == "data" { data = $3; if (data != "intact") { fail["data"]++; nfail++; first["data"] = data } }
$1 == "BENCHFAIL" { k = $2; fail[k]++; nfail++; if (!(k in first)) { sub(/^BENCHFAIL [^ ]+ /, ""); first[k] = $0 } }
$1 == "BENCHJ" && $2 == "maxbytes" { ms += $3; mm += $4; mb += $5 }
$1 == "BENCHJ" && $2 == "cold" { cs += $3; cm += $4; cb += $5 }
$1 == "BENCHJ" && $2 == "coldprec" { pc += $3; ph += $4; pt += $5; pn++; per = per sprintf(" %.0f", $3 + $4 ? 100 * $3 / ($3 + $4) : 0) }
END {
    g = 1073741824
    print "8 processes x 64 MiB to the RAM node (TCG guest, 2 vCPUs):"
    line("8x64_cxltier", "cxltier migrate --comm (default jobs)"); line("8x64_mp_seq", "8 migratepages, one after another")
    line("8x64_mp_par", "8 migratepages at once")
    ratio("8x64_cxltier", "8x64_mp_seq", "speed of cxltier / sequential migratepages (ratio of medians)")
    ratio("8x64_cxltier", "8x64_mp_par", "speed of cxltier / parallel migratepages")
    print "one 1 GiB process:"
    line("1g_cxltier", "cxltier migrate (default jobs)"); line("1g_mp", "migratepages")
    ratio("1g_cxltier", "1g_mp", "speed of cxltier / migratepages")
    print "--jobs:"
    for (j = 1; j <= 4; j *= 2) { line("8x64_jobs" j, "8x64 --jobs " j); line("1g_jobs" j, "1 GiB --jobs " j) }
    best = 0
    for (j = 1; j <= 4; j *= 2) if (cnt["8x64_jobs" j] && cnt["1g_jobs" j]) { stat("8x64_jobs" j); stat("1g_jobs" j)
        if (!best || med["8x64_jobs" j] + med["1g_jobs" j] < med["8x64_jobs" best] + med["1g_jobs" best]) best = j }
    if (best) printf "  fastest here: --jobs %d  ([migrate] jobs = %d in /etc/cxltier.conf)\n", best, best
    print "selection cost:"
    line("1g_maxbytes", "1 GiB --max-bytes 2G (move_pages, 1 job)")
    if (mb) printf "  --max-bytes: scan %.1f ms/GiB, move %.1f ms/GiB: scan = %.1f %% of move\n", ms * 1e3 * g / mb, mm * 1e3 * g / mb, 100 * ms / mm
    if (cb) printf "  --cold:      scan %.1f ms/GiB, move %.1f ms/GiB: scan = %.1f %% of move\n", cs * 1e3 * g / cb, cm * 1e3 * g / cb, 100 * cs / cm
    if (pc + ph) printf "  --cold precision %.1f %%, recall %.1f %% (%d runs, 256 MiB, 25 %% hot, 3 s of DAMON; precision per run:%s %%)\n", 100 * pc / (pc + ph), 100 * pc / pt, pn, per
    if (data != "") print "data after all moves: " data
    for (k in fail) printf "%s: %d run%s failed verification (dropped); the first: %s\n", k, fail[k], fail[k] == 1 ? "" : "s", first[k]
    exit nfail > 0
}' "$work/results"
