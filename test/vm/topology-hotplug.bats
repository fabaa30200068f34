#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: hotplug
# A free root port (cxl_rp_hp) on the host bridge: a Type-3 device hot-added
# over QMP is enumerated by the kernel, a region over it is created and
# onlined, and it goes away again with device_del.
load topology

# the PCI root bus of the host bridge above MEMDEV: /sys/devices/pciDDDD:BB
pci_root_of() { echo "/sys/devices/$(readlink -f "$CXL/$1" | cut -d/ -f4)"; }

@test "at boot: one memdev, a host bridge with two root ports, one of them empty" {
    assert_equal "$(topo_memdevs)" "mem0"
    topo_endpoints_ready mem0
    root=$(pci_root_of mem0)
    ports=0 empty=0
    fn='[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f].[0-7]'   # a PCI function
    for p in $root/$fn; do
        [[ $(cat "$p/class") == 0x0604* ]] || continue
        ports=$((ports + 1))
        # shellcheck disable=SC2086
        ls -d $p/$fn >/dev/null 2>&1 || empty=$((empty + 1))
    done
    assert_equal "$ports $empty" "2 1"
    # 6.12 makes every root port a dport of the host bridge at boot; 7.x only
    # a root port with an endpoint below it
    hb=$(vm_host_bridge_of mem0)
    n=$(topo_dports "$hb" | wc -w)
    echo "# $hb has $n dport(s) at boot" >&3
    (( n >= 1 && n <= 2 ))
}

@test "device_add: the kernel enumerates a new memdev with its endpoint and decoders" {
    m=$(vm_hot_add_type3 cxl-mem-hp 0x9abc)
    echo "$m" > "$BATS_FILE_TMPDIR/memdev"
    [[ $m != mem0 ]]
    assert_equal "$(( $(cat $CXL/$m/serial) ))" "$(( 0x9abc ))"
    assert_equal "$(( $(cat $CXL/$m/ram/size) ))" "$(( 1 << 30 ))"
    topo_endpoints_ready "$m"
    hb=$(vm_host_bridge_of mem0)
    assert_equal "$(vm_host_bridge_of "$m")" "$hb"
    assert_equal "$(topo_dports "$hb" | wc -w)" 2
}

@test "a region over the hot-added device: committed, onlined movable, listed" {
    m=$(cat "$BATS_FILE_TMPDIR/memdev")
    r=$(vm_create_ram_region "$m")
    echo "$r" > "$BATS_FILE_TMPDIR/region"
    topo_region_online "$r" "$m"
    topo_list_shows "$r" "$m"
}

@test "ndctl 81 agrees: the memdevs, the boot one and the hot-added one, and the region over it" {
    topo_oracle
}

@test "offline, region deleted, device_del: the memdev goes away" {
    m=$(cat "$BATS_FILE_TMPDIR/memdev") r=$(cat "$BATS_FILE_TMPDIR/region")
    d=$(vm_dax_of "$r")
    offline_all "$d"
    echo "$r" > $CXL/decoder0.0/delete_region
    wait_for 60 "$r to go" bash -c "! test -e $CXL/$r"
    host_qmp '{"execute":"device_del","arguments":{"id":"cxl-mem-hp"}}'
    wait_for 120 "$m to go after device_del" bash -c "! test -e $CXL/$m"
    assert_equal "$(topo_memdevs)" "mem0"
}
