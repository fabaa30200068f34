#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh BUILDDIR [SECONDS|-runs=N] [TARGET...] - run the fuzz targets on
# copies of their seed corpora (test/fuzz/corpus-TARGET), one after another.
#   SECONDS   the whole run's budget, shared by the targets (default 20)
#   -runs=N   N executions per target (long runs)
# A crash, leak, sanitizer report or slow unit (10 s) fails the run; the
# input is kept as $CXLTIER_FUZZ_ARTIFACTS/fuzz-TARGET-crash-... (default:
# the current directory). CXLTIER_FUZZ_CORPUS=DIR keeps each target's
# grown corpus in DIR/TARGET across runs (default: a temporary copy).
set -uo pipefail
BUILD=${1:?usage: run.sh BUILDDIR [SECONDS|-runs=N] [TARGET...]}
LIMIT=${2:-20}
shift $(($# < 2 ? $# : 2))
HERE=$(cd "$(dirname "$0")" && pwd)
# target:max input length
all=(cdat:4096 event:1024 event-record:1024 event-blob:8192 change-record:2048 health:64 policy:4096 numamaps:4096 nodelist:256 time-parse:128 sysfs:2048 damon:1024)
targets=()
for t in "${all[@]}"; do
    if (($# == 0)); then targets+=("$t"); continue; fi
    for want in "$@"; do [[ ${t%%:*} == "$want" ]] && targets+=("$t"); done
done
((${#targets[@]})) || { echo "run.sh: no such target: $*" >&2; exit 2; }
case $LIMIT in
    -runs=*) limit=("$LIMIT") ;;
    *[!0-9]*|'') echo "run.sh: give SECONDS or -runs=N, not '$LIMIT'" >&2; exit 2 ;;
    *) each=$((LIMIT / ${#targets[@]})); limit=(-max_total_time=$((each ? each : 1))) ;;
esac
work=$(mktemp -d)
# the trees the structured targets build: on tmpfs when there is one, in a
# directory of this run's, which must be empty again when a target ends
trees=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d -p "$work")
trap 'rm -rf "$work" "$trees"' EXIT
export CXLTIER_FUZZ_TMPDIR=$trees
artifacts=${CXLTIER_FUZZ_ARTIFACTS:-$PWD}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
rc=0
for t in "${targets[@]}"; do
    name=${t%%:*}
    exe=$BUILD/test/fuzz/fuzz-$name
    [[ -x $exe ]] || { echo "fuzz-$name: not built (meson setup -Dfuzz=true, see test/fuzz/meson.build)"; rc=1; continue; }
    corpus=$work/$name
    [[ -n ${CXLTIER_FUZZ_CORPUS:-} ]] && corpus=$CXLTIER_FUZZ_CORPUS/$name
    mkdir -p "$corpus"
    cp -n "$HERE/corpus-$name"/* "$corpus/"
    "$exe" "${limit[@]}" -max_len="${t#*:}" -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$artifacts/fuzz-$name-" "$corpus" > "$work/$name.log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/$name.log")
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$work/$name.log" | tail -1)
    # (a target that crashed or timed out leaves it: libFuzzer ends by
    # _Exit; emptied after each target so that the next is not blamed)
    left=$(ls -A "$trees")
    rm -rf "${trees:?}"/*
    if ((status == 0)) && [[ -n $left ]]; then
        echo "fuzz-$name: left its tree behind: $trees/$left"
        status=1
    fi
    if ((status == 0)); then
        echo "fuzz-$name: ${runs:-?} runs, ${speed:-?} exec/s, ${cov:-no coverage line}: ok"
    else
        rc=1
        echo "fuzz-$name: FAILED (exit $status) after ${runs:-?} runs"
        grep -E 'ERROR|SUMMARY|runtime error|Test unit written|^ *#[0-9]+ 0x' "$work/$name.log" | head -30
    fi
done
exit $rc
