#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: inspect
# vm-userland: trixie -- list against libcxl/libdaxctl 81 and Debian 13's ndctl beside it
# `cxltier list` against the real kernel: checked against sysfs and ndctl.
load helper

setup_file() {
    ensure_region >/dev/null
}

@test "list -j memdevs match sysfs" {
    run cxltier list -j
    assert_success
    for m in $(ls $CXL | grep '^mem[0-9]'); do
        serial=$(( $(cat $CXL/$m/serial) ))
        size=$(( $(cat $CXL/$m/ram/size) ))
        run jq -e --arg m "$m" --argjson s "$serial" --argjson z "$size" \
            '.memdevs[] | select(.name == $m) | .serial == $s and .ram_size == $z' <<<"$(cxltier list -j)"
        assert_success
    done
}

@test "list -j agrees with ndctl's cxl list -M (memdevs, serials, sizes, hosts)" {
    ours=$(cxltier list -j | jq -c '[.memdevs[] | {name, serial, ram_size, host}] | sort_by(.name)')
    theirs=$(cxl list -M | jq -c '[.[] | {name: .memdev, serial, ram_size: (.ram_size // 0), host}] | sort_by(.name)')
    assert_equal "$ours" "$theirs"
}

@test "the libcxl and the sysfs backends read the same topology" {
    a=$(CXLTIER_BACKEND=libcxl cxltier list -j)
    b=$(CXLTIER_BACKEND=sysfs cxltier list -j)
    assert_equal "$a" "$b"
}

@test "region, dax device and blocks match the kernel" {
    r=$(ensure_region)
    d=$(vm_dax_of "$r")
    run cxltier list -j --region "$r"
    assert_success
    json=$output
    [[ $(jq -r '.regions[0].size' <<<"$json") == $(( $(cat $CXL/$r/size) )) ]]
    [[ $(jq -r '.regions[0].mode' <<<"$json") == "$(cat $CXL/$r/mode)" ]]
    [[ $(jq -r '.regions[0].dax_devices[0].name' <<<"$json") == "$d" ]]
    [[ $(jq -r '.regions[0].dax_devices[0].target_node' <<<"$json") == "$(cat /sys/bus/dax/devices/$d/target_node)" ]]
    [[ $(jq -r '.regions[0].dax_devices[0].memory_blocks.total' <<<"$json") == $(vm_blocks_of "$d" | wc -l) ]]
    for ((i = 0; i < $(cat $CXL/$r/interleave_ways); i++)); do
        dec=$(cat $CXL/$r/target$i)
        run jq -e --argjson i $i --arg dec "$dec" --argjson sz $(( $(cat $CXL/$dec/dpa_size) )) \
            '.regions[0].targets[$i] | .position == $i and .decoder == $dec and .dpa_size == $sz' <<<"$json"
        assert_success
    done
    [[ $(jq -c '.memdevs[0].regions' <<<"$json") == "[\"$r\"]" ]]
}

@test "onlined movable by hand: list counts the blocks movable and shows the node's tier" {
    r=$(ensure_region)
    d=$(vm_dax_of "$r")
    vm_online_movable "$d"
    node=$(cat /sys/bus/dax/devices/$d/target_node)
    tier=$(grep -l -w "$node" /sys/devices/virtual/memory_tiering/memory_tier*/nodelist | sed 's/.*memory_tier\([0-9]*\).*/\1/')
    run cxltier list -j -d "$d"
    assert_success
    run jq -c '.regions[0].dax_devices[0] | [.memory_blocks.online, .memory_blocks.movable, .memory_tier]' <<<"$output"
    assert_output "[8,8,$tier]"
    run cxltier list -N "$node" -o NAME,MODE,NODE,TIER,BLOCKS,ONLINE,MOVABLE
    assert_success
    assert_output --regexp "dax.*system-ram +$node +$tier +8 +8 +8"
}

@test "capture the live tree and list it back through --sysroot: same JSON" {
    capture-sysfs /tmp/live.tar.gz
    mkdir -p /tmp/live && tar -xzf /tmp/live.tar.gz -C /tmp/live
    a=$(cxltier list -j)
    b=$(cxltier --sysroot /tmp/live list -j)
    assert_equal "$a" "$b"
    # the CDAT, a binary attribute (NUL bytes), captured byte for byte
    a=$(cxltier cdat mem0 -j)
    b=$(cxltier --sysroot /tmp/live cdat mem0 -j)
    assert_equal "$a" "$b"
    ep=$(vm_endpoint_of mem0)
    cmp /sys/bus/cxl/devices/$ep/CDAT "/tmp/live$(readlink -f /sys/bus/cxl/devices/$ep)/CDAT"
}

@test "-m by serial and by PCI device, -s by serial: the same memdev as by name" {
    serial=$(printf '0x%x' $(( $(cat $CXL/mem0/serial) )))
    host=$(basename "$(dirname "$(readlink -f $CXL/mem0)")")
    a=$(cxltier list -j -m mem0 | jq -c '[.memdevs[].name]')
    assert_equal "$(cxltier list -j -m "$serial" | jq -c '[.memdevs[].name]')" "$a"
    assert_equal "$(cxltier list -j -m "$host" | jq -c '[.memdevs[].name]')" "$a"
    assert_equal "$(cxltier list -j --serial "$serial" | jq -c '[.memdevs[].name]')" "$a"
}

@test "-vvv: partition info from the device's mailbox agrees with sysfs; -v decoders as the kernel's" {
    run --separate-stderr cxltier list -j -vvv -m mem0
    assert_success
    ram=$(( $(cat $CXL/mem0/ram/size) ))
    run jq -e --argjson ram "$ram" '.memdevs[0].partition_info | .total_size >= $ram and .volatile_only_size == $ram' <<<"$output"
    assert_success
    json=$(cxltier list -j -v)
    for dec in $(jq -r '.memdevs[0].decoders[].name' <<<"$json"); do
        assert_equal "$(jq -r --arg d "$dec" '.memdevs[0].decoders[] | select(.name == $d) | .mode' <<<"$json")" "$(cat $CXL/$dec/mode)"
    done
    assert_equal "$(jq -r '.root_decoders[0].name' <<<"$json")" decoder0.0
}

@test "--summary counts what /sys/devices/system/memory has" {
    run --separate-stderr cxltier list --summary -j
    assert_success
    total=$(ls -d $MEMSYS/memory[0-9]* | wc -l)
    online=$(cat $MEMSYS/memory[0-9]*/state | grep -c '^online')
    assert_equal "$(jq '.summary[0].blocks' <<<"$output")" "$total"
    assert_equal "$(jq '.summary[0].online_blocks' <<<"$output")" "$online"
    assert_equal "$(jq '[.nodes[].blocks] | add' <<<"$output")" "$total"
}
