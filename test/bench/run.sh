#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh BUILDDIR [ROUNDS] [BATCH] - the start-up cost of `cxltier run`
# against numactl's, the same child under the same policy:
#   cxltier   cxltier run --node 0 --interleave -- CHILD
#   numactl   numactl --interleave=0 CHILD
#   cxltier-w cxltier run --node 0 --weighted -- CHILD      (when numactl has
#   numactl-w numactl --weighted-interleave=0 CHILD          --weighted-interleave:
#                                                             2.0.18+, Debian 13)
#   bare      CHILD alone (the floor both stand on)
# CHILD is `cat /proc/self/numa_maps`: each run is verified by the policy
# the child reports for its first mapping ("interleave:0", "weighted
# interleave:0"; "default" for bare) and its exit status. After one untimed
# run of each side, ROUNDS (default 15, at least 7) alternating rounds, the
# order rotating from round to round; a round times BATCH (default 20) runs
# of a side back to back, and counts their mean (a start-up is a millisecond
# or less: one run is below the noise of a shared host), in wall time and in
# CPU time (user + system of the batch's processes, from getrusage through
# bash's `times`: what a run costs whatever else the host runs). Prints
# median, min and max per side (ms a run), the ratios of medians cxltier /
# numactl with the ratios of the minima and of the maxima, and whether the
# goal (ratio of the CPU medians at most 1.1; the wall one is shown) was met;
# with each ratio, the same above bare (the shell, the pipe and the child,
# which every side pays, taken off: cxltier's and numactl's own cost).
# Exit 1 when the goal was missed or any run failed verification.
set -euo pipefail
BUILD=$(realpath "${1:-build}") ROUNDS=${2:-15} BATCH=${3:-20}
(( ROUNDS >= 7 )) || { echo "run.sh: at least 7 rounds" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
X=$BUILD/cxltier GOAL=1.1
command -v numactl >/dev/null || { echo "run.sh: numactl is needed (apt-get install numactl)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export CXLTIER_NO_MAN=1

SIDES=(cxltier numactl bare)
if numactl --help 2>&1 | grep -q weighted; then
    SIDES+=(cxltier-w numactl-w)
else
    echo "run.sh: this numactl has no --weighted-interleave (2.0.18+): interleave alone" >&2
fi
declare -A want=([cxltier]=" interleave:0 " [numactl]=" interleave:0 " [bare]=" default "
                 [cxltier-w]=" weighted interleave:0 " [numactl-w]=" weighted interleave:0 ")

side() {
    case $1 in
        cxltier) "$X" run --node 0 --interleave -- cat /proc/self/numa_maps ;;
        numactl) numactl --interleave=0 cat /proc/self/numa_maps ;;
        cxltier-w) "$X" run --node 0 --weighted -- cat /proc/self/numa_maps ;;
        numactl-w) numactl --weighted-interleave=0 cat /proc/self/numa_maps ;;
        bare) cat /proc/self/numa_maps ;;
    esac
}
# one batch of a side: every run's first line kept, then checked
batch() {
    local i
    for ((i = 0; i < BATCH; i++)); do
        side "$1" 2>> "$work/err" | head -1 >> "$work/first" || echo "exit ${PIPESTATUS[0]}" >> "$work/first"
    done
}
# verify SIDE: says why a run of the batch in $work/first is wrong, status 1
verify() {
    local n
    n=$(grep -c -F -- "${want[$1]}" "$work/first" || true)
    (( n == BATCH )) || { echo "$((BATCH - n)) of $BATCH runs without '${want[$1]}': $(grep -v -m1 -F -- "${want[$1]}" "$work/first")"; return 1; }
}

# the CPU time of the children that ended, in µs (user + system), from a
# file bash's `times` wrote (in this shell: a subshell's children are its own)
cpu_us() {
    awk 'function us(t, m) { m = t; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", t); sub(/s$/, "", t); return (m * 60 + t) * 1e6 }
        NR == 2 { printf "%d\n", us($1) + us($2) }' "$1"
}

for s in "${SIDES[@]}"; do side "$s" > /dev/null 2>&1 || true; done   # warm up
declare -A times cpu fails first
for ((r = 0; r < ROUNDS; r++)); do
    for ((k = 0; k < ${#SIDES[@]}; k++)); do
        s=${SIDES[(r + k) % ${#SIDES[@]}]}
        : > "$work/first"; : > "$work/err"
        times > "$work/times0"
        t0=$EPOCHREALTIME
        batch "$s"
        t1=$EPOCHREALTIME
        times > "$work/times1"
        c0=$(cpu_us "$work/times0") c1=$(cpu_us "$work/times1")
        if why=$(verify "$s"); then
            times[$s]+="$(( (10#${t1/./} - 10#${t0/./}) / BATCH )) "
            cpu[$s]+="$(( (c1 - c0) / BATCH )) "
        else
            fails[$s]=$(( ${fails[$s]:-0} + 1 )); first[$s]=${first[$s]:-round $((r + 1)): $why}
        fi
    done
done

# the table and the ratios, from "SIDE US US ..." lines (µs a run)
cat > "$work/main.awk" <<'AWK'

    # "KIND SIDE US US ...": KIND wall or cpu
    { s = $1 " " $2; $1 = $2 = ""; m[s] = median($0) / 1e3; l[s] = lo / 1e3; h[s] = hi / 1e3; n[s] = NF - 2; if ($0 ~ /^wall/ || !seen[s]++) order[++k] = s }
    function ratio(kind, a, b, tag,   r) {
        a = kind " " a; b = kind " " b
        if (!n[a] || !n[b]) return
        r = m[a] / m[b]
        printf "  %s / %s: ratio of medians %.3fx (of minima %.3fx, of maxima %.3fx)\n", a, b, r, l[a] / l[b], h[a] / h[b]
        if (n[kind " bare"] && m[b] > m[kind " bare"])   # the shell, pipe and child every side pays, taken off
            printf "    above bare: %.3f against %.3f ms, %.3fx\n", m[a] - m[kind " bare"], m[b] - m[kind " bare"],
                   (m[a] - m[kind " bare"]) / (m[b] - m[kind " bare"])
        if (tag) { printf "  goal (%s, at most %.1fx): %s\n", kind, goal, r <= goal ? "met" : "MISSED"; missed += r > goal }
    }
    END {
        printf "cxltier run start-up, %d alternating rounds of %d runs (ms a run; cpu: user + system):\n", rounds, batch
        printf "  %-14s %9s %9s %9s\n", "", "median", "min", "max"
        for (i = 1; i <= k; i++) { s = order[i]; if (n[s]) printf "  %-14s %9.3f %9.3f %9.3f\n", s, m[s], l[s], h[s]; else printf "  %-14s no round verified\n", s }
        ratio("wall", "cxltier", "numactl", 0); ratio("cpu", "cxltier", "numactl", 1)
        ratio("wall", "cxltier-w", "numactl-w", 0); ratio("cpu", "cxltier-w", "numactl-w", 0)
        exit missed ? 1 : 0
    }
AWK
{ for s in "${SIDES[@]}"; do echo "wall $s ${times[$s]:-}"; done
  for s in "${SIDES[@]}"; do echo "cpu $s ${cpu[$s]:-}"; done; } |
    awk -v rounds="$ROUNDS" -v batch="$BATCH" -v goal="$GOAL" -f "$HERE/median.awk" -f "$work/main.awk" || bad=1
for s in "${SIDES[@]}"; do
    if [[ -n ${fails[$s]:-} ]]; then
        printf '%s: %d round%s failed verification (dropped); the first: %s\n' "$s" "${fails[$s]}" \
            "$( ((fails[$s] == 1)) || echo s)" "${first[$s]}"
        bad=1
    fi
done
exit ${bad:-0}
