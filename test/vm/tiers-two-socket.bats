#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-args: --numa two-socket
# Two CPU nodes, a cpu-less RAM node and a CXL node: tiers, demotion and ranking.
load helper

setup_file() {
    r=$(ensure_region)
    vm_online_movable "$(vm_dax_of "$r")"
}

@test "four memory nodes, tiers as the kernel's memory_tiering says" {
    run cxltier tiers -j
    assert_success
    json=$output
    for t in /sys/devices/virtual/memory_tiering/memory_tier*; do
        id=${t##*memory_tier}
        ours=$(jq -r --argjson id "$id" '[.nodes[] | select(.memory_tier == $id) | .node] | map(tostring) | join(",")' <<<"$json")
        theirs=$(cat $t/nodelist)
        [[ $ours == "${theirs//-/,}" || $ours == "$theirs" ]] || [[ $(echo "$theirs" | grep -c -- -) == 1 && $ours == 0,1 ]]
    done
    [[ $(jq '.nodes | length' <<<"$json") == 4 ]]
}

@test "demotion targets agree with what the kernel logged, node by node" {
    run cxltier tiers -j
    json=$output
    for n in 0 1 2 3; do
        logged=$(kernel_demotion_targets "$n")
        ours=$(jq -r --argjson n "$n" '.nodes[] | select(.node == $n) | (.demotion_targets // []) | map(tostring) | join(",")' <<<"$json")
        assert_equal "$ours" "$logged"
    done
}

@test "ranking from each CPU node names its source" {
    for f in 0 1; do
        run cxltier tiers -j --from $f
        assert_success
        [[ $(jq --argjson f $f '.nodes[] | select(.node == $f) | .ranking.rank' <<<"$output") == 1 ]]
        [[ $(jq -r '[.nodes[].ranking.source] | unique | join(",")' <<<"$output") =~ ^(hmat|region|slit|cdat\+local)(,(hmat|region|slit|cdat\+local))*$ ]]
    done
}
