#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# events-store-soak.sh BUILDDIR [ROUNDS] - the event store over a long life
# (events-store.sh --soak), on this machine: the library driven as the
# follower drives it (test/bench/store-soak.c) and cxltier reading the
# stores it leaves. The records: two devices with serial 0 (a captured tree's
# mem0 and mem1, interleaved in one region), mem1's clock two days behind;
# a tenth of them on one page of mem0, the rest over 200,000 pages, one in a
# hundred with the device's threshold flag; the host's time half a second
# apart. Four parts:
#   soak     1,000,000 records through a store of 64 MiB in batches of 1000,
#            each weighed for retirement at its host time; then every bound
#            and count checked (the budget held after every flush, every
#            record written once and counted, what is kept what arrived
#            last, the decisions and counters bounded, the two devices told
#            apart, the clock told once, the stuck page decided on)
#   cost     the follower's cost per record (add, flush, weighing) with
#            10,000 and with 1,000,000 records stored (no size bound):
#            ROUNDS batches of 2000 at each; goal: medians at most 1.2x apart
#            (wall time; STORE_SOAK_CLOCK=cpu: the process's CPU time, for a
#            machine others load, where the wall's counts their turns too)
#   rss      `events --history -j`'s peak RSS on a full 256 MiB store
#            (store-max-size's default), ROUNDS runs; goal: at most 64 MiB
#   summary  `events --history --summary -j`'s time on 20,000 and on 200,000
#            pages, ROUNDS runs each, in turns
# Every timed run is verified (cost: each batch written whole and weighed;
# rss: as many records printed as the store holds; summary: the pages the
# store has, counted), or counted as failed and dropped. Prints median, min
# and max per side and the ratios of medians; exit 1 when a goal was missed
# or anything failed.
set -euo pipefail
BUILD=$(realpath "${1:-build}") ROUNDS=${2:-9}
(( ROUNDS >= 7 )) || { echo "events-store-soak.sh: at least 7 rounds" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
X=$BUILD/cxltier SOAK=$BUILD/test/store-soak
work=${BENCH_WORK:-$(mktemp -d)}; [[ -n ${BENCH_WORK:-} ]] || trap 'rm -rf "$work"' EXIT
export CXLTIER_NO_MAN=1
bad=0

# the captured tree, its memdevs of serial 0, with /proc/kpageflags
root=$work/root
mkdir -p "$root" && tar xzf "$HERE/../fixtures/lab-two-devices-interleaved.tar.gz" -C "$root"
for m in mem0 mem1; do echo 0x0 > "$(realpath "$root/sys/bus/cxl/devices/$m")/serial"; done
python3 -c "f = open('$root/proc/kpageflags', 'wb'); f.seek(0x190000000 // 4096 * 8); f.write(bytes(8))"
mkdir -m 700 "$work/s"

# stat "N N ...": median min max
stat() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n |
    awk '{ v[NR] = $1 } END { if (NR) printf "%.2f %.2f %.2f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'; }
line() { local m; read -r -a m <<<"$(stat "$2")"; printf '  %-52s %10s %10s %10s %s\n' "$1" "${m[0]:--}" "${m[1]:--}" "${m[2]:--}" "$3"; }
median() { stat "$1" | cut -d' ' -f1; }

echo "== soak: 1,000,000 records, 64 MiB"
"$SOAK" soak "$root" "$work/s/soak.db" 1000000 200000 64 | tee "$work/soak.out" | sed 's/^SOAK /  /'
grep -q '^SOAK fail' "$work/soak.out" && bad=1
rm -f "$work/s/soak.db"*

echo "== cost: the follower's ns a record (add, flush, weighing), batches of 2000"
declare -A cost
for size in 10000 1000000; do
    rm -f "$work/s/cost.db"*
    if "$SOAK" cost "$root" "$work/s/cost.db" $size "$ROUNDS" 2000 > "$work/cost.out"; then
        cost[$size]=$(awk '/^COST [0-9]/ { printf "%s ", $4 }' "$work/cost.out")
    else
        echo "  failed: $(grep -m1 'COST fail' "$work/cost.out" || tail -1 "$work/cost.out")"; bad=1
    fi
done
rm -f "$work/s/cost.db"*
printf '  %-52s %10s %10s %10s\n' "" median min max
line "10,000 records stored" "${cost[10000]:-}" ns
line "1,000,000 records stored" "${cost[1000000]:-}" ns
if [[ -n ${cost[10000]:-} && -n ${cost[1000000]:-} ]]; then
    r=$(awk -v a="$(median "${cost[1000000]}")" -v b="$(median "${cost[10000]}")" 'BEGIN { printf "%.2f", a / b }')
    echo "  ratio of medians (1,000,000 / 10,000): $r (goal: at most 1.20)"
    awk -v r="$r" 'BEGIN { exit !(r <= 1.2) }' || bad=1
fi

echo "== rss: events --history -j on a full 256 MiB store"
"$SOAK" fill "$work/s/full.db" 500000 200000 256
rows=$(sqlite3 "$work/s/full.db" 'SELECT count(*) FROM records')
used=$(sqlite3 "$work/s/full.db" 'SELECT (SELECT page_count FROM pragma_page_count()) - (SELECT freelist_count FROM pragma_freelist_count())')
echo "  the store: $rows records, $(( used * 4096 >> 20 )) MiB of pages in use"
rss=
for ((r = 0; r < ROUNDS; r++)); do
    n=$( { /usr/bin/time -f %M -o "$work/rss" "$X" events --history --store-path "$work/s/full.db" -j |
           grep -c '"fields": {'; } 2>/dev/null || true)
    if [[ $n == "$rows" ]]; then rss+="$(( $(cat "$work/rss") / 1024 )) "
    else echo "  failed: round $r printed $n records, not $rows"; bad=1; fi
done
printf '  %-52s %10s %10s %10s\n' "" median min max
line "peak RSS" "$rss" MiB
[[ -n $rss ]] && { awk -v m="$(median "$rss")" 'BEGIN { printf "  the median against the goal of 64 MiB: %.2f\n", m / 64; exit !(m <= 64) }' || bad=1; }
rm -f "$work/s/full.db"*

echo "== summary: events --history --summary -j"
declare -A t
for p in 20000 200000; do "$SOAK" fill "$work/s/p$p.db" $(( p * 2 )) $p 0; done
for ((r = 0; r < ROUNDS; r++)); do
    for p in $( ((r % 2)) && echo "200000 20000" || echo "20000 200000"); do
        want=$(sqlite3 "$work/s/p$p.db" 'SELECT count(*) FROM (SELECT DISTINCT device, page FROM records WHERE page IS NOT NULL)')
        t0=$EPOCHREALTIME
        got=$("$X" events --history --summary --store-path "$work/s/p$p.db" -j | jq '.summary.corrected_pages_total') || got=
        t1=$EPOCHREALTIME
        if [[ $got == "$want" ]]; then t[$p]+="$(( (10#${t1/./} - 10#${t0/./}) / 1000 )) "
        else echo "  failed: $p pages: the summary counts ${got:-none}, the store has $want"; bad=1; fi
    done
done
printf '  %-52s %10s %10s %10s\n' "" median min max
line "20,000 pages ($(( 20000 * 2 )) records)" "${t[20000]:-}" ms
line "200,000 pages ($(( 200000 * 2 )) records)" "${t[200000]:-}" ms
[[ -n ${t[20000]:-} && -n ${t[200000]:-} ]] &&
    awk -v a="$(median "${t[200000]}")" -v b="$(median "${t[20000]}")" \
        'BEGIN { printf "  ratio of medians (200,000 / 20,000 pages): %.2f (ten times the pages)\n", a / b }'
exit $bad
