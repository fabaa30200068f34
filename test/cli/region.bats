#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier region` on captured trees: plans (--dry-run), the memdev names it
# takes, refusals, and the sysfs steps written into a copied tree, with the
# undo when a step is refused.
load helper

@test "region without a subcommand, or an unknown one, is a usage error" {
    run cxltier region
    assert_failure 2
    assert_output --partial "a subcommand is needed"
    run cxltier region grow
    assert_failure 2
    assert_output --partial "unknown subcommand 'grow'"
    run cxltier region create
    assert_failure 2
    assert_output --partial "give the memdevs"
    run cxltier region destroy
    assert_failure 2
}

@test "create --dry-run on two idle memdevs: 2-way plan in root-port order, size the sum" {
    root=$(fixture lab-two-devices-idle)
    run --separate-stderr cxltier --sysroot "$root" region create mem1 mem0 --dry-run -j
    assert_success
    [[ $stderr == *"dry run: would create region0 under decoder0.0: 2 ways x 1024 MiB, granularity 256, through sysfs"* ]]
    run jq -e '.regions | length == 1 and (.[0] | .name == "region0" and .state == "planned" and .mode == "ram"
        and .size == 2147483648 and .interleave_ways == 2 and .interleave_granularity == 256
        and .root_decoder == "decoder0.0"
        and .targets == [{"position":0,"decoder":"decoder2.0","memdev":"mem0","dpa_size":1073741824},
                         {"position":1,"decoder":"decoder3.0","memdev":"mem1","dpa_size":1073741824}])' <<<"$output"
    assert_success
}

@test "create --dry-run shows the plan as list's tree" {
    root=$(fixture lab-two-devices-idle)
    run --separate-stderr cxltier --sysroot "$root" region create mem0 mem1 --dry-run -o NAME,TYPE,SIZE,POS,DECODER,STATE
    assert_success
    assert_line --index 1 --regexp '^region0 +region +2G +planned$'
    assert_line --index 2 --regexp '^\|-mem0 +memdev +1G +0 +decoder2.0 +enabled$'
    assert_line --index 3 --regexp '^`-mem1 +memdev +1G +1 +decoder3.0 +enabled$'
}

@test "memdevs by id, serial (hex or decimal) and PCI device, as ndctl takes them" {
    root=$(fixture lab-two-devices-idle)
    for spec in "1 0" "0x5678 mem0" "22136 0000:0d:00.0" "0000:0e:00.0 4660"; do
        # shellcheck disable=SC2086
        run --separate-stderr cxltier --sysroot "$root" region create $spec --dry-run -j
        assert_success
        [[ $(jq -c '[.regions[0].targets[].memdev]' <<<"$output") == '["mem0","mem1"]' ]]
    done
    run cxltier --sysroot "$root" region create mem9 --dry-run
    assert_failure 1
    assert_output --partial "no memdev 'mem9'"
}

@test "a number that is one memdev's id and another's serial is refused as ambiguous" {
    cp -a "$(fixture lab-two-devices-idle)" "$BATS_TEST_TMPDIR/t"
    echo 0x1 > "$BATS_TEST_TMPDIR/t/sys/devices/pci0000:0c/0000:0c:00.0/0000:0d:00.0/mem0/serial"
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" region create 1 --dry-run
    assert_failure 2
    assert_output --partial "'1' names both"
}

@test "options: one memdev, a size, a granularity, a root decoder" {
    root=$(fixture lab-two-devices-idle)
    run --separate-stderr cxltier --sysroot "$root" region create mem1 -s 512M -g 1024 -d decoder0.0 --dry-run -j
    assert_success
    [[ $(jq -c '.regions[0] | [.size, .interleave_ways, .interleave_granularity, .targets[0].decoder]' <<<"$output") == '[536870912,1,1024,"decoder3.0"]' ]]
    run cxltier --sysroot "$root" region create mem0 mem1 -w 3 --dry-run
    assert_failure 1
    assert_output --partial "3 ways but 2 memdevs given"
    run cxltier --sysroot "$root" region create mem0 -s 100M --dry-run
    assert_failure 1
    assert_output --partial "not a multiple of 256M"
    run cxltier --sysroot "$root" region create mem0 -s 3G --dry-run
    assert_failure 1
    assert_output --partial "only 1G free"
    run cxltier --sysroot "$root" region create mem0 -g 300 --dry-run
    assert_failure 1
    assert_output --partial "granularity 300"
    run cxltier --sysroot "$root" region create mem0 -d decoder7.7 --dry-run
    assert_failure 1
    assert_output --partial "no root decoder 'decoder7.7'"
    run cxltier --sysroot "$root" region create mem0 -s lots
    assert_failure 2
}

@test "memdevs whose capacity a region already maps are refused, by name" {
    run cxltier --sysroot "$(fixture lab-two-devices)" region create mem1 --dry-run
    assert_failure 1
    assert_output --partial "mem1 has no free volatile capacity (1G of 1G mapped"
}

@test "a kernel without create_ram_region cannot: exit 77" {
    cp -a "$(fixture lab-two-devices-idle)" "$BATS_TEST_TMPDIR/t"
    rm "$BATS_TEST_TMPDIR/t/sys/devices/platform/ACPI0017:00/root0/decoder0.0/create_ram_region"
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" region create mem0 --dry-run
    assert_failure 77
    assert_output --partial "create_ram_region"
}

# a copy of the idle tree with the files the kernel would create for region0
fake_region_tree() {
    local t=$BATS_TEST_TMPDIR/t dec=sys/devices/platform/ACPI0017:00/root0/decoder0.0
    cp -a "$(fixture lab-two-devices-idle)" "$t"
    mkdir -p "$t/$dec/region0" "$t/sys/bus/cxl/drivers/cxl_region"
    # as the kernel shows a region it has just created
    for f in interleave_granularity interleave_ways commit; do echo 0 > "$t/$dec/region0/$f"; done
    echo 0x0 > "$t/$dec/region0/size"
    echo 0xffffffffffffffff > "$t/$dec/region0/resource"
    echo ram > "$t/$dec/region0/mode"
    : > "$t/$dec/region0/target0"; : > "$t/$dec/region0/target1"
    ln -s "../../../devices/platform/ACPI0017:00/root0/decoder0.0/region0" "$t/sys/bus/cxl/devices/region0"
    : > "$t/$dec/delete_region"
    : > "$t/sys/bus/cxl/drivers/cxl_region/bind"
    echo "$t"
}

@test "create writes the sysfs steps in the kernel's order" {
    t=$(fake_region_tree)
    ln -s ../../../../../../bus/cxl/drivers/cxl_region "$t/sys/devices/platform/ACPI0017:00/root0/decoder0.0/region0/driver"
    run --separate-stderr cxltier --sysroot "$t" region create mem0 mem1 -j
    assert_success
    [[ $stderr == *"created region0 under decoder0.0 (through sysfs)"* ]]
    r=$t/sys/bus/cxl/devices/region0
    [[ $(cat "$t/sys/bus/cxl/devices/decoder0.0/create_ram_region") == region0 ]]
    [[ "$(cat $r/interleave_granularity) $(cat $r/interleave_ways) $(cat $r/size)" == "256 2 2147483648" ]]
    [[ "$(cat $r/target0) $(cat $r/target1) $(cat $r/commit)" == "decoder2.0 decoder3.0 1" ]]
    d=$t/sys/bus/cxl/devices
    [[ "$(cat $d/decoder2.0/mode) $(cat $d/decoder2.0/dpa_size) $(cat $d/decoder3.0/mode)" == "ram 1073741824 ram" ]]
    [[ $(cat "$t/sys/bus/cxl/drivers/cxl_region/bind") == region0 ]]
    [[ $(jq -r '.regions[0].name' <<<"$output") == region0 ]]
}

@test "a refused step is named, and the steps before it undone in reverse" {
    t=$(fake_region_tree)
    r=$t/sys/devices/platform/ACPI0017:00/root0/decoder0.0/region0
    rm "$r/target1"; mkdir "$r/target1"          # the kernel refuses target1
    run cxltier --sysroot "$t" region create mem0 mem1
    assert_failure 1
    assert_output --partial "step 'region0 target1 = decoder3.0 (mem1)' failed"
    assert_output --partial "were undone (region0 deleted)"
    d=$t/sys/bus/cxl/devices
    [[ $(cat "$r/target0") == "" ]]                       # "\n" written: cleared
    [[ "$(cat $d/decoder2.0/dpa_size) $(cat $d/decoder3.0/dpa_size) $(cat $r/size)" == "0 0 0" ]]
    [[ $(cat "$t/sys/devices/platform/ACPI0017:00/root0/decoder0.0/delete_region") == region0 ]]
}

@test "when undoing fails too, the message says what is left behind" {
    t=$(fake_region_tree)
    dec=$t/sys/devices/platform/ACPI0017:00/root0/decoder0.0
    rm "$dec/region0/commit"; mkdir "$dec/region0/commit"
    rm "$dec/delete_region"; mkdir "$dec/delete_region"
    run cxltier --sysroot "$t" region create mem0 mem1
    assert_failure 1
    assert_output --partial "step 'region0 commit' failed"
    assert_output --partial "undoing failed at 'create a RAM region under decoder0.0'"
    assert_output --partial "left behind: region0 (remove it with 'cxltier region destroy region0')"
}

@test "destroy refuses while the region's memory is online, and says how" {
    root=$(fixture lab-two-devices)
    run cxltier --sysroot "$root" region destroy region0
    assert_failure 1
    assert_output --partial "region0 has 16 memory blocks online: offline them first ('cxltier offline region0') or let destroy do it (--offline)"
    run cxltier --sysroot "$root" region destroy region7
    assert_failure 1
    assert_output --partial "no region 'region7'"
}

@test "destroy --dry-run lists the steps and changes nothing" {
    root=$(fixture lab-two-devices)
    run --separate-stderr cxltier --sysroot "$root" region destroy region0 --offline --dry-run -j
    assert_success
    [[ $stderr == *"would offline its online memory blocks, unbind it, reset its decoders, free 2 endpoint decoders and delete region0"* ]]
    [[ $(jq -r '.regions[0].name' <<<"$output") == region0 ]]
    [[ $(cat "$root/sys/bus/cxl/devices/region0/commit") == 1 ]]
}

@test "destroy refuses a region whose decoder gave out capacity before another's" {
    cp -a "$(fixture lab-two-devices)" "$BATS_TEST_TMPDIR/t"
    d=$BATS_TEST_TMPDIR/t/sys/bus/cxl/devices
    echo 0x10000000 > "$d/decoder2.1/dpa_size"; echo ram > "$d/decoder2.1/mode"
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" region destroy region0 --offline --dry-run
    assert_failure 1
    assert_output --partial "decoder2.0 (mem0) cannot give its capacity back before decoder2.1"
}

@test "a memdev whose endpoint decoders are all in use has none free (decoders_committed is not one)" {
    cp -a "$(fixture lab-two-devices-idle)" "$BATS_TEST_TMPDIR/t"
    d=$BATS_TEST_TMPDIR/t/sys/bus/cxl/devices
    for i in 0 1 2 3; do echo 0x10000000 > "$d/decoder2.$i/dpa_size"; echo ram > "$d/decoder2.$i/mode"; done
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" region create mem0 --dry-run
    assert_failure 1
    assert_output --partial "mem0 (endpoint2) has no free endpoint decoder (4 of 4 in use)"
}

# A run cut short (killed, or the machine stopped) between the steps of a
# region create or destroy leaves the kernel in between: what is really
# there is read and named, never taken for a finished state.

@test "a destroy cut short after clearing target0: list shows the position still set, destroy frees it" {
    cp -a "$(fixture lab-two-devices)" "$BATS_TEST_TMPDIR/t"
    d=$BATS_TEST_TMPDIR/t/sys/bus/cxl/devices
    echo 0 > "$d/region0/commit"; echo > "$d/region0/target0"; : > "$d/decoder2.0/region"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" list -j
    assert_success
    assert_equal "$(jq -c '[.regions[0].targets[] | [.position, .decoder, .memdev]]' <<<"$output")" '[[1,"decoder3.0","mem1"]]'
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" region destroy region0 --offline --dry-run
    assert_success
    [[ $stderr == *"free 1 endpoint decoder and delete region0"* ]] || fail "not the one target left: $stderr"
}

@test "doctor names a decoder holding capacity for no region, with the command that frees it (the last allocated first)" {
    cp -a "$(fixture lab-two-devices-idle)" "$BATS_TEST_TMPDIR/t"
    d=$BATS_TEST_TMPDIR/t/sys/bus/cxl/devices
    echo 0x40000000 > "$d/decoder2.0/dpa_size"; echo 0 > "$d/decoder2.0/dpa_resource"; echo ram > "$d/decoder2.0/mode"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" doctor -j
    assert_failure 1
    assert_equal "$(jq -c '[.findings[] | select(.check == "capacity") | [.object, .status, .fix]]' <<<"$output")" \
        '[["decoder2.0","problem","cxl free-dpa mem0 -d decoder2.0 (ndctl)"]]'
    [[ $(jq -r '.findings[] | select(.check == "capacity") | .finding' <<<"$output") == "decoder2.0 holds 1024 MiB of mem0's capacity"*"for no region"* ]]
    # one allocated after it: that one first
    echo 0x10000000 > "$d/decoder2.1/dpa_size"; echo 0x40000000 > "$d/decoder2.1/dpa_resource"; echo ram > "$d/decoder2.1/mode"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" doctor -j
    assert_failure 1
    assert_equal "$(jq -r '.findings[] | select(.check == "capacity" and .object == "decoder2.0") | .fix' <<<"$output")" \
        "free what mem0 allocated after it first (decoder2.1 is the last), then cxl free-dpa mem0 -d decoder2.0 (ndctl)"
}

@test "a memdev whose only region was never committed: online --policy fails naming it, never 'nothing to do'" {
    cp -a "$(fixture lab-region-offline)" "$BATS_TEST_TMPDIR/t"
    d=$BATS_TEST_TMPDIR/t/sys/bus/cxl/devices
    # as the kernel shows a region set up and never committed: no driver, no dax device
    echo 0 > "$d/region0/commit"
    rm -rf "$d/region0/dax_region0" "$d/region0/driver" "$BATS_TEST_TMPDIR/t/sys/bus/dax/devices/dax0.0"
    printf '[defaults]\ncreate-region = yes\n' > "$BATS_TEST_TMPDIR/conf"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" online --policy --config "$BATS_TEST_TMPDIR/conf" mem0 --dry-run -j
    assert_failure 1
    [[ $stderr == *"mem0: no region created: mem0 backs region0, not committed"*"'cxltier region destroy region0'"* ]] ||
        fail "not named: $stderr"
    assert_equal "$(jq -c '[.new_regions[] | [.memdev, .region, .state]]' <<<"$output")" '[["mem0","region0","failed"]]'
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" doctor -j
    assert_failure 1
    [[ $(jq -r '.findings[] | select(.check == "region" and .object == "region0") | .fix' <<<"$output") == "take it apart: cxltier region destroy region0"* ]]
}
