#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tiers.sh BUILDDIR - how long `cxltier tiers` takes: on a synthetic tree with
# 8 nodes and 1,000 memory blocks (goal: under 50 ms), and on this machine
# side by side with `numactl -H` (the peer that shows the SLIT matrix).
set -euo pipefail
BUILD=$(realpath "${1:-build}")
HERE=$(cd "$(dirname "$0")" && pwd)
CXLTIER=$BUILD/cxltier
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$HERE/mkfixture-large.sh" "$work/root" 8 1000
ms() { # runs cmd... : mean wall ms over runs
    local runs=$1; shift
    local t0 t1
    t0=$(date +%s%N)
    for ((i = 0; i < runs; i++)); do "$@" >/dev/null; done
    t1=$(date +%s%N)
    echo "scale=2; ($t1 - $t0) / $runs / 1000000" | bc
}
"$CXLTIER" --sysroot "$work/root" tiers -j | jq -e '(.nodes | length) == 8' >/dev/null
fx=$(ms 50 "$CXLTIER" --sysroot "$work/root" tiers)
fxj=$(ms 50 "$CXLTIER" --sysroot "$work/root" tiers -j)
echo "tiers on 8 nodes / 1000 blocks: table ${fx} ms, json ${fxj} ms (goal < 50 ms)"
if command -v numactl >/dev/null; then
    a=$(ms 50 "$CXLTIER" tiers); b=$(ms 50 numactl -H)
    echo "this machine: cxltier tiers ${a} ms, numactl -H ${b} ms, ratio $(echo "scale=2; $a / $b" | bc)x"
fi
