#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# migrate.sh BUILDDIR [MiB] [ROUNDS] - whole-process migration between node 0
# and a cpu-less RAM node in the guest, side by side in one run:
# `cxltier migrate` vs numactl's `migratepages`, and a plain memcpy of the
# same bytes (the copy limit). Prints MB/s and ratios.
set -euo pipefail
BUILD=$(realpath "${1:-build}") MIB=${2:-256} ROUNDS=${3:-4}
HERE=$(cd "$(dirname "$0")" && pwd)
VM=$HERE/../vm
"$VM/fetch.sh" >/dev/null
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/share"
"$VM/mkinitramfs.sh" -o "$work/initrd.gz" -a "$BUILD/cxltier:/usr/bin/cxltier" -a "$BUILD/test/hog:/usr/bin/hog"
cat > "$work/share/run.sh" <<GUEST
us() { local t=\$EPOCHREALTIME; echo \$(( 10#\${t/./} )); }
N=\$(for n in /sys/devices/system/node/node*; do [ -z "\$(cat \$n/cpulist)" ] && grep -q 'MemTotal: *[1-9]' \$n/meminfo && basename \$n | sed 's/node//'; done | head -1)
# warm the RAM node: the first touch of guest RAM is slow under TCG
numactl --membind=\$N hog $((MIB + 64)) > /tmp/w & w=\$!; sleep 0.5; while ! grep -q ready /tmp/w; do sleep 0.2; done; kill \$w; wait \$w
coproc HOG { exec numactl --membind=0 hog $MIB; }
read -r line <&"\${HOG[0]}"
migratepages \$HOG_PID 0 \$N; migratepages \$HOG_PID \$N 0     # warm both paths once
c=0; m=0
for ((i = 0; i < $ROUNDS; i++)); do
    t0=\$(us); cxltier migrate --pid \$HOG_PID --to \$N >/dev/null; t1=\$(us)
    cxltier migrate --pid \$HOG_PID --to 0 >/dev/null; t2=\$(us)
    migratepages \$HOG_PID 0 \$N; t3=\$(us)
    migratepages \$HOG_PID \$N 0; t4=\$(us)
    c=\$(( c + t1 - t0 + t2 - t1 )); m=\$(( m + t3 - t2 + t4 - t3 ))
done
kill -USR1 \$HOG_PID; read -r check <&"\${HOG[0]}"
echo "BENCH cxltier_us \$(( c / (2 * $ROUNDS) ))"
echo "BENCH migratepages_us \$(( m / (2 * $ROUNDS) ))"
echo "BENCH data \$check"
numactl --membind=0 hog --memcpy $MIB | sed 's/^/BENCH /'
kill \$HOG_PID
# --cold on a known hot set: 25 % of 64 MiB read in a loop
coproc HOT { exec numactl --membind=0 hog --hot 25 64; }
read -r _ <&"\${HOT[0]}"; read -r _ <&"\${HOT[0]}"
cxltier migrate --pid \$HOT_PID --to \$N --cold --interval 3 >/dev/null 2>&1
kill -USR2 \$HOT_PID
read -r _ h0 h1 h2 h3 _ <&"\${HOT[0]}"; read -r _ c0 c1 c2 c3 _ <&"\${HOT[0]}"
hot=(\$h0 \$h1 \$h2 \$h3); cold=(\$c0 \$c1 \$c2 \$c3)
echo "BENCH cold_moved \${cold[\$N]}"; echo "BENCH hot_moved \${hot[\$N]}"; echo "BENCH cold_total \$((c0 + c1 + c2 + c3))"
kill \$HOT_PID
GUEST
"$VM/run.sh" -i "$work/initrd.gz" -S "$work/share" --ram-node $((MIB * 2 + 256))M -m 2G >/dev/null || { tail -20 "$work/share/console.log"; exit 1; }
awk -v mib="$MIB" '/^BENCH /{v[$2]=$3} END {
    c = mib * 1.048576 / (v["cxltier_us"] / 1e6); m = mib * 1.048576 / (v["migratepages_us"] / 1e6)
    printf "whole-process migration of %d MiB between node 0 and a RAM node (TCG guest, mean of both directions):\n", mib
    printf "  cxltier migrate   %8.1f MB/s\n  migratepages      %8.1f MB/s\n  memcpy            %8.1f MB/s\n", c, m, v["memcpy_mbps"]
    printf "  cxltier / migratepages: %.2fx   cxltier / memcpy: %.2fx   data after all moves: %s\n", c / m, c / v["memcpy_mbps"], v["data"]
    p = v["cold_moved"] / (v["cold_moved"] + v["hot_moved"]); r = v["cold_moved"] / v["cold_total"]
    printf "--cold on a 64 MiB process with a 25 %% hot set (3 s of DAMON): precision %.1f %%, recall %.1f %%\n", 100 * p, 100 * r
}' "$work/share/console.log"
