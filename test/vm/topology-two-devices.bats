#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: two-devices
# vm-boot-group: two-devices
# Two Type-3 devices on two root ports of one host bridge: what the kernel
# enumerates, and a 2-way region over both, created and onlined.
load topology

@test "two memdevs behind one host bridge with two root ports, one window over it" {
    assert_equal "$(topo_memdevs)" "mem0 mem1"
    topo_endpoints_ready mem0 mem1
    hb=$(vm_host_bridge_of mem0)
    assert_equal "$(vm_host_bridge_of mem1)" "$hb"
    assert_equal "$(topo_host_bridges)" "$hb"
    assert_equal "$(topo_dports "$hb" | wc -w)" 2
    assert_equal "$(cat $CXL/decoder0.0/target_list)" "$(vm_host_bridge_id "$hb")"
    assert_equal "$(cat $CXL/decoder0.0/interleave_ways)" 1
}

@test "a 2-way region over both devices: committed, onlined movable" {
    r=$(vm_create_ram_region mem0 mem1)
    echo "$r" > "$BATS_FILE_TMPDIR/region"
    topo_region_online "$r" mem0 mem1
}

@test "cxltier list shows the 2-way region under both memdevs" {
    topo_list_shows "$(cat "$BATS_FILE_TMPDIR/region")" mem0 mem1
}

@test "ndctl 81 agrees: the memdevs, the region, and a 2-way region made by cxl create-region and by cxltier" {
    topo_oracle --both-ways mem0 mem1
}
