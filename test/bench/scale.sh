#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scale.sh [BUILDDIR] [ROUNDS] [BLOCKS...] - every command on machines of
# 1, 4 and 16 TiB of CXL memory in 128 MiB blocks (8 192, 32 768 and
# 131 072 blocks, one region: test/bench/mkfixture-cxl.sh), beside
# `lsmem --summary=only` on the same trees:
#   read-only  list, list -j, list --summary, tiers, doctor, metrics
#   dry runs   online/offline --dry-run -j of region0, node1 and all
# ROUNDS (default 7, at least 7) alternating rounds: each round runs every
# command once on every tree, in an order that rotates from round to round.
# One untimed run of each first. Every timed run is verified: exit status 0,
# output on stdout, and what it says of the tree: the block count in list's
# outputs, for a dry run every block planned ("of BLOCKS blocks"), lsmem's
# total online memory. A run that fails is dropped from the medians and
# counted ("list -j on 8192 blocks: 2 runs failed verification (dropped)");
# then the bench exits 1. Prints per tree and command
# the median, min and max seconds, the ratio of the median to lsmem's, the
# peak RSS (/usr/bin/time) less the RSS of the same command on a tiny tree,
# per block; then the growth of the median from 32 768 to 131 072 blocks
# (linear: 4) and of the minimum. Trees go to $BENCH_WORK, else a directory in /dev/shm.
# Not a test: the growth is held by test/cli/scale.bats, in instructions.
set -euo pipefail
BUILD=$(realpath "${1:-build}") ROUNDS=${2:-7}
shift 2 2>/dev/null || shift $#
SIZES=("$@"); [[ ${#SIZES[@]} -gt 0 ]] || SIZES=(8192 32768 131072)
(( ROUNDS >= 7 )) || { echo "scale.sh: at least 7 rounds" >&2; exit 2; }
X=${CXLTIER:-$BUILD/cxltier}
HERE=$(cd "$(dirname "$0")" && pwd)
work=${BENCH_WORK:-$(mktemp -d /dev/shm/cxltier-scale.XXXXXX)}
[[ -n ${BENCH_WORK:-} ]] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
export CXLTIER_NO_MAN=1

CMDS=("list" "list -j" "list --summary" "tiers" "doctor" "metrics"
      "online region0 --dry-run -j" "offline region0 --dry-run -j"
      "online node1 --dry-run -j" "offline node1 --dry-run -j"
      "online all --dry-run -j" "offline all --dry-run -j" "lsmem")

# run TREE CMD: one run; "SECONDS RSS_KB STATUS" on stdout
run() {
    local root=$1 cmd=$2 t0 t1 rc=0 args
    read -ra args <<<"$cmd"
    t0=$EPOCHREALTIME
    if [[ $cmd == lsmem ]]; then
        /usr/bin/time -f %M -o "$work/rss" lsmem --sysroot "$root" --summary=only > "$work/out" 2> "$work/err" || rc=$?
    else
        /usr/bin/time -f %M -o "$work/rss" "$X" --sysroot "$root" "${args[@]}" > "$work/out" 2> "$work/err" || rc=$?
    fi
    t1=$EPOCHREALTIME
    echo "$(echo "${t1/./} - ${t0/./}" | bc) $(tail -1 "$work/rss") $rc"
}

# check BLOCKS CMD STATUS: the run in $work/out and err is right; else says why, status 1
check() {
    local blocks=$1 cmd=$2 rc=$3 err
    (( rc == 0 )) || { err=$(head -c 200 "$work/err" | tr "\n" " "); echo "exit status $rc${err:+: $err}"; return 1; }
    [[ -s $work/out ]] || { echo "nothing on stdout"; return 1; }
    case $cmd in
        *--dry-run*) grep -q "dry run: [0-9]* of $blocks blocks would change" "$work/err" ||
                         { echo "not $blocks blocks planned: $(head -c 200 "$work/err")"; return 1; } ;;
        "list -j") grep -q "\"total\": $blocks," "$work/out" || { echo "no total of $blocks blocks"; return 1; } ;;
        list*) grep -qw -- "$blocks" "$work/out" || { echo "no $blocks blocks"; return 1; } ;;
        lsmem) grep -q "^Total online memory: *[1-9]" "$work/out" || { echo "no online memory"; return 1; } ;;
    esac
}

"$HERE/mkfixture-cxl.sh" "$work/tiny" 8
declare -A base
for cmd in "${CMDS[@]}"; do
    read -r _ rss rc < <(run "$work/tiny" "$cmd")
    base[$cmd]=$rss
done
for b in "${SIZES[@]}"; do
    echo "generating $b blocks" >&2
    "$HERE/mkfixture-cxl.sh" "$work/t$b" "$b"
    for cmd in "${CMDS[@]}"; do run "$work/t$b" "$cmd" >/dev/null; done
done

declare -A times rss fails first
ncmd=${#CMDS[@]}
for ((r = 0; r < ROUNDS; r++)); do
    echo "round $((r + 1))/$ROUNDS" >&2
    for ((k = 0; k < ncmd; k++)); do
        cmd=${CMDS[(r + k) % ncmd]}
        for b in "${SIZES[@]}"; do
            read -r us kb rc < <(run "$work/t$b" "$cmd")
            if why=$(check "$b" "$cmd" "$rc"); then
                times[$b $cmd]+="$us "
                rss[$b $cmd]=$kb
            else
                fails[$b $cmd]=$(( ${fails[$b $cmd]:-0} + 1 ))
                first[$b $cmd]=${first[$b $cmd]:-round $((r + 1)): $why}
            fi
        done
    done
done

# stat "US US ...": median min max in seconds
stat() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | awk '{v[NR]=$1} END {printf "%.3f %.3f %.3f\n", v[int((NR+1)/2)]/1e6, v[1]/1e6, v[NR]/1e6}'; }

printf '%-30s %8s %8s %8s %8s %9s %10s\n' COMMAND BLOCKS MEDIAN MIN MAX /LSMEM RSS/BLOCK
declare -A med least
for cmd in "${CMDS[@]}"; do
    for b in "${SIZES[@]}"; do
        if [[ -z ${times[$b $cmd]:-} || -z ${times[$b lsmem]:-} ]]; then
            printf '%-30s %8d %s\n' "$cmd" "$b" "no run verified (or none of lsmem)"; continue
        fi
        read -r m lo hi < <(stat "${times[$b $cmd]}")
        med[$b $cmd]=$m least[$b $cmd]=$lo
        read -r lm _ < <(stat "${times[$b lsmem]}")
        printf '%-30s %8d %8s %8s %8s %9.2f %10.0f\n' "$cmd" "$b" "$m" "$lo" "$hi" \
            "$(echo "$m / $lm" | bc -l)" "$(echo "(${rss[$b $cmd]} - ${base[$cmd]}) * 1024 / $b" | bc -l)"
    done
done
if [[ -n ${med[32768 lsmem]:-} && -n ${med[131072 lsmem]:-} ]]; then
    echo; echo "growth 32768 -> 131072 blocks (linear: 4), of the median and of the minimum (the least disturbed run)"
    for cmd in "${CMDS[@]}"; do
        [[ -n ${med[32768 $cmd]:-} && -n ${med[131072 $cmd]:-} ]] || continue
        printf '%-30s %6.2f %6.2f\n' "$cmd" "$(echo "${med[131072 $cmd]} / ${med[32768 $cmd]}" | bc -l)" \
            "$(echo "${least[131072 $cmd]} / ${least[32768 $cmd]}" | bc -l)"
    done
fi
bad=0
for cmd in "${CMDS[@]}"; do
    for b in "${SIZES[@]}"; do
        [[ -n ${fails[$b $cmd]:-} ]] || continue
        printf '%s on %d blocks: %d run%s failed verification (dropped); the first: %s\n' "$cmd" "$b" \
            "${fails[$b $cmd]}" "$( ((fails[$b $cmd] == 1)) || echo s)" "${first[$b $cmd]}"
        bad=1
    done
done
exit $bad
