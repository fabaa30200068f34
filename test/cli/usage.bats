#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier usage` on a tree captured in the VM guest (test/vm/mkfixture-usage.sh):
# node 0 (tier 4) and a CXL node 1 (tier 8); hog 215 on node 0, hog 216
# interleaved over both, hog 217 on node 1; 215 and 216 in cgroup "db".
load helper

setup() { ROOT=$(fixture lab-usage); }

@test "every process with memory: init and the three, not kthreadd" {
    run --separate-stderr cxltier --sysroot "$ROOT" usage -j
    assert_success
    assert_equal "$(jq -c '[.processes[].comm]' <<<"$output")" '["init","hog","hog","hog"]'
    [[ $(jq 'has("cgroups")' <<<"$output") == false ]]
}

@test "per node and per tier, and the sums agree" {
    run --separate-stderr cxltier --sysroot "$ROOT" usage --comm hog -j
    assert_success
    assert_equal "$(jq '.processes | length' <<<"$output")" 3
    # every total is the sum of its nodes and of its tiers; a node's size is anon + file + huge
    assert_equal "$(jq '[.processes[] | .bytes == ([.nodes[].bytes] | add) and .bytes == ([.tiers[].bytes] | add)] | all' <<<"$output")" true
    assert_equal "$(jq '[.processes[].nodes[] | .bytes == .anon + .file + .huge] | all' <<<"$output")" true
    # the interleaved one: on both nodes, in both tiers, about half each
    assert_equal "$(jq -c '.processes[] | select(.pid == 216) | [.nodes[] | [.node, .tier]]' <<<"$output")" '[[0,4],[1,8]]'
    assert_equal "$(jq '.processes[] | select(.pid == 216) | [.nodes[].anon] | (.[0] - .[1]) | fabs < 1048576' <<<"$output")" true
    # the one bound to node 1: its 8 MiB there, tier 8
    assert_equal "$(jq '.processes[] | select(.pid == 217) | .tiers[] | select(.tier == 8) | .bytes >= 8388608' <<<"$output")" true
}

@test "a cgroup from memory.numa_stat: anon, file and kernel memory per node and tier" {
    run --separate-stderr cxltier --sysroot "$ROOT" usage --cgroup db -j
    assert_success
    assert_equal "$(jq '.cgroups | length' <<<"$output")" 1
    [[ $(jq 'has("processes")' <<<"$output") == false ]]
    anon0=$(awk '$1 == "anon" {sub("N0=", "", $2); print $2}' "$ROOT/sys/fs/cgroup/db/memory.numa_stat")
    assert_equal "$(jq '.cgroups[0].nodes[] | select(.node == 0) | .anon' <<<"$output")" "$anon0"
    assert_equal "$(jq '[.cgroups[0].nodes[] | .bytes == .anon + .file + .kernel] | all' <<<"$output")" true
    assert_equal "$(jq -c '[.cgroups[0].tiers[].tier]' <<<"$output")" '[4,8]'
    # the cgroup holds 215 and 216: its anonymous memory on node 1 is 216's
    run cxltier --sysroot "$ROOT" usage --pid 216 -j
    assert_success
    a216=$(jq '.processes[0].nodes[] | select(.node == 1) | .anon' <<<"$output")
    run cxltier --sysroot "$ROOT" usage --cgroup /sys/fs/cgroup/db -j
    assert_success
    c1=$(jq '.cgroups[0].nodes[] | select(.node == 1) | .anon' <<<"$output")
    (( c1 >= a216 - 1048576 && c1 <= a216 + 1048576 ))
}

@test "the table: a tree of processes and their nodes, tiers summed" {
    run --separate-stderr cxltier --sysroot "$ROOT" usage --pid 216 --cgroup db
    assert_success
    assert_line --regexp '^216 hog +[0-9.]+M +4:[0-9.]+M,8:[0-9.]+M$'
    assert_line --regexp '^`-node1 +8 +[0-9.]+M'
    assert_line --regexp '^db +[0-9.]+M'
    run cxltier --sysroot "$ROOT" usage --pid 216 -o NAME,SIZE -b
    assert_success
    assert_line --regexp '^216 hog +[0-9]+$'
}

@test "what cannot be read is named: exit 1 alone, 64 beside others" {
    run --separate-stderr cxltier --sysroot "$ROOT" usage --pid 999999
    assert_failure 1
    [[ $stderr == *"process 999999 does not exist"* ]]
    run --separate-stderr cxltier --sysroot "$ROOT" usage --pid 215,999999 -j
    assert_failure 64
    assert_equal "$(jq -r '.processes[1].error' <<<"$output")" "process 999999 does not exist"
    run --separate-stderr cxltier --sysroot "$ROOT" usage --cgroup nosuch
    assert_failure 1
    [[ $stderr == *"cgroup nosuch: no memory.numa_stat"*"memory controller"* ]]
}

@test "usage errors" {
    run cxltier --sysroot "$ROOT" usage --pid x
    assert_failure 2
    run cxltier --sysroot "$ROOT" usage --bogus
    assert_failure 2
    run cxltier usage --list-opts
    assert_success
    assert_line --pid=
    assert_line --cgroup=
}

@test "this machine's own processes" {
    start_sleeper; p=$SLEEPER
    run --separate-stderr cxltier usage --pid "$p" -j
    kill "$p"
    assert_success
    [[ $(jq '.processes[0].bytes' <<<"$output") -gt 0 ]]
    assert_equal "$(jq -r '.processes[0].comm' <<<"$output")" sleep
}
