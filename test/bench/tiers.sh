#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tiers.sh BUILDDIR [ROUNDS] - how long `cxltier tiers` takes, four sides:
#   table    cxltier tiers     on a synthetic tree with 8 nodes and 1,000
#   json     cxltier tiers -j  memory blocks (mkfixture-large.sh); goal:
#                              the median under 50 ms, each
#   cxltier  cxltier tiers     on this machine, side by side with
#   numactl  numactl -H        (the peer that shows the SLIT matrix)
# After one untimed run of each, ROUNDS (default 15, at least 7) alternating
# rounds: each round times each side once, in an order that rotates from
# round to round. Every run is verified: exit status 0, and its output names
# every node (the fixture's 8, this machine's as /sys has them: rows of the
# table, .nodes of the JSON, numactl's "available: N nodes"). A run that
# fails is dropped from the medians and counted ("table: 2 runs failed
# verification (dropped)"). Prints median, min and max per side (ms), the
# ratio of medians cxltier / numactl -H, and whether the goal was met.
# Exit 1 when the goal was missed or any run failed verification.
set -euo pipefail
BUILD=$(realpath "${1:-build}") ROUNDS=${2:-15}
(( ROUNDS >= 7 )) || { echo "tiers.sh: at least 7 rounds" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
X=$BUILD/cxltier GOAL_MS=50
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$HERE/mkfixture-large.sh" "$work/root" 8 1000
export CXLTIER_NO_MAN=1

SIDES=(table json)
command -v numactl >/dev/null && SIDES+=(cxltier numactl) ||
    echo "tiers.sh: no numactl here: the fixture's sides alone" >&2
here_nodes=$(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' | wc -l)
declare -A label=([table]="cxltier tiers (fixture)" [json]="cxltier tiers -j (fixture)"
                  [cxltier]="cxltier tiers" [numactl]="numactl -H")

run() {
    case $1 in
        table) "$X" --sysroot "$work/root" tiers ;;
        json) "$X" --sysroot "$work/root" tiers -j ;;
        cxltier) "$X" tiers ;;
        numactl) numactl -H ;;
    esac
}
# rows FILE: the node rows of the first table of `cxltier tiers`
rows() { awk 'NR > 1 && NF == 0 { exit } NR > 1 && $1 ~ /^[0-9]+$/ { n++ } END { print n + 0 }' "$1"; }
# verify SIDE STATUS: says why the run in $work/out is wrong, status 1
verify() {
    local n err
    err=$(head -c 200 "$work/err" | tr "\n" " ")
    (( $2 == 0 )) || { echo "exit status $2${err:+: $err}"; return 1; }
    case $1 in
        table) n=$(rows "$work/out"); (( n == 8 )) || { echo "$n node rows, not 8"; return 1; } ;;
        json) n=$(jq '.nodes | length' "$work/out" 2>/dev/null) || n="no JSON:"
              [[ $n == 8 ]] || { echo "$n nodes in the JSON, not 8"; return 1; } ;;
        cxltier) n=$(rows "$work/out"); (( n == here_nodes )) || { echo "$n node rows, not $here_nodes"; return 1; } ;;
        numactl) grep -q "^available: $here_nodes nodes" "$work/out" ||
                     { echo "$(head -1 "$work/out"), not $here_nodes nodes"; return 1; } ;;
    esac
}

for s in "${SIDES[@]}"; do run "$s" > "$work/out" 2> "$work/err" || true; done   # warm up
declare -A times fails first
for ((r = 0; r < ROUNDS; r++)); do
    for ((k = 0; k < ${#SIDES[@]}; k++)); do
        s=${SIDES[(r + k) % ${#SIDES[@]}]}
        rc=0
        t0=$EPOCHREALTIME
        run "$s" > "$work/out" 2> "$work/err" || rc=$?
        t1=$EPOCHREALTIME
        if why=$(verify "$s" $rc); then
            times[$s]+="$(( 10#${t1/./} - 10#${t0/./} )) "
        else
            fails[$s]=$(( ${fails[$s]:-0} + 1 )); first[$s]=${first[$s]:-round $((r + 1)): $why}
        fi
    done
done

# stat "US US ...": median min max in ms (nothing when no run)
stat() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n |
    awk '{ v[NR] = $1 } END { if (NR) printf "%.2f %.2f %.2f\n", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1e3, v[1] / 1e3, v[NR] / 1e3 }'; }
declare -A med
line() {
    local m lo hi
    read -r m lo hi < <(stat "${times[$1]:-}") || true
    if [[ -n ${m:-} ]]; then
        med[$1]=$m
        printf '  %-28s %9s %9s %9s\n' "${label[$1]}" "$m" "$lo" "$hi"
    else
        printf '  %-28s no run verified\n' "${label[$1]}"
    fi
}
bad=0
echo "cxltier tiers, $ROUNDS alternating rounds (ms):"
printf '  %-28s %9s %9s %9s\n' "" median min max
echo " on 8 nodes / 1000 blocks:"
line table; line json
if [[ -n ${med[table]:-} && -n ${med[json]:-} ]] &&
   (( $(echo "${med[table]} < $GOAL_MS && ${med[json]} < $GOAL_MS" | bc) )); then
    echo "  goal (median under $GOAL_MS ms, table and json): met"
else
    echo "  goal (median under $GOAL_MS ms, table and json): MISSED"; bad=1
fi
if [[ " ${SIDES[*]} " == *" numactl "* ]]; then
    echo " this machine ($here_nodes node$( ((here_nodes == 1)) || echo s)):"
    line cxltier; line numactl
    [[ -n ${med[cxltier]:-} && -n ${med[numactl]:-} ]] &&
        printf '  ratio of medians: cxltier tiers / numactl -H %.2fx\n' "$(echo "${med[cxltier]} / ${med[numactl]}" | bc -l)"
fi
for s in "${SIDES[@]}"; do
    if [[ -n ${fails[$s]:-} ]]; then
        printf '%s: %d run%s failed verification (dropped); the first: %s\n' "$s" "${fails[$s]}" \
            "$( ((fails[$s] == 1)) || echo s)" "${first[$s]}"
        bad=1
    fi
done
exit $bad
