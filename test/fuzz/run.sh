#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh BUILDDIR [SECONDS|-runs=N] - run the fuzz targets on their seed corpora
set -euo pipefail
BUILD=$1 LIMIT=${2:-20}
HERE=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$HERE"/corpus-cdat/* "$work/"
case $LIMIT in -runs=*) arg=$LIMIT ;; *) arg=-max_total_time=$LIMIT ;; esac
"$BUILD/test/fuzz/fuzz-cdat" "$arg" -max_len=4096 -print_final_stats=1 "$work" 2>&1 |
    grep -E 'stat::number_of_executed_units|Done|ERROR|SUMMARY' || true
exit "${PIPESTATUS[0]}"
