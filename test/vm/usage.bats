#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: ram-node
# vm-args: --ram-node 512M
# `cxltier usage` on the live kernel: a process's memory per node as
# numa_maps has it, before and after `cxltier migrate`; a cgroup's from its
# memory.numa_stat.
load helper

ram_node() {
    local n
    for n in /sys/devices/system/node/node*; do
        [[ -z $(cat $n/cpulist) ]] && grep -q 'MemTotal: *[1-9]' $n/meminfo && { basename $n | sed 's/node//'; return; }
    done
}

teardown() {
    [[ -n ${HOG:-} ]] && { kill "$HOG" 2>/dev/null; wait "$HOG" 2>/dev/null; }
    [[ -d /sys/fs/cgroup/usage-test ]] && rmdir /sys/fs/cgroup/usage-test 2>/dev/null || true
}

start_hog() { # MiB NODE [cgroup]
    local out=$BATS_TEST_TMPDIR/hog
    if [[ -n ${3:-} ]]; then
        (echo $BASHPID > "$3/cgroup.procs"; exec numactl --membind="$2" hog "$1") > "$out" 3>&- &
    else
        numactl --membind="$2" hog "$1" > "$out" 3>&- &
    fi
    HOG=$!
    wait_for 60 "hog to fill $1 MiB" grep -q ready "$out"
}

@test "a process's memory per node and tier, as numa_maps has it; migrate moves it and usage follows" {
    N=$(ram_node)
    start_hog 32 0
    run --separate-stderr cxltier usage --pid "$HOG" -j
    assert_success
    anon0=$(jq '.processes[0].nodes[] | select(.node == 0) | .anon' <<<"$output")
    (( anon0 >= 32 << 20 ))
    assert_equal "$(jq '.processes[0].bytes == ([.processes[0].tiers[].bytes] | add)' <<<"$output")" true
    run --separate-stderr cxltier migrate --pid "$HOG" --to "$N" -j
    [[ $status == 0 || $status == 64 ]]
    before=$(jq '.processes[0].before.node0' <<<"$output") after=$(jq ".processes[0].after.node$N" <<<"$output")
    run --separate-stderr cxltier usage --pid "$HOG" -j
    assert_success
    anonN=$(jq ".processes[0].nodes[] | select(.node == $N) | .anon" <<<"$output")
    (( anonN >= 32 << 20 ))
    # migrate's before/after and usage's figures come from the same place
    (( before >= 32 << 20 && after >= anonN ))
    run cxltier usage --pid "$HOG"
    assert_line --regexp "^\`-node$N +[0-9]+ +[0-9.]+M"
}

@test "a cgroup's memory per node from memory.numa_stat" {
    mkdir -p /sys/fs/cgroup
    mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
    echo +memory > /sys/fs/cgroup/cgroup.subtree_control
    mkdir -p /sys/fs/cgroup/usage-test
    start_hog 16 0 /sys/fs/cgroup/usage-test
    run --separate-stderr cxltier usage --cgroup usage-test -j
    assert_success
    anon0=$(jq '.cgroups[0].nodes[] | select(.node == 0) | .anon' <<<"$output")
    (( anon0 >= 16 << 20 ))
    want=$(awk '$1 == "anon" {for (i = 2; i <= NF; i++) if ($i ~ /^N0=/) {sub("N0=", "", $i); print $i}}' /sys/fs/cgroup/usage-test/memory.numa_stat)
    (( anon0 >= want - (1 << 20) && anon0 <= want + (1 << 20) ))
    kill "$HOG"; wait "$HOG" 2>/dev/null || true; HOG=
    run --separate-stderr cxltier usage --cgroup no-such-group
    assert_failure 1
}
