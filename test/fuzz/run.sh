#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh BUILDDIR [SECONDS|-runs=N] - run the fuzz targets on their seed corpora
set -euo pipefail
BUILD=$1 LIMIT=${2:-20}
HERE=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case $LIMIT in -runs=*) arg=$LIMIT ;; *) arg=-max_total_time=$LIMIT ;; esac
rc=0
for t in cdat:4096 event:1024; do
    name=${t%%:*}
    mkdir -p "$work/$name"
    cp "$HERE/corpus-$name"/* "$work/$name/"
    "$BUILD/test/fuzz/fuzz-$name" "$arg" -max_len="${t#*:}" -print_final_stats=1 "$work/$name" 2>&1 |
        grep -E 'stat::number_of_executed_units|Done|ERROR|SUMMARY' || true
    [[ ${PIPESTATUS[0]} == 0 ]] || rc=1
done
exit $rc
