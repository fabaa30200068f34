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
# Each timed run is checked: the exit status of an untimed first run, and
# for a dry run the number of blocks planned. Prints per tree and command
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

# check TREE BLOCKS CMD STATUS WANT: a dry run planned every block
check() {
    local blocks=$2 cmd=$3 rc=$4 want=$5
    [[ $rc == "$want" ]] || { echo "scale.sh: $cmd on $blocks blocks: exit $rc, not $want: $(head -3 "$work/err")" >&2; exit 1; }
    if [[ $cmd == *--dry-run* ]] && ! grep -q "dry run: [0-9]* of $blocks blocks would change" "$work/err"; then
        echo "scale.sh: $cmd on $blocks blocks: not $blocks blocks planned: $(cat "$work/err")" >&2; exit 1
    fi
}

"$HERE/mkfixture-cxl.sh" "$work/tiny" 8
declare -A base want
for cmd in "${CMDS[@]}"; do
    read -r _ rss rc < <(run "$work/tiny" "$cmd")
    base[$cmd]=$rss
done
for b in "${SIZES[@]}"; do
    echo "generating $b blocks" >&2
    "$HERE/mkfixture-cxl.sh" "$work/t$b" "$b"
    for cmd in "${CMDS[@]}"; do
        read -r _ _ rc < <(run "$work/t$b" "$cmd")
        want[$b $cmd]=$rc
    done
done

declare -A times rss
ncmd=${#CMDS[@]}
for ((r = 0; r < ROUNDS; r++)); do
    echo "round $((r + 1))/$ROUNDS" >&2
    for ((k = 0; k < ncmd; k++)); do
        cmd=${CMDS[(r + k) % ncmd]}
        for b in "${SIZES[@]}"; do
            read -r us kb rc < <(run "$work/t$b" "$cmd")
            check "$work/t$b" "$b" "$cmd" "$rc" "${want[$b $cmd]}"
            times[$b $cmd]+="$us "
            rss[$b $cmd]=$kb
        done
    done
done

# stat "US US ...": median min max in seconds
stat() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | awk '{v[NR]=$1} END {printf "%.3f %.3f %.3f\n", v[int((NR+1)/2)]/1e6, v[1]/1e6, v[NR]/1e6}'; }

printf '%-30s %8s %8s %8s %8s %9s %10s\n' COMMAND BLOCKS MEDIAN MIN MAX /LSMEM RSS/BLOCK
declare -A med least
for cmd in "${CMDS[@]}"; do
    for b in "${SIZES[@]}"; do
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
        printf '%-30s %6.2f %6.2f\n' "$cmd" "$(echo "${med[131072 $cmd]} / ${med[32768 $cmd]}" | bc -l)" \
            "$(echo "${least[131072 $cmd]} / ${least[32768 $cmd]}" | bc -l)"
    done
fi
