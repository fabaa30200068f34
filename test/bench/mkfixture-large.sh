#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mkfixture-large.sh DIR [NODES] [BLOCKS] - a synthetic sysfs tree shaped like
# the kernel's (same files and formats as the captured fixtures) with many
# nodes and memory blocks, for benchmarks: NODES nodes (the first half with
# CPUs), BLOCKS 128 MiB memory blocks spread over them, HMAT figures, tiers.
set -euo pipefail
D=$1 N=${2:-8} B=${3:-1000}
rm -rf "$D"; mkdir -p "$D/sys/devices/system/node" "$D/sys/devices/system/memory" \
    "$D/sys/devices/virtual/memory_tiering" "$D/sys/kernel/mm/numa" "$D/proc/sys/kernel"
S=$D/sys/devices/system
cpun=$((N / 2))
echo "0-$((N - 1))" > "$S/node/online"; echo "0-$((N - 1))" > "$S/node/possible"
echo "0-$((cpun - 1))" > "$S/node/has_cpu"; echo "0-$((N - 1))" > "$S/node/has_memory"
echo 8000000 > "$S/memory/block_size_bytes"; echo offline > "$S/memory/auto_online_blocks"
per=$(( (B + N - 1) / N ))
zi=
for ((n = 0; n < N; n++)); do
    nd=$S/node/node$n; mkdir -p "$nd"
    [[ $n -lt $cpun ]] && echo "$((2 * n))-$((2 * n + 1))" > "$nd/cpulist" || : > "$nd/cpulist"
    row=
    for ((m = 0; m < N; m++)); do
        if [[ $m == "$n" ]]; then d=10; elif (( (m < cpun) == (n < cpun) )); then d=21; else d=32; fi
        row+="${row:+ }$d"
    done
    echo "$row" > "$nd/distance"
    blocks=$(( n == N - 1 ? B - per * (N - 1) : per ))
    printf 'Node %d MemTotal:       %d kB\nNode %d MemFree:        %d kB\n' $n $((blocks * 131072)) $n $((blocks * 65536)) > "$nd/meminfo"
    for a in 0 1; do
        mkdir -p "$nd/access$a/initiators"
        lat=$(( n < cpun ? 100 : 250 )); bw=$(( n < cpun ? 20480 : 8000 ))
        for f in read_latency write_latency; do echo $lat > "$nd/access$a/initiators/$f"; done
        for f in read_bandwidth write_bandwidth; do echo $bw > "$nd/access$a/initiators/$f"; done
        [[ $n -lt $cpun ]] && ln -s "../../../node$n" "$nd/access$a/initiators/node$n"
    done
    zone=$([[ $n -lt $cpun ]] && echo Normal || echo Movable)
    zi+="Node $n, zone $zone"$'\n'"  pages free     $((blocks * 16384))"$'\n'"        present  $((blocks * 32768))"$'\n'
done
printf '%s' "$zi" > "$D/proc/zoneinfo"
for ((i = 0; i < B; i++)); do
    n=$(( i / per )); (( n < N )) || n=$((N - 1))
    b=$S/memory/memory$i; mkdir -p "$b"
    echo online > "$b/state"; echo 1 > "$b/online"; printf '%08x\n' $i > "$b/phys_index"
    [[ $n -lt $cpun ]] && echo Normal > "$b/valid_zones" || echo Movable > "$b/valid_zones"
    ln -s "../../node/node$n" "$b/node$n"; ln -s "../../memory/memory$i" "$S/node/node$n/memory$i"
done
T=$D/sys/devices/virtual/memory_tiering
mkdir -p "$T/memory_tier4" "$T/memory_tier12"
echo "0-$((cpun - 1))" > "$T/memory_tier4/nodelist"; echo "$cpun-$((N - 1))" > "$T/memory_tier12/nodelist"
echo false > "$D/sys/kernel/mm/numa/demotion_enabled"; echo 2 > "$D/proc/sys/kernel/numa_balancing"
echo 65536 > "$D/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps"
echo "6.12.0-synthetic" > "$D/proc/sys/kernel/osrelease"
