#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: two-regions
# Two Type-3 devices and two fixed memory windows: a region in each window,
# both created and onlined, side by side.
load topology

@test "two memdevs, two RAM windows over the same host bridge" {
    assert_equal "$(topo_memdevs)" "mem0 mem1"
    topo_endpoints_ready mem0 mem1
    hb=$(vm_host_bridge_id "$(vm_host_bridge_of mem0)")
    for d in decoder0.0 decoder0.1; do
        assert_equal "$(cat $CXL/$d/target_list)" "$hb"
        assert_equal "$(cat $CXL/$d/cap_ram)" 1
    done
}

@test "a region in each window, both committed and onlined movable" {
    r0=$(vm_create_ram_region -r decoder0.0 mem0)
    r1=$(vm_create_ram_region -r decoder0.1 mem1)
    echo "$r0 $r1" > "$BATS_FILE_TMPDIR/regions"
    [[ $r0 != "$r1" ]]
    [[ -e $CXL/decoder0.0/$r0 ]]
    [[ -e $CXL/decoder0.1/$r1 ]]
    topo_region_online "$r0" mem0
    topo_region_online "$r1" mem1
    n0=$(cat /sys/bus/dax/devices/$(vm_dax_of "$r0")/target_node)
    n1=$(cat /sys/bus/dax/devices/$(vm_dax_of "$r1")/target_node)
    echo "# $r0 on node $n0, $r1 on node $n1" >&3
}

@test "cxltier list shows each region under its own memdev" {
    read -r r0 r1 < "$BATS_FILE_TMPDIR/regions"
    topo_list_shows "$r0" mem0
    topo_list_shows "$r1" mem1
}

@test "online --convert over two devices, the second failing after the first was switched: the first is onlined, exit 64" {
    read -r r0 r1 < "$BATS_FILE_TMPDIR/regions"
    d0=$(vm_dax_of "$r0"); d1=$(vm_dax_of "$r1")
    for d in $d0 $d1; do
        for b in $(vm_blocks_of "$d"); do echo offline > $MEMSYS/$b/state; done
        daxctl reconfigure-device --mode=devdax "$d" >/dev/null 2>&1
        [[ $(basename "$(readlink /sys/bus/dax/devices/$d/driver)") == device_dax ]]
    done
    # the second one cannot go to system-ram: no memory left in it (and a
    # dax device of size 0 is no CXL memory to cxltier once it looks again)
    daxctl disable-device "$d1" >/dev/null 2>&1
    echo 0 > /sys/bus/dax/devices/$d1/size
    run --separate-stderr cxltier online "$d0" "$d1" --convert -j
    echo "$stderr" >&3
    assert_failure 64
    [[ $stderr == *"$d0 is now in system-ram mode"* ]]
    for b in $(vm_blocks_of "$d0"); do
        assert_equal "$b $(cat $MEMSYS/$b/state) $(cat $MEMSYS/$b/valid_zones)" "$b online Movable"
    done
}
