#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier list` on sysfs trees captured from the lab guest (Linux 6.12,
# QEMU 10 Type-3 devices: one, or two interleaved 2-way) and from a machine
# without CXL.
load helper

@test "list -j: memdevs and regions at the top, each once; a region carries its targets and dax devices" {
    root=$(fixture lab-region-online)
    run cxltier --sysroot "$root" list -j
    assert_success
    run jq -e '(keys == ["memdevs","regions"])
        and (.memdevs[0] | .name == "mem0" and .serial == 4660 and .host == "0000:0d:00.0"
             and .ram_size == 1073741824 and .endpoint == "endpoint2" and .regions == ["region0"])
        and (.regions[0] | .name == "region0" and .mode == "ram" and .interleave_ways == 1
             and .root_decoder == "decoder0.0" and .state == "active"
             and .targets == [{"position":0,"decoder":"decoder2.0","memdev":"mem0","dpa_resource":0,"dpa_size":1073741824}]
             and .dax_devices[0].name == "dax0.0" and .dax_devices[0].mode == "system-ram"
             and .dax_devices[0].target_node == 1 and .dax_devices[0].memory_tier == 8
             and .dax_devices[0].memory_blocks == {"first":34,"total":8,"online":8,"offline":0,"movable":8,"normal":0})' <<<"$output"
    assert_success
}

@test "list shows a tree per region: its memdevs by position, then its dax devices" {
    root=$(fixture lab-region-online)
    run cxltier list --sysroot "$root"
    assert_success
    assert_line --index 0 --regexp '^NAME +TYPE +SIZE +MODE +STATE +HOST +NODE +ONLINE +MOVABLE$'
    assert_line --index 2 --regexp '^\|-mem0 +memdev +1G +enabled 0000:0d:00.0 *$'
    assert_line --index 3 --regexp '^`-dax0.0 +dax +1G +system-ram +1 +8 +8 *$'
    run cxltier list --sysroot "$root" -o NAME,TYPE,SIZE,MODE,SERIAL,HOST,POS,DECODER,STATE,NODE,TIER,BLOCKS,ONLINE,MOVABLE
    assert_success
    assert_line --index 1 --regexp '^region0 +region +1G +ram +active *$'
    assert_line --index 2 --regexp '^\|-mem0 +memdev +1G +0x1234 +0000:0d:00.0 +0 +decoder2.0 +enabled *$'
    assert_line --index 3 --regexp '^`-dax0.0 +dax +1G +system-ram +1 +8 +8 +8 +8 *$'
}

@test "two memdevs interleaved 2-way: region and dax device once, sums do not double count" {
    root=$(fixture lab-two-devices)
    run cxltier list --sysroot "$root" -j
    assert_success
    json=$output
    [[ $(jq '[.regions[].size] | add' <<<"$json") == 2147483648 ]]
    [[ $(jq '[.regions[].dax_devices[].size] | add' <<<"$json") == 2147483648 ]]
    [[ $(jq '[.regions[].dax_devices[].memory_blocks.total] | add' <<<"$json") == 16 ]]
    [[ $(jq '[.. | objects | select(.name? == "region0")] | length' <<<"$json") == 1 ]]
    [[ $(jq '[.. | objects | select(.name? == "dax0.0")] | length' <<<"$json") == 1 ]]
    [[ $(jq '[.regions[0].targets[].dpa_size] | add' <<<"$json") == 2147483648 ]]
    [[ $(jq -c '[.regions[0].targets[] | [.position, .decoder, .memdev]]' <<<"$json") == '[[0,"decoder2.0","mem0"],[1,"decoder3.0","mem1"]]' ]]
    [[ $(jq -c '[.memdevs[] | [.name, .regions]]' <<<"$json") == '[["mem0",["region0"]],["mem1",["region0"]]]' ]]
    run cxltier list --sysroot "$root" -o NAME,TYPE,SIZE,MODE,SERIAL,HOST,POS,DECODER,STATE,NODE,TIER,BLOCKS,ONLINE,MOVABLE
    assert_success
    assert_line --index 1 --regexp '^region0 +region +2G +ram +active *$'
    assert_line --index 2 --regexp '^\|-mem0 +memdev +1G +0x1234 +0000:0d:00.0 +0 +decoder2.0 +enabled *$'
    assert_line --index 3 --regexp '^\|-mem1 +memdev +1G +0x5678 +0000:0e:00.0 +1 +decoder3.0 +enabled *$'
    assert_line --index 4 --regexp '^`-dax0.0 +dax +2G +system-ram +1 +8 +16 +16 +16 *$'
    [[ ${#lines[@]} == 5 ]]
}

@test "the memdev view: -m keeps that memdev and the regions it backs, whole" {
    root=$(fixture lab-two-devices)
    run cxltier list --sysroot "$root" -j -m mem1
    assert_success
    [[ $(jq -c '[.memdevs[].name], [.regions[].name], [.regions[0].targets[].memdev]' <<<"$output" | tr -d '\n') == '["mem1"]["region0"]["mem0","mem1"]' ]]
    run cxltier list --sysroot "$root" -m mem1 -n -o NAME
    assert_success
    assert_output "$(printf 'region0\n|-mem0\n|-mem1\n`-dax0.0')"
}

@test "a memdev in no region is listed on its own, with its volatile size" {
    root=$(fixture lab-two-devices)
    cp -a "$root" "$BATS_TEST_TMPDIR/one"
    rm "$BATS_TEST_TMPDIR/one/sys/bus/cxl/devices/region0"
    run cxltier list --sysroot "$BATS_TEST_TMPDIR/one" -n -o NAME,TYPE,SIZE
    assert_success
    assert_line --index 0 --regexp '^mem0 +memdev +1G$'
    assert_line --index 1 --regexp '^mem1 +memdev +1G$'
    run cxltier list --sysroot "$BATS_TEST_TMPDIR/one" -j
    assert_success
    [[ $(jq -c '[.memdevs[].regions], .regions' <<<"$output" | tr -d '\n') == '[[],[]][]' ]]
}

@test "offline blocks are counted as offline, with no tier yet" {
    root=$(fixture lab-region-offline)
    run cxltier list --sysroot "$root" -j
    assert_success
    run jq -c '.regions[0].dax_devices[0] | [.memory_blocks.online, .memory_blocks.offline, has("memory_tier")]' <<<"$output"
    assert_output '[0,8,false]'
}

@test "-o chooses columns, -n drops headings, -b prints bytes" {
    root=$(fixture lab-region-online)
    run cxltier list --sysroot "$root" -o NAME,SIZE -n -b
    assert_success
    assert_line --index 0 --regexp '^region0 +1073741824$'
    assert_line --index 1 --regexp '^\|-mem0 +1073741824$'
    run cxltier list --sysroot "$root" -o +RESOURCE -n
    assert_success
    assert_line --index 0 --regexp 'active +0x110000000$'
}

@test "an unknown column is a usage error" {
    run cxltier list --sysroot "$(fixture lab-region-online)" -o NAME,BOGUS
    assert_failure 2
    assert_output --partial "unknown column 'BOGUS'"
}

@test "the JSON shape does not depend on table options" {
    root=$(fixture lab-region-online)
    a=$(cxltier list --sysroot "$root" -j)
    b=$(cxltier list --sysroot "$root" -j -b -n)
    [[ $a == "$b" ]]
    # -o chooses a table's columns: with -j it is refused, not ignored
    run --separate-stderr cxltier list --sysroot "$root" -j -o NAME
    assert_failure 2
}

@test "filters: OR within one filter, AND across them" {
    root=$(fixture lab-region-online)
    run cxltier list --sysroot "$root" -j -m mem0 --region region0 -d dax0.0 -N 1
    assert_success
    [[ $(jq -c '[(.memdevs | length), (.regions | length), (.regions[0].dax_devices | length)]' <<<"$output") == '[1,1,1]' ]]
    run cxltier list --sysroot "$root" -j -m mem0 -N node0
    assert_success
    [[ $(jq -c '[(.memdevs | length), (.regions | length)]' <<<"$output") == '[0,0]' ]]
    run cxltier list --sysroot "$root" -j --region region0
    assert_success
    [[ $(jq -c '[.memdevs[].name]' <<<"$output") == '["mem0"]' ]]
}

@test "an unknown memdev in a filter is an error naming it" {
    run cxltier list --sysroot "$(fixture lab-region-online)" -m mem9
    assert_failure 1
    assert_output --partial "no memdev 'mem9'"
}

@test "an unknown region or dax device in a filter is an error" {
    root=$(fixture lab-region-online)
    run cxltier list --sysroot "$root" --region region7
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
    [[ $(jq -c . <<<"$output") == '{"memdevs":[],"regions":[]}' ]]
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

@test "-m takes memN, N, a serial (hex or decimal), the PCI device or all, as ndctl" {
    root=$(fixture lab-two-devices-idle)
    for spec in mem1 1 0x5678 22136 0000:0e:00.0; do
        run --separate-stderr cxltier list --sysroot "$root" -j -m "$spec"
        assert_success
        [[ $(jq -c '[.memdevs[].name]' <<<"$output") == '["mem1"]' ]]
    done
    run --separate-stderr cxltier list --sysroot "$root" -j -m all
    assert_success
    [[ $(jq -c '[.memdevs[].name]' <<<"$output") == '["mem0","mem1"]' ]]
    run cxltier list --sysroot "$root" -m 0x9999
    assert_failure 1
    assert_output --partial "no memdev '0x9999'"
}

@test "-s filters by serial number; ANDed with -m" {
    root=$(fixture lab-two-devices)
    run --separate-stderr cxltier list --sysroot "$root" -j --serial 0x1234
    assert_success
    [[ $(jq -c '[.memdevs[].name], [.regions[].name]' <<<"$output" | tr -d '\n') == '["mem0"]["region0"]' ]]
    run --separate-stderr cxltier list --sysroot "$root" -j --serial 4660,22136
    assert_success
    [[ $(jq -c '[.memdevs[].name]' <<<"$output") == '["mem0","mem1"]' ]]
    run --separate-stderr cxltier list --sysroot "$root" -j --serial 0x1234 -m mem1
    assert_success
    [[ $(jq -c '[(.memdevs | length), (.regions | length)]' <<<"$output") == '[0,0]' ]]
    run cxltier list --sysroot "$root" --serial 0x42
    assert_failure 1
    assert_output --partial "no memdev with serial 0x42"
    run cxltier list --sysroot "$root" --serial zz
    assert_failure 2
}

@test "-u: sizes and addresses as strings in the JSON, the table unchanged" {
    root=$(fixture lab-two-devices)
    run --separate-stderr cxltier list --sysroot "$root" -j -u
    assert_success
    [[ $(jq -c '[.regions[0].size, .regions[0].resource, .memdevs[0].serial, .memdevs[0].ram_size,
                 .regions[0].targets[1].dpa_size, .regions[0].dax_devices[0].size]' <<<"$output") == \
       '["2G","0x110000000","0x1234","1G","1G","2G"]' ]]
    plain=$(cxltier list --sysroot "$root")
    run cxltier list --sysroot "$root" -u
    assert_success
    assert_output "$plain"
}

@test "-v adds the root decoders and each memdev's endpoint decoders and port path" {
    root=$(fixture lab-two-devices)
    run --separate-stderr cxltier list --sysroot "$root" -j
    assert_success
    [[ $(jq -c '[has("root_decoders"), (.memdevs[0] | has("decoders"))]' <<<"$output") == '[false,false]' ]]
    run --separate-stderr cxltier list --sysroot "$root" -j -v
    assert_success
    run jq -e '(.root_decoders == [{"name":"decoder0.0","resource":4563402752,"size":4294967296,"interleave_ways":1,
                 "interleave_granularity":256,"volatile_capable":true,"ram_regions":true,
                 "max_available_extent":2147483648,"qos_class":0,"targets":[{"position":0,"id":12}],"regions":["region0"]}])
        and (.memdevs[1].path == [{"port":"root0","dport":12},{"port":"port1","dport":1}])
        and (.memdevs[1].decoders | length == 4 and .[0] == {"name":"decoder3.0","mode":"ram","dpa_resource":0,
                 "dpa_size":1073741824,"region":"region0"} and .[1] == {"name":"decoder3.1","mode":"none"})' <<<"$output"
    assert_success
}

@test "-vvv adds firmware; partition info only where the mailbox is (not from a captured tree)" {
    root=$(fixture lab-two-devices)
    run --separate-stderr cxltier list --sysroot "$root" -j -vvv
    assert_success
    [[ $(jq -c '.memdevs[0] | [.firmware, has("partition_info")]' <<<"$output") == '[{"version":"BWFW VERSION 00","update_status":"idle"},false]' ]]
    [[ $stderr == *"partition info comes from the device's mailbox"* ]]
}

@test "--summary: memory blocks by node, online/offline, movable/normal, CXL; totals once" {
    root=$(fixture lab-two-devices)
    run --separate-stderr cxltier list --sysroot "$root" --summary
    assert_success
    assert_line --index 0 --regexp '^NODE +BLOCKS +ONLINE +OFFLINE +MOVABLE +NORMAL +OTHER +CXL +CXL-ONLINE$'
    assert_line --index 1 --regexp '^node0 +16 +2G +0 +0 +0 +2G +0 +0$'
    assert_line --index 2 --regexp '^node1 +16 +2G +0 +2G +0 +0 +2G +2G$'
    assert_line --index 3 --regexp '^total +32 +4G +0 +2G +0 +2G +2G +2G$'
    assert_line 'Memory block size: 128M'
    run --separate-stderr cxltier list --sysroot "$root" --summary -j
    assert_success
    [[ $(jq -c 'keys' <<<"$output") == '["nodes","summary"]' ]]
    [[ $(jq '.summary[0].block_size' <<<"$output") == 134217728 ]]
    [[ $(jq '[.nodes[].online_size] | add' <<<"$output") == $(jq '.summary[0].online_size' <<<"$output") ]]
    [[ $(jq -c '[.nodes[] | [.node, .movable_size, .cxl_size]]' <<<"$output") == '[[0,0,0],[1,2147483648,2147483648]]' ]]
    root=$(fixture lab-region-offline)
    run --separate-stderr cxltier list --sysroot "$root" --summary -j
    assert_success
    [[ $(jq -c '.nodes[] | select(.node == 1) | [.offline_blocks, .cxl_size, .cxl_online_size]' <<<"$output") == '[8,1073741824,0]' ]]
}

@test "--summary: the block right after a dax device's range is not CXL memory" {
    root=$(fixture lab-region-online)
    cp -a "$root" "$BATS_TEST_TMPDIR/t"
    m=$BATS_TEST_TMPDIR/t/sys/devices/system/memory
    cp -a "$m/memory15" "$m/memory42"    # dax0.0 is memory34-41: 42 is node 0's
    printf '42\n' > "$m/memory42/phys_index"
    ln -s ../../memory/memory42 "$BATS_TEST_TMPDIR/t/sys/devices/system/node/node0/memory42"
    run --separate-stderr cxltier list --sysroot "$BATS_TEST_TMPDIR/t" --summary -j
    assert_success
    [[ $(jq -c '[.nodes[] | [.node, .blocks, .cxl_size]]' <<<"$output") == '[[0,17,0],[1,8,1073741824]]' ]] ||
        fail "$output"
}
