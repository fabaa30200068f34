#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier list` on sysfs trees captured from the lab guest (Linux 6.12,
# QEMU 10 Type-3 device) and from a machine without CXL.
load helper

@test "list -j shows memdev -> region -> dax -> blocks -> node -> tier in one object" {
    root=$(fixture lab-region-online)
    run cxltier --sysroot "$root" list -j
    assert_success
    run jq -e '.memdevs[0] | .name == "mem0" and .serial == 4660 and .host == "0000:0d:00.0"
        and .ram_size == 1073741824 and .endpoint == "endpoint2"
        and .regions[0].name == "region0" and .regions[0].mode == "ram"
        and .regions[0].interleave_ways == 1 and .regions[0].decoders == ["decoder2.0"]
        and .regions[0].state == "active"
        and .regions[0].dax_devices[0].name == "dax0.0"
        and .regions[0].dax_devices[0].mode == "system-ram"
        and .regions[0].dax_devices[0].target_node == 1
        and .regions[0].dax_devices[0].memory_tier == 8
        and .regions[0].dax_devices[0].memory_blocks == {"first":34,"total":8,"online":8,"offline":0,"movable":8,"normal":0}' <<<"$output"
    assert_success
}

@test "list shows the same data as a tree table" {
    root=$(fixture lab-region-online)
    run cxltier list --sysroot "$root"
    assert_success
    assert_line --index 0 --regexp '^NAME +TYPE +SIZE +MODE +SERIAL +HOST +STATE +NODE +TIER +BLOCKS +ONLINE +MOVABLE'
    assert_line --index 1 --regexp '^mem0 +memdev +1G +0x1234 +0000:0d:00.0 +enabled'
    assert_line --index 2 --regexp '^`-region0 +region +1G +ram +active'
    assert_line --index 3 --regexp '^  `-dax0.0 +dax +1G +system-ram +1 +8 +8 +8 +8 *$'
}

@test "offline blocks are counted as offline, with no tier yet" {
    root=$(fixture lab-region-offline)
    run cxltier list --sysroot "$root" -j
    assert_success
    run jq -c '.memdevs[0].regions[0].dax_devices[0] | [.memory_blocks.online, .memory_blocks.offline, has("memory_tier")]' <<<"$output"
    assert_output '[0,8,false]'
}

@test "-o chooses columns, -n drops headings, -b prints bytes" {
    root=$(fixture lab-region-online)
    run cxltier list --sysroot "$root" -o NAME,SIZE -n -b
    assert_success
    assert_line --index 0 --regexp '^mem0 +1073741824$'
    run cxltier list --sysroot "$root" -o +RESOURCE -n
    assert_line --index 1 --regexp 'active +0x110000000$'
}

@test "an unknown column is a usage error" {
    run cxltier list --sysroot "$(fixture lab-region-online)" -o NAME,BOGUS
    assert_failure 2
    assert_output --partial "unknown column 'BOGUS'"
}

@test "the JSON shape does not depend on table options" {
    root=$(fixture lab-region-online)
    a=$(cxltier list --sysroot "$root" -j)
    b=$(cxltier list --sysroot "$root" -j -b -n -o NAME)
    [[ $a == "$b" ]]
}

@test "filters: OR within one filter, AND across them" {
    root=$(fixture lab-region-online)
    run cxltier list --sysroot "$root" -j -m mem0 -r region0 -d dax0.0 -N 1
    assert_success
    [[ $(jq '.memdevs | length' <<<"$output") == 1 ]]
    run cxltier list --sysroot "$root" -j -m mem0 -N node0
    assert_success
    [[ $(jq '.memdevs | length' <<<"$output") == 0 ]]
}

@test "an unknown memdev in a filter is an error naming it" {
    run cxltier list --sysroot "$(fixture lab-region-online)" -m mem9
    assert_failure 1
    assert_output --partial "no memdev 'mem9'"
}

@test "an unknown region or dax device in a filter is an error" {
    root=$(fixture lab-region-online)
    run cxltier list --sysroot "$root" -r region7
    assert_failure 1
    assert_output --partial "no region 'region7'"
    run cxltier list --sysroot "$root" -d dax3.0
    assert_failure 1
    assert_output --partial "dax3.0"
}

@test "a node filter must be a number" {
    run cxltier list --sysroot "$(fixture lab-region-online)" -N fast
    assert_failure 2
}

@test "no CXL bus: empty list, exit 0, hint on stderr in table mode only" {
    root=$(fixture host-nocxl)
    run --separate-stderr cxltier list --sysroot "$root"
    assert_success
    assert_output ''
    [[ $stderr == *"no CXL bus"* ]]
    run --separate-stderr cxltier list --sysroot "$root" -j
    assert_success
    [[ -z $stderr ]]
    [[ $(jq -c . <<<"$output") == '{"memdevs":[]}' ]]
}

@test "an unreadable sysfs file is named in the error" {
    root=$(fixture lab-region-online)
    cp -a "$root" "$BATS_TEST_TMPDIR/broken"
    f=$BATS_TEST_TMPDIR/broken/sys/devices/platform/ACPI0017:00/root0/decoder0.0/region0/size
    rm "$f"; mkdir "$f"          # reading a directory fails even for root
    run cxltier list --sysroot "$BATS_TEST_TMPDIR/broken"
    assert_failure 1
    assert_output --partial "region0/size"
}

@test "a malformed number in sysfs is named with its content" {
    root=$(fixture lab-region-online)
    cp -a "$root" "$BATS_TEST_TMPDIR/bad"
    echo zzz > "$BATS_TEST_TMPDIR/bad/sys/devices/system/memory/block_size_bytes"
    run cxltier list --sysroot "$BATS_TEST_TMPDIR/bad"
    assert_failure 1
    assert_output --partial 'block_size_bytes: "zzz" is not a number'
}
