# SPDX-License-Identifier: GPL-2.0
# ram-node.bash - what the files of the ram-node boot (migrate, migrate-spread,
# weights) share: the cpu-less RAM-only node, the hog processes a test starts
# bound to node 0, and their pages per node as numa_maps counts them.

ram_node() { # the cpu-less node with memory before any CXL region exists
    local n
    for n in /sys/devices/system/node/node*; do
        [[ -z $(cat $n/cpulist) ]] && grep -q 'MemTotal: *[1-9]' $n/meminfo && { basename $n | sed 's/node//'; return; }
    done
}

hogs() { awk '$2 == "(hog)" && $3 != "Z" {print $1}' /proc/[0-9]*/stat 2>/dev/null; }

no_hogs() { [[ -z $(hogs) ]]; }

# status 0, or 64 where the only pages left behind are shared ones (EACCES:
# libc and the like, which move only with MPOL_MF_MOVE_ALL)
moved_but_shared() {
    [[ $status == 0 || ( $status == 64 && $(jq -c '[.processes[].failed_by | keys[]] | unique' <<<"$output") == '["EACCES"]' ) ]]
}

start_hog() { # [--small] MiB -> sets HOG_PID, waits for ready (--small says its "phys" first)
    coproc HOG { exec numactl --membind=0 hog "$@"; }
    read -r line <&"${HOG[0]}"
    [[ $line == phys* ]] && read -r line <&"${HOG[0]}"
    [[ $line == ready ]]
}

check_intact() {
    kill -USR1 "$HOG_PID"
    read -r line <&"${HOG[0]}"
    [[ $line == intact ]]
}

node_bytes() { # pid node (huge pages counted at their size)
    awk -v n="N$2=" '{k = 4; for (i = 1; i <= NF; i++) if ($i ~ /^kernelpagesize_kB=/) { split($i, b, "="); k = b[2] }
        for (i = 1; i <= NF; i++) if (index($i, n) == 1) { split($i, a, "="); s += a[2] * k * 1024 }} END {print s + 0}' /proc/$1/numa_maps
}

total_bytes() {
    awk '{k = 4; for (i = 1; i <= NF; i++) if ($i ~ /^kernelpagesize_kB=/) { split($i, b, "="); k = b[2] }
        for (i = 1; i <= NF; i++) if ($i ~ /^N[0-9]+=/) { split($i, a, "="); s += a[2] * k * 1024 }} END {print s + 0}' /proc/$1/numa_maps
}
