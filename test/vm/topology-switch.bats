#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: switch
# A CXL switch (upstream port below the root port, two downstream ports)
# with a Type-3 device on each downstream port: the switch port the kernel
# enumerates between host bridge and endpoints, and a 2-way region across
# the switch, created and onlined.
load topology

# the port between the host bridge and MEMDEV's endpoint
switch_port_of() {
    local p
    p=$(readlink -f "$CXL/$(vm_endpoint_of "$1")")
    p=${p%/endpoint*}
    basename "$p"
}

@test "one host bridge, one switch port with two dports and decoders, a memdev on each dport" {
    assert_equal "$(topo_memdevs)" "mem0 mem1"
    topo_endpoints_ready mem0 mem1
    hb=$(vm_host_bridge_of mem0)
    assert_equal "$(topo_host_bridges)" "$hb"
    assert_equal "$(topo_dports "$hb" | wc -w)" 1
    sw=$(switch_port_of mem0)
    assert_equal "$(switch_port_of mem1)" "$sw"
    [[ $sw != "$hb" ]]
    # the switch port sits below the host bridge port
    [[ $(readlink -f $CXL/$sw) == */root0/$hb/$sw ]]
    assert_equal "$(topo_dports "$sw" | wc -w)" 2
    ls -d $CXL/$sw/decoder${sw#port}.* >/dev/null
}

@test "a 2-way region across the switch: committed, onlined movable" {
    r=$(vm_create_ram_region mem0 mem1)
    echo "$r" > "$BATS_FILE_TMPDIR/region"
    topo_region_online "$r" mem0 mem1
    # the switch decoder took part: one of its decoders now belongs to the region
    sw=$(switch_port_of mem0)
    grep -lx "$r" $CXL/$sw/decoder*/region >/dev/null
}

@test "cxltier list shows the region across the switch under both memdevs" {
    topo_list_shows "$(cat "$BATS_FILE_TMPDIR/region")" mem0 mem1
}

@test "ndctl 81 agrees: the memdevs, the region, and a region across the switch made by cxl create-region and by cxltier" {
    topo_oracle --both-ways mem0 mem1
}
