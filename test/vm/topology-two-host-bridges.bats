#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: two-host-bridges
# One Type-3 device behind each of two host bridges and one fixed memory
# window interleaving both: the kernel's view, and a 2-way cross-host-bridge
# region, its targets in the window's order, created and onlined.
load topology

@test "two host bridges, one memdev each, a 2-way window targeting both" {
    assert_equal "$(topo_memdevs)" "mem0 mem1"
    topo_endpoints_ready mem0 mem1
    hb0=$(vm_host_bridge_of mem0) hb1=$(vm_host_bridge_of mem1)
    [[ $hb0 != "$hb1" ]]
    assert_equal "$(topo_host_bridges)" "$(printf '%s\n' "$hb0" "$hb1" | sort -V | tr '\n' ' ' | sed 's/ $//')"
    assert_equal "$(topo_dports "$hb0" | wc -w)" 1
    assert_equal "$(topo_dports "$hb1" | wc -w)" 1
    assert_equal "$(topo_dports root0 | wc -w)" 2
    assert_equal "$(cat $CXL/decoder0.0/interleave_ways)" 2
    want=$(printf '%s\n' "$(vm_host_bridge_id "$hb0")" "$(vm_host_bridge_id "$hb1")" | sort | tr '\n' ,)
    assert_equal "$(tr , '\n' < $CXL/decoder0.0/target_list | sort | tr '\n' ,)" "$want"
}

@test "a 2-way cross-host-bridge region: targets in the window's order, committed, onlined movable" {
    r=$(vm_create_ram_region mem0 mem1)
    echo "$r" > "$BATS_FILE_TMPDIR/region"
    assert_equal "$(cat $CXL/$r/interleave_granularity)" "$(cat $CXL/decoder0.0/interleave_granularity)"
    # target i sits below the window's target i
    IFS=, read -ra hbs < $CXL/decoder0.0/target_list
    for i in 0 1; do
        ep=$(cat $CXL/$r/target$i); ep=endpoint${ep#decoder}; ep=${ep%.*}
        m=$(basename "$(readlink -f $CXL/$ep/uport)")
        assert_equal "$(vm_host_bridge_id "$(vm_host_bridge_of "$m")")" "${hbs[$i]}"
    done
    topo_region_online "$r" mem0 mem1
}

@test "cxltier list shows the cross-host-bridge region under both memdevs" {
    topo_list_shows "$(cat "$BATS_FILE_TMPDIR/region")" mem0 mem1
}

@test "ndctl 81 agrees: the memdevs, the region, and a cross-host-bridge region made by cxl create-region and by cxltier" {
    topo_oracle --both-ways mem0 mem1
}
