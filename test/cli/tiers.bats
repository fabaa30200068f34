#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier tiers` on trees captured from real kernels: the lab guest with a
# CXL node (Linux 6.12 and 7.3), a two-socket guest with a cpu-less RAM node
# and a CXL node, and a single-node machine with memory tiers but no HMAT.
load helper

@test "lab: the CXL node is in a slower tier than node 0, with its figures, memdev, region and CDAT" {
    run cxltier --sysroot "$(fixture lab-region-online)" tiers -j
    assert_success
    json=$output
    q() { jq -c "$1" <<<"$json"; }
    [[ $(q '[.nodes[] | [.node, .memory_tier, .has_cpu]]') == '[[0,4,true],[1,8,false]]' ]]
    [[ $(q '.nodes[1].access0 | [.read_latency_ns, .write_latency_ns, .read_bandwidth_mbps, .write_bandwidth_mbps]') == '[17300,17400,16000,16000]' ]]
    [[ $(q '.nodes[1].cxl | [.memdevs, .regions, .dax_devices]') == '[["mem0"],["region0"],["dax0.0"]]' ]]
    [[ $(q '.nodes[1].cdat | [.read_latency_ns, .write_latency_ns, .read_bandwidth_mbps]') == '[150,250,16000]' ]]
    [[ $(q '.nodes[0].demotion_targets') == '[1]' ]]
    [[ $(q '.nodes[1] | has("demotion_targets")') == false ]]
    [[ $(q '.tiers') == '[{"id":4,"abstract_distance_min":512,"abstract_distance_max":639,"nodes":[0]},{"id":8,"abstract_distance_min":1024,"abstract_distance_max":1151,"nodes":[1]}]' ]]
    [[ $(q '.settings | [.demotion_enabled, .numa_balancing_mode, .promote_rate_limit_mbps]') == '[false,"disabled",65536]' ]]
}

@test "lab: the same as a table" {
    run cxltier --sysroot "$(fixture lab-region-online)" tiers
    assert_success
    assert_line --index 0 --regexp '^NODE +CPUS +SIZE +TIER +FIGS +RD-LAT +RD-BW +CXL +DEMOTES-TO +RANK$'
    assert_line --index 2 --regexp '^ +1 none +1G +8 node\* +17300 16000 mem0,region0 +2$'
    assert_line --index 3 '* Linux 6.12 counts the link latency in ps as ns: ranked without its latency'
    assert_output --regexp 'DEMOTION +NUMA-BALANCING'
    run cxltier --sysroot "$(fixture lab-region-online)" tiers -o NODE,CPUS,SIZE,ZONES,TIER,SLIT,FIGS,RD-LAT,RD-BW,CXL,CDAT-LAT,CDAT-BW,DEMOTES-TO,RANK,BY
    assert_success
    assert_line --index 2 --regexp '^ +1 none +1G +8 0:20 node\* +17300 16000 mem0,region0 +150 +16000 +2 cdat\+local$'
}

@test "6.12: the CXL node's latency is the link-latency bug (judged from the figures); ranked by CDAT instead" {
    run cxltier --sysroot "$(fixture lab-region-online)" tiers -j
    assert_success
    json=$output
    q() { jq -c "$1" <<<"$json"; }
    [[ $(q '.nodes[1].access0 | [.source, .latency_check]') == '["node",{"verdict":"link_latency_ps_as_ns","by":"figures","expected_read_latency_ns":250}]' ]]
    [[ $(q '.nodes[0].access0 | [.source, has("latency_check")]') == '["node",false]' ]]
    [[ $(q '[.nodes[].ranking | [.rank, .effective_distance, .source]]') == '[[1,10,"hmat"],[2,25,"cdat+local"]]' ]]
}

@test "6.12 without CDAT (not root): the bug judged by its excess over local, ranked by SLIT" {
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/t"
    rm "$BATS_TEST_TMPDIR"/t/sys/devices/platform/ACPI0017:00/root0/port1/endpoint2/CDAT
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" tiers -j
    assert_success
    [[ $(jq -c '.nodes[1] | [.access1.latency_check.verdict, .access1.latency_check.by, .ranking.source, has("cdat")]' <<<"$output") == \
       '["link_latency_ps_as_ns","excess","slit",false]' ]]
}

@test "without CDAT a figure a CXL path can have is left unchecked, whatever the release (a fixed 6.12.y)" {
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/t"
    rm "$BATS_TEST_TMPDIR"/t/sys/devices/platform/ACPI0017:00/root0/port1/endpoint2/CDAT
    for a in access0 access1; do
        echo 320 > "$BATS_TEST_TMPDIR/t/sys/devices/system/node/node1/$a/initiators/read_latency"
    done
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" tiers -j
    assert_success
    [[ $(jq -c '.nodes[1] | [(.access1 | has("latency_check")), .ranking.source, .ranking.effective_distance]' <<<"$output") == \
       '[false,"hmat",32]' ]]
}

@test "7.x: the CXL node has no figures; its region's stand in, named, and it ranks below DRAM by them" {
    run cxltier --sysroot "$(fixture k7-region-online)" tiers -j
    assert_success
    json=$output
    q() { jq -c "$1" <<<"$json"; }
    [[ $(q '[.nodes[] | [.node, .memory_tier, .has_cpu]]') == '[[0,4,true],[1,8,false]]' ]]
    for a in access0 access1; do
        [[ $(q ".nodes[1].$a | [.source, .region, has(\"initiators\"), .read_latency_ns, .write_latency_ns, .read_bandwidth_mbps, .write_bandwidth_mbps]") == \
           '["region","region0",false,302,402,16000,16000]' ]]
        [[ $(q ".nodes[1].$a.latency_check | [.verdict, .by]") == '["plausible","figures"]' ]]
    done
    [[ $(q '.nodes[0].access1 | [.source, .initiators, .read_latency_ns]') == '["node",[0],100]' ]]
    [[ $(q '[.nodes[].ranking | [.rank, .effective_distance, .source]]') == '[[1,10,"hmat"],[2,30.2,"region"]]' ]]
    [[ $(q '.nodes[0].demotion_targets') == '[1]' ]]
    [[ $(q '.disagreements') == '[]' ]]
}

@test "7.x: the table says the figures are the region's" {
    run cxltier --sysroot "$(fixture k7-region-online)" tiers -o NODE,CPUS,SIZE,ZONES,TIER,SLIT,FIGS,RD-LAT,RD-BW,CXL,CDAT-LAT,CDAT-BW,DEMOTES-TO,RANK,BY
    assert_success
    assert_line --index 2 --regexp '^ +1 none +1G +movable:1G +8 0:20 region +302 16000 mem0,region0 +150 +16000 +2 region$'
    refute_output --partial 'link latency'
}

@test "7.x without CDAT: the region's figures unchecked, still ranked by them" {
    cp -a "$(fixture k7-region-online)" "$BATS_TEST_TMPDIR/t"
    rm "$BATS_TEST_TMPDIR"/t/sys/devices/platform/ACPI0017:00/root0/port1/endpoint2/CDAT
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" tiers -j
    assert_success
    [[ $(jq -c '.nodes[1] | [.access1.source, has("cdat"), (.access1 | has("latency_check")), .ranking.source, .ranking.effective_distance]' <<<"$output") == \
       '["region",false,false,"region",30.2]' ]]
}

@test "7.x, region offline: its memory is on no node yet, nothing to rank" {
    run cxltier --sysroot "$(fixture k7-region-offline)" tiers -j
    assert_success
    [[ $(jq -c '[.nodes[].node]' <<<"$output") == '[0]' ]]
}

@test "two sockets: demotion targets as the kernel logged them (0->2, 1->2, 2->3)" {
    run cxltier --sysroot "$(fixture lab-two-socket)" tiers -j
    assert_success
    run jq -c '[.nodes[] | [.node, .memory_tier, (.demotion_targets // []), (.demotion_allowed // [])]]' <<<"$output"
    assert_output '[[0,4,[2],[2,3]],[1,4,[2],[2,3]],[2,5,[3],[3]],[3,1000,[],[]]]'
}

@test "two sockets: ranking from node 0 and from node 1, with the source of each" {
    root=$(fixture lab-two-socket)
    run cxltier --sysroot "$root" tiers -j --from 0
    assert_success
    run jq -c '[.nodes[] | [.node, .ranking.rank, .ranking.source]]' <<<"$output"
    assert_output '[[0,1,"hmat"],[1,3,"slit"],[2,2,"hmat"],[3,4,"cdat+local"]]'
    run cxltier --sysroot "$root" tiers -j --from node1
    assert_success
    run jq -c '[.nodes[] | [.node, .ranking.rank, .ranking.effective_distance]]' <<<"$output"
    assert_output '[[0,2,21],[1,1,10],[2,4,28],[3,3,25]]'
}

@test "two sockets: where the tiers and SLIT disagree with the ranking" {
    run cxltier --sysroot "$(fixture lab-two-socket)" tiers --from 0
    assert_success
    # each in lines of at most 76 columns under its heading
    assert_line "node2 ranks closer than node1 from node0 (hmat), but the kernel puts it in a"
    assert_line "slower tier (5 > 4)"
}

# the two-socket tree with the CXL node (node3) moved next to socket 1: the
# SLIT from node0 to it 30, from node1 20 (and, with "asym", node3's own
# row left at 20 20 20 10: an asymmetric SLIT)
cxl_near_node1() {
    cp -a "$(fixture lab-two-socket)" "$BATS_TEST_TMPDIR/t"
    local n=$BATS_TEST_TMPDIR/t/sys/devices/system/node
    echo "10 21 17 30" > "$n/node0/distance"
    [[ ${1:-} == asym ]] || echo "30 20 20 10" > "$n/node3/distance"
}

@test "SLIT column: the distance from each CPU node, not the node's own row (asymmetric SLIT)" {
    cxl_near_node1 asym
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" tiers -o NODE,SLIT
    assert_success
    assert_line --index 4 --regexp '^ +3 0:30,1:20$'
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" tiers -j
    assert_success
    [[ $(jq -c '.nodes[3].distances | map([.node, .distance])' <<<"$output") == '[[0,30],[1,20],[2,20],[3,10]]' ]]
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" tiers --matrix
    assert_success
    assert_line --index 1 --regexp '^node0 +10 +21 +17 +30$'
    assert_line --index 4 --regexp '^node3\* +20 +20 +20 +10$'
}

@test "CXL figures hold for the CPU node nearest the memory; from the other socket its SLIT hop is added" {
    cxl_near_node1
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" tiers -j --from 1
    assert_success
    [[ $(jq -c '.nodes[3].ranking | [.effective_distance, .source, has("via_node")]' <<<"$output") == '[25,"cdat+local",false]' ]]
    # from node0: node1 (the nearest) is 21 away, 11 more than local
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" tiers -j --from 0
    assert_success
    [[ $(jq -c '.nodes[3].ranking | [.effective_distance, .source, .via_node]' <<<"$output") == '[36,"cdat+local",1]' ]]
    # believable figures the kernel named no initiator for (the CXL driver's)
    echo 350 > "$BATS_TEST_TMPDIR/t/sys/devices/system/node/node3/access1/initiators/read_latency"
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" tiers -j --from 0
    assert_success
    [[ $(jq -c '.nodes[3].ranking | [.effective_distance, .source, .via_node]' <<<"$output") == '[46,"hmat",1]' ]]
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" tiers --from 0 -o NODE,EFFECTIVE,BY
    assert_success
    assert_line --index 4 --regexp '^ +3 +46 hmat\+hop:node1$'
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" tiers -j --from 1
    assert_success
    [[ $(jq -c '.nodes[3].ranking | [.effective_distance, .source, has("via_node")]' <<<"$output") == '[35,"hmat",false]' ]]
}

@test "a memory tier gone between the listing and the read (memory offlined meanwhile) is left out" {
    cp -a "$(fixture lab-two-socket)" "$BATS_TEST_TMPDIR/t"
    # listed, then gone: a name that no longer leads anywhere
    ln -s memory_tier_gone "$BATS_TEST_TMPDIR/t/sys/devices/virtual/memory_tiering/memory_tier9"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" tiers -j
    assert_success
    [[ $(jq -c '[.tiers[].id]' <<<"$output") == '[4,5,1000]' ]]
    # a tier that is there but unreadable is still an error
    mkdir "$BATS_TEST_TMPDIR/t/sys/devices/virtual/memory_tiering/memory_tier7"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" tiers -j
    assert_failure 1
    [[ $stderr == *memory_tier7* ]]
}

@test "--matrix: CPU nodes first, memory-only nodes marked" {
    run cxltier --sysroot "$(fixture lab-two-socket)" tiers --matrix
    assert_success
    assert_line --index 0 --regexp '^FROM +node0 +node1 +node2\* +node3\*$'
    assert_line --index 1 --regexp '^node0 +10 +21 +17 +20$'
    assert_line --index 4 --regexp '^node3\* +20 +20 +20 +10$'
}

@test "single node, memory tiers but no HMAT: SLIT only, access keys absent" {
    run cxltier --sysroot "$(fixture host-nocxl)" tiers -j
    assert_success
    run jq -c '[(.nodes | length), (.nodes[0] | [.memory_tier, has("access0"), has("cxl"), .ranking.source])]' <<<"$output"
    assert_output '[1,[4,false,false,"slit"]]'
}

@test "an old kernel (no memory tiers, no access figures): sources absent, not errors" {
    root=$(fixture host-nocxl)
    cp -a "$root" "$BATS_TEST_TMPDIR/old"
    rm -rf "$BATS_TEST_TMPDIR/old/sys/devices/virtual/memory_tiering" "$BATS_TEST_TMPDIR/old/sys/kernel/mm/numa"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/old" tiers -j
    assert_success
    [[ $(jq -c '[.tiers, (.nodes[0] | has("memory_tier")), (.settings | has("demotion_enabled"))]' <<<"$output") == '[[],false,false]' ]]
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/old" tiers
    assert_success
    [[ $stderr == *"no memory tiers"* ]]
}

@test "--from an unknown node is a usage error" {
    run cxltier --sysroot "$(fixture lab-two-socket)" tiers --from 7
    assert_failure 2
    assert_output --partial "--from 7: no such online NUMA node"
}

@test "a kernel without NUMA sysfs: exit 77" {
    mkdir -p "$BATS_TEST_TMPDIR/nonuma/sys/devices/system"
    run cxltier --sysroot "$BATS_TEST_TMPDIR/nonuma" tiers
    assert_failure 77
}

@test "a CXL topology that cannot be read: said at once, named in the JSON, exit 64 (the nodes shown without it)" {
    local root=$BATS_TEST_TMPDIR/root
    cp -a "$(fixture lab-region-online)" "$root"
    echo junk > "$(realpath "$root/sys/bus/cxl/devices/region0")/size"
    run --separate-stderr cxltier --sysroot "$root" tiers -j
    assert_failure 64
    [[ $stderr == "cxltier tiers: warning: the CXL topology could not be read ("*"): the nodes are shown without their CXL devices and CDAT figures" ]] ||
        fail "stderr: $stderr"
    assert_equal "$(jq -c '[(.nodes | length), (.incomplete[] | .part)]' <<<"$output")" '[2,"cxl"]'
    run --separate-stderr cxltier --sysroot "$root" tiers --matrix
    assert_failure 64
    [[ $stderr == *"the CXL topology could not be read"* ]] || fail "stderr: $stderr"
}
