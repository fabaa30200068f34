#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: inspect
# `cxltier cdat` on QEMU's built-in CDAT, read by the real kernel.
load helper

@test "QEMU's default table decodes without error" {
    run cxltier cdat mem0 -j
    assert_success
    run jq -c '.tables[0] | [.device, .memdev, .checksum_valid, .valid,
        ([.structures[] | select(.type == "dslbis") | [.data_type, (.latency_ns // .bandwidth_mbps)]]),
        ([.structures[] | select(.type == "dsmas") | [.handle, .dpa_base, .dpa_length]]),
        ([.structures[] | select(.type == "dsemts") | .efi_type_name])]' <<<"$output"
    ep=$(vm_endpoint_of mem0)
    size=$(( $(cat $CXL/mem0/ram/size) ))
    assert_output "[\"$ep\",\"mem0\",true,true,[[\"read_latency\",150],[\"write_latency\",250],[\"read_bandwidth\",16000],[\"write_bandwidth\",16000]],[[0,0,$size]],[\"specific_purpose\"]]"
}

@test "--hex is byte for byte the kernel's CDAT attribute" {
    ep=$(vm_endpoint_of mem0)
    run cxltier cdat "$ep" --hex -j
    assert_success
    assert_equal "$(jq -r '.tables[0].raw' <<<"$output")" "$(xxd -p "$CXL/$ep/CDAT" | tr -d '\n')"
}

@test "without arguments: every port with a CDAT" {
    run cxltier cdat -j
    assert_success
    [[ $(jq '.tables | length' <<<"$output") == $(ls $CXL/*/CDAT | wc -l) ]]
}

@test "the kernel's view beside it: qos_class, region and node access figures once onlined" {
    r=$(ensure_region)
    vm_online_movable "$(vm_dax_of "$r")"
    run cxltier cdat mem0 -j
    assert_success
    json=$output
    [[ $(jq '.tables[0].kernel.ram_qos_class' <<<"$json") == "$(cat $CXL/mem0/ram/qos_class)" ]]
    node=$(cat /sys/bus/dax/devices/$(vm_dax_of "$r")/target_node)
    # the node's own figures (6.12), or its region's standing in (7.x has none
    # for this node): whichever files exist decide
    a=/sys/devices/system/node/node$node/access0/initiators src=node
    [[ -e $a/read_bandwidth ]] || { a=$CXL/$r/access0 src=region; }
    [[ $(jq -c --arg n "node$node" '.tables[0].kernel.figures[] | select(.object == $n and .access == 0) | [.source, .read_bandwidth_mbps]' <<<"$json") == \
       "[\"$src\",$(cat $a/read_bandwidth)]" ]]
    [[ $(jq --arg r "$r" '.tables[0].kernel.figures[] | select(.object == $r and .access == 0) | .read_latency_ns' <<<"$json") == \
       "$(cat $CXL/$r/access0/read_latency)" ]]
    # 6.12 adds the PCIe link latency in ps to ns figures; 7.x does not
    case $(uname -r) in
    6.*) want=link_latency_ps_as_ns ;;
    *)   want=plausible ;;
    esac
    [[ $(jq -r --arg r "$r" '.tables[0].kernel.figures[] | select(.object == $r and .access == 0) | .latency_check.verdict' <<<"$json") == "$want" ]]
    run cxltier cdat mem0
    assert_success
    assert_output --partial "What the kernel derived"
}

@test "an unknown memdev: exit 1" {
    run cxltier cdat mem42
    assert_failure 1
}
