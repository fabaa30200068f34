#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# What real platforms have that the QEMU lab cannot make, on captured trees
# edited to carry it (test/fixtures/edited/, each script with the kernel ABI
# it follows): a dax device bound to fsdev_dax for famfs, two levels of
# switches; and what ndctl users type: `cxl list`'s -p/-e/-b filters,
# `destroy-region -f`.
load helper

# --- famfs: a dax device bound to fsdev_dax ---

@test "famfs: list shows the dax device's mode as famfs (not devdax, not unbound), in the table and the JSON" {
    root=$(fixture famfs-devdax)
    run cxltier list --sysroot "$root" -j
    assert_success
    assert_equal "$(jq -c '.regions[0].dax_devices[0] | [.name, .mode, .size]' <<<"$output")" '["dax0.0","famfs",1073741824]'
    run cxltier list --sysroot "$root" -o NAME,MODE -n
    assert_success
    assert_line --regexp '^`-dax0.0 +famfs$'
}

@test "famfs: online and online --convert refuse it, naming it; online all and --policy pass it by without failing" {
    root=$(fixture famfs-devdax)
    for args in "dax0.0" "dax0.0 --convert" "region0" "mem0 --convert"; do
        # shellcheck disable=SC2086
        run --separate-stderr cxltier online $args --dry-run --sysroot "$root"
        [[ $status == 1 ]] || fail "online $args: exit $status, not 1: $stderr"
        [[ $stderr == *"dax0.0 holds a famfs file system (bound to fsdev_dax): its memory is never onlined or converted by cxltier"* ]] ||
            fail "online $args: not refused as famfs: $stderr"
    done
    for args in "all" "--policy"; do
        # shellcheck disable=SC2086
        run --separate-stderr cxltier online $args --dry-run --sysroot "$root" -j
        [[ $status == 0 ]] || fail "online $args: exit $status: $stderr"
        assert_equal "$args: $(jq -c '[has("blocks"), .blocks]' <<<"$output")" "$args: [true,[]]"
    done
}

@test "famfs: region destroy and offline --remove refuse before any change, dry run or not, and say what to do" {
    root=$(fixture famfs-devdax)
    want="region0: its dax device dax0.0 is a famfs device (bound to fsdev_dax): cxltier does not take it away (unmount what uses it, then 'daxctl reconfigure-device --mode=devdax dax0.0')"
    for args in "region destroy region0 --dry-run" "region destroy region0 --force" "offline mem0 --remove --dry-run" "offline mem0 --remove"; do
        # shellcheck disable=SC2086
        run --separate-stderr cxltier $args --sysroot "$root"
        [[ $status == 1 ]] || fail "$args: exit $status, not 1: $stderr"
        [[ $stderr == *"$want"* ]] || fail "$args: not refused as famfs: $stderr"
    done
    assert_equal "$(cat "$root/sys/bus/cxl/devices/region0/commit")" 1
    assert_equal "$(cat "$root/sys/bus/cxl/devices/decoder2.0/dpa_size")" "$(cat "$(fixture lab-region-offline)/sys/bus/cxl/devices/decoder2.0/dpa_size")"
    run --separate-stderr cxltier offline mem0 --remove --dry-run --sysroot "$root" -j
    assert_failure 1
    assert_equal "$(jq -c '.memdevs[0].regions[0] | [.name, .state]' <<<"$output")" '["region0","failed"]'
}

@test "famfs: doctor calls it fine (the memory is a file system's on purpose), never 'online --convert'" {
    root=$(fixture famfs-devdax)
    run cxltier doctor --all --sysroot "$root" -j
    assert_success
    assert_equal "$(jq -c '[.findings[] | select(.object == "dax0.0") | [.status, .finding]]' <<<"$output")" \
        '[["ok","a famfs device (bound to fsdev_dax): its memory is a file system'"'"'s, not system RAM"]]'
    [[ $output != *"--convert"* ]] || fail "doctor suggests converting a famfs device: $output"
}

# --- two levels of switches ---

@test "two-level switch: each memdev's path runs root0, port1, port2, port3 with the downstream ports it takes" {
    root=$(fixture two-level-switch)
    run --separate-stderr cxltier list -v -j --sysroot "$root"
    assert_success
    assert_equal "$(jq -c '[.memdevs[] | [.name, .host, .endpoint, [.path[] | [.port, .dport]]]]' <<<"$output")" \
        '[["mem0","0000:11:00.0","endpoint4",[["root0",12],["port1",0],["port2",0],["port3",0]]],["mem1","0000:12:00.0","endpoint5",[["root0",12],["port1",0],["port2",0],["port3",1]]]]'
}

@test "two-level switch: region create plans the 2-way set in the lower switch's port order, on the endpoints' decoders" {
    root=$(fixture two-level-switch)
    run --separate-stderr cxltier region create mem1 mem0 --dry-run -j --sysroot "$root"
    assert_success
    assert_equal "$(jq -c '.regions[0] | [.interleave_ways, .size, [.targets[] | [.position, .memdev, .decoder]]]' <<<"$output")" \
        '[2,2147483648,[[0,"mem0","decoder4.0"],[1,"mem1","decoder5.0"]]]'
}

# --- cxl list's -p, -e, -b ---

@test "-p keeps what lies below a port, at any depth; -e an endpoint, by name, id or memdev; --bus the bus" {
    root=$(fixture two-level-switch)
    names() { run --separate-stderr cxltier list "$@" --sysroot "$root" -j; assert_success; jq -c '[.memdevs[].name]' <<<"$output"; }
    assert_equal "$(names -p port2)" '["mem0","mem1"]'
    assert_equal "$(names -p 3)" '["mem0","mem1"]'
    assert_equal "$(names -p root)" '["mem0","mem1"]'
    assert_equal "$(names -p endpoint5)" '["mem1"]'
    assert_equal "$(names -p pci0000:0c)" '["mem0","mem1"]'
    assert_equal "$(names -p 0000:0f:00.0)" '["mem0","mem1"]'
    assert_equal "$(names -p mem1)" '["mem1"]'
    assert_equal "$(names -e endpoint4)" '["mem0"]'
    assert_equal "$(names -e 5)" '["mem1"]'
    assert_equal "$(names -e mem1)" '["mem1"]'
    assert_equal "$(names -e mem0,mem1 -p endpoint4)" '["mem0"]'
    assert_equal "$(names --bus root0)" '["mem0","mem1"]'
    assert_equal "$(names --bus ACPI.CXL)" '["mem0","mem1"]'
    assert_equal "$(names --bus 0 -e 4)" '["mem0"]'
}

@test "-p on a two-device machine keeps one memdev and its region whole" {
    root=$(fixture lab-two-devices)
    run cxltier list -p endpoint3 --sysroot "$root" -j
    assert_success
    assert_equal "$(jq -c '[.memdevs[].name], [.regions[] | [.name, [.targets[].memdev]]]' <<<"$output" | tr -d '\n')" \
        '["mem1"][["region0",["mem0","mem1"]]]'
}

@test "port, endpoint and bus names that exist nowhere are errors naming them; -b is --bytes and says so" {
    root=$(fixture two-level-switch)
    run --separate-stderr cxltier list -p port9 --sysroot "$root"
    assert_failure 1
    assert_equal "$stderr" "cxltier list: error: no CXL port 'port9' on this system (rootN, portN, endpointN, an id or a port's host; see 'cxltier list -v')"
    run --separate-stderr cxltier list -e port3 --sysroot "$root"
    assert_failure 1
    assert_equal "$stderr" "cxltier list: error: no CXL endpoint 'port3' on this system (endpointN, its id or its memdev; see 'cxltier list')"
    run --separate-stderr cxltier list --bus cxl_test --sysroot "$root"
    assert_failure 1
    assert_equal "$stderr" "cxltier list: error: no CXL bus 'cxl_test' with memdevs on this system (rootN, its id, or ACPI.CXL)"
    run --separate-stderr cxltier list -b root0 --sysroot "$root"
    assert_failure 2
    [[ $stderr == *"unexpected argument 'root0'"*"-b is --bytes here: a bus is --bus"* ]] || fail "$stderr"
}

# --- destroy-region -f ---

@test "region destroy --force is --offline: the same plan, output and steps; without either an online region is refused" {
    root=$(fixture lab-two-devices)
    run --separate-stderr cxltier region destroy region0 --force --dry-run --sysroot "$root" -j
    assert_success
    f_out=$output f_err=$stderr
    run --separate-stderr cxltier region destroy region0 --offline --dry-run --sysroot "$root" -j
    assert_success
    assert_equal "$f_out" "$output"
    assert_equal "$f_err" "$stderr"
    [[ $stderr == *"would offline its online memory blocks"* ]] || fail "$stderr"
    run --separate-stderr cxltier region destroy region0 --dry-run --sysroot "$root"
    assert_failure 1
    [[ $stderr == *"has 16 memory blocks online: destroy would refuse without --offline"* ]] || fail "$stderr"
}

# --- an extended linear cache ---

@test "extended linear cache: a region's size is its CXL capacity, the cache and the whole HPA range shown apart" {
    root=$(fixture elc-region)
    run --separate-stderr cxltier list --sysroot "$root" -j
    assert_success
    assert_equal "$(jq -c '.regions[0] | [.size, .extended_linear_cache_size, .hpa_size, .resource, ([.targets[].dpa_size] | add)]' <<<"$output")" \
        '[1073741824,1073741824,2147483648,4563402752,1073741824]'
    assert_equal "$(jq -c '.regions[0].dax_devices[0] | [.size, .memory_blocks.total, .memory_blocks.movable]' <<<"$output")" '[2147483648,16,16]'
    run --separate-stderr cxltier list --sysroot "$(fixture lab-region-online)" -j
    assert_success
    assert_equal "$(jq -c '.regions[0] | [.size, has("extended_linear_cache_size"), has("hpa_size")]' <<<"$output")" '[1073741824,false,false]'
    run cxltier list --sysroot "$root" -o NAME,SIZE -n
    assert_success
    assert_line --regexp '^region0 +1G$'
    assert_line --regexp '^`-dax0.0 +2G$'
}

@test "extended linear cache: metrics give the capacity and the cache apart; every block of the range is counted once" {
    root=$(fixture elc-region)
    run --separate-stderr cxltier metrics --sysroot "$root"
    assert_success
    assert_line 'cxltier_region_size_bytes{region="region0"} 1073741824'
    assert_line 'cxltier_region_extended_linear_cache_bytes{region="region0"} 1073741824'
    assert_line 'cxltier_region_memory_bytes{region="region0",node="1",state="online",zone="movable"} 2147483648'
    run --separate-stderr cxltier metrics --sysroot "$(fixture lab-region-online)"
    assert_success
    refute_line --partial cxltier_region_extended_linear_cache_bytes
}

@test "extended linear cache: offline plans the blocks of the whole range, the cache's alias included" {
    root=$(fixture elc-region)
    run --separate-stderr cxltier offline region0 --dry-run --sysroot "$root" -j
    assert_success
    assert_equal "$(jq -c '[.blocks[].id] | [length, min, max]' <<<"$output")" '[16,34,49]'
}

@test "famfs on a card's first region: offline --remove refuses the card before taking the other region apart" {
    cp -a "$(fixture famfs-second-region)" "$BATS_TEST_TMPDIR/t"
    root=$BATS_TEST_TMPDIR/t
    run --separate-stderr cxltier offline mem0 --remove --sysroot "$root" -j
    assert_failure 1
    assert_equal "$(jq -c '[.memdevs[0].regions[] | [.name, .state]]' <<<"$output")" '[["region1","failed"],["region0","failed"]]'
    [[ $stderr == *"mem0: region0 is not cxltier's to take away (see above): NOT safe to remove; nothing was changed"* ]] || fail "$stderr"
    for r in region0 region1; do
        assert_equal "$r $(cat "$root/sys/bus/cxl/devices/$r/commit")" "$r 1"
    done
    assert_equal "$(cat "$root/sys/bus/cxl/devices/decoder2.1/dpa_size")" 0x20000000
    assert_equal "$(cat "$root/sys/bus/cxl/devices/decoder2.1/region")" region1
    [[ -e $root/sys/bus/cxl/devices/mem0/driver ]] || fail "mem0 was disabled"
}
