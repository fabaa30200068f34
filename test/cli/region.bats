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
    run --separate-stderr cxltier --sysroot "$root" region create mem1 -s 512M -g 1024 --decoder decoder0.0 --dry-run -j
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
    run cxltier --sysroot "$root" region create mem0 --decoder decoder7.7 --dry-run
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

# A region create or destroy records itself in /run/cxltier before its first
# kernel write (region-change.PID); a run killed midway leaves the record,
# and the next cxltier that changes memory finishes (destroy) or undoes
# (create) what it left, and says so.

# dead_record T TEXT: a record left by a killed run (pid 999999, not running)
dead_record() {
    mkdir -p -m 0700 "$1/run/cxltier"
    printf '%s' "$2" > "$1/run/cxltier/region-change.999999"
}

# online_recovers T TARGET SAID RECOVERED: `online TARGET -j` on the tree T
# succeeds, says SAID on stderr and gives RECOVERED as its "recovered"
online_recovers() {
    run --separate-stderr cxltier --sysroot "$1" online "$2" -j
    assert_success
    [[ $stderr == *"$3"* ]] || fail "not said: $stderr"
    assert_equal "$(jq -c '.recovered' <<<"$output")" "$4"
}

# a region the kernel shows half built (as a create leaves it after its
# first target step): NAME under decoder0.0, decoder2.0 at target0
half_region() {
    local t=$1 name=$2 dec=sys/devices/platform/ACPI0017:00/root0/decoder0.0
    mkdir -p "$t/$dec/$name"
    echo 256 > "$t/$dec/$name/interleave_granularity"; echo 2 > "$t/$dec/$name/interleave_ways"
    echo 0 > "$t/$dec/$name/commit"; echo 0x80000000 > "$t/$dec/$name/size"
    echo 0xffffffffffffffff > "$t/$dec/$name/resource"; echo ram > "$t/$dec/$name/mode"
    echo decoder2.0 > "$t/$dec/$name/target0"; : > "$t/$dec/$name/target1"
    ln -s "../../../devices/platform/ACPI0017:00/root0/decoder0.0/$name" "$t/sys/bus/cxl/devices/$name"
    local d=$t/sys/bus/cxl/devices
    for x in 2 3; do echo 0x40000000 > "$d/decoder$x.0/dpa_size"; echo 0 > "$d/decoder$x.0/dpa_resource"; echo ram > "$d/decoder$x.0/mode"; done
}

@test "a create killed midway is undone by the next region create, which says so and goes on" {
    t=$(fake_region_tree)
    ln -s ../../../../../../bus/cxl/drivers/cxl_region "$t/sys/devices/platform/ACPI0017:00/root0/decoder0.0/region0/driver"
    half_region "$t" region1
    dead_record "$t" $'pid 999999\nstart 5\ncommand create\nroot decoder0.0\nregion region1\ndecoder decoder2.0 mem0\ndecoder decoder3.0 mem1\n'
    run --separate-stderr cxltier --sysroot "$t" region create mem0 mem1 -j
    assert_success
    [[ $stderr == *"warning: a region create (pid 999999, region1, decoders decoder2.0, decoder3.0) was killed midway: undone: region1 removed (decoder2.0 freed), decoder3.0 freed"* ]] ||
        fail "not said: $stderr"
    [[ $stderr == *"created region0 under decoder0.0"* ]] || fail "the create did not go on: $stderr"
    d=$t/sys/bus/cxl/devices
    assert_equal "$(cat "$t/sys/devices/platform/ACPI0017:00/root0/decoder0.0/delete_region")" region1
    assert_equal "$(cat "$d/region1/target0")" ""
    assert_equal "$(jq -c '.recovered' <<<"$output")" \
        '[{"pid":999999,"command":"create","region":"region1","decoders":["decoder2.0","decoder3.0"],"outcome":"undone","done":"region1 removed (decoder2.0 freed), decoder3.0 freed"}]'
    [[ $(jq -r '.regions[0].name' <<<"$output") == region0 ]]
    # the dead run's record, and this run's own, are gone
    run ls "$t/run/cxltier"
    assert_success
    refute_output --partial region-change
}

@test "a create killed before its region was named: the DPA it took is freed, by online and offline too" {
    cp -a "$(fixture lab-two-devices)" "$BATS_TEST_TMPDIR/t"
    t=$BATS_TEST_TMPDIR/t d=$BATS_TEST_TMPDIR/t/sys/bus/cxl/devices
    echo 0x10000000 > "$d/decoder2.1/dpa_size"; echo 0x40000000 > "$d/decoder2.1/dpa_resource"; echo ram > "$d/decoder2.1/mode"
    dead_record "$t" $'pid 999999\nstart 5\ncommand create\nroot decoder0.0\ndecoder decoder2.1 mem0\n'
    own=$(cat "$d/decoder2.0/dpa_size")
    run --separate-stderr cxltier --sysroot "$t" offline region0 --dry-run
    assert_success
    [[ $stderr != *"killed midway"* ]] || fail "a dry run recovered: $stderr"
    assert_equal "$(cat "$d/decoder2.1/dpa_size")" 0x10000000
    # said, and in its JSON as region -j says it
    online_recovers "$t" region0 "a region create (pid 999999, decoders decoder2.1) was killed midway: undone: decoder2.1 freed" \
        '[{"pid":999999,"command":"create","decoders":["decoder2.1"],"outcome":"undone","done":"decoder2.1 freed"}]'
    assert_equal "$(cat "$d/decoder2.1/dpa_size")" 0
    assert_equal "$(cat "$d/decoder2.0/dpa_size")" "$own"       # the region's own: untouched
    [[ ! -e $t/run/cxltier/region-change.999999 ]] || fail "the record is still there"
    # nothing recovered: no key
    run --separate-stderr cxltier --sysroot "$t" online region0 -j
    assert_success
    assert_equal "$(jq 'has("recovered")' <<<"$output")" false
}

@test "offline memN --remove -j names the killed region change it finished first" {
    cp -a "$(fixture lab-two-devices)" "$BATS_TEST_TMPDIR/t"
    t=$BATS_TEST_TMPDIR/t d=$BATS_TEST_TMPDIR/t/sys/bus/cxl/devices
    echo 0x10000000 > "$d/decoder2.1/dpa_size"; echo 0x40000000 > "$d/decoder2.1/dpa_resource"; echo ram > "$d/decoder2.1/mode"
    dead_record "$t" $'pid 999999\nstart 5\ncommand create\nroot decoder0.0\ndecoder decoder2.1 mem0\n'
    run --separate-stderr cxltier --sysroot "$t" offline mem0 --remove --whole-region --dry-run -j
    assert_success
    assert_equal "$(jq 'has("recovered")' <<<"$output")" false
    # (the fixture has no cxl_region driver to unbind from: the removal
    # itself fails, partly done, after the recovery)
    run --separate-stderr cxltier --sysroot "$t" offline mem0 --remove --whole-region -j
    assert_failure 64
    [[ $stderr == *"a region create (pid 999999, decoders decoder2.1) was killed midway: undone: decoder2.1 freed"* ]] ||
        fail "exit $status, not said: $stderr"
    assert_equal "$(jq -c '.recovered | map([.command, .outcome, (.decoders | join(","))])' <<<"$output")" '[["create","undone","decoder2.1"]]'
    assert_equal "$(cat "$d/decoder2.1/dpa_size")" 0
}

@test "a destroy killed midway is finished by the next destroy of that region" {
    cp -a "$(fixture lab-two-devices)" "$BATS_TEST_TMPDIR/t"
    t=$BATS_TEST_TMPDIR/t d=$BATS_TEST_TMPDIR/t/sys/bus/cxl/devices
    # killed after unbinding and resetting the decoders: no driver, no dax device
    echo 0 > "$d/region0/commit"
    rm -rf "$d/region0/dax_region0" "$d/region0/driver" "$t/sys/bus/dax/devices/dax0.0"
    : > "$t/sys/devices/platform/ACPI0017:00/root0/decoder0.0/delete_region"
    dead_record "$t" $'pid 999999\nstart 5\ncommand destroy\nroot decoder0.0\nregion region0\ndecoder decoder2.0 mem0\ndecoder decoder3.0 mem1\n'
    run --separate-stderr cxltier --sysroot "$t" region destroy region0 -j
    assert_success
    [[ $stderr == *"warning: a region destroy (pid 999999, region0, decoders decoder2.0, decoder3.0) was killed midway: finished: region0 removed (decoder2.0, decoder3.0 freed)"* ]] ||
        fail "not said: $stderr"
    assert_equal "$(cat "$t/sys/devices/platform/ACPI0017:00/root0/decoder0.0/delete_region")" region0
    assert_equal "$(cat "$d/decoder2.0/dpa_size") $(cat "$d/decoder3.0/dpa_size")" "0 0"
    assert_equal "$(jq -r '.recovered[0] | [.command, .outcome] | join(" ")' <<<"$output")" "destroy finished"
    [[ ! -e $t/run/cxltier/region-change.999999 ]] || fail "the record is still there"
}

@test "a record whose run still goes is left alone" {
    cp -a "$(fixture lab-two-devices)" "$BATS_TEST_TMPDIR/t"
    t=$BATS_TEST_TMPDIR/t d=$BATS_TEST_TMPDIR/t/sys/bus/cxl/devices
    start_sleeper
    mkdir -p "$t/proc/$SLEEPER"; cp "/proc/$SLEEPER/stat" "$t/proc/$SLEEPER/stat"
    echo 0x10000000 > "$d/decoder2.1/dpa_size"; echo 0x40000000 > "$d/decoder2.1/dpa_resource"
    mkdir -p -m 0700 "$t/run/cxltier"
    printf 'pid %s\nstart %s\ncommand create\nroot decoder0.0\ndecoder decoder2.1 mem0\n' "$SLEEPER" \
        "$(sed 's/.*) //' "/proc/$SLEEPER/stat" | awk '{print $20}')" > "$t/run/cxltier/region-change.$SLEEPER"
    run --separate-stderr cxltier --sysroot "$t" online region0
    kill "$SLEEPER"
    assert_success
    [[ $stderr != *"killed midway"* ]] || fail "a running change was recovered: $stderr"
    assert_equal "$(cat "$d/decoder2.1/dpa_size")" 0x10000000
    [[ -e $t/run/cxltier/region-change.$SLEEPER ]] || fail "the record was removed"
}

@test "a recovery that cannot be done stops the change, names the decoder and keeps the record" {
    cp -a "$(fixture lab-two-devices-idle)" "$BATS_TEST_TMPDIR/t"
    t=$BATS_TEST_TMPDIR/t d=$BATS_TEST_TMPDIR/t/sys/bus/cxl/devices
    echo 0x10000000 > "$d/decoder2.0/dpa_size"; echo 0 > "$d/decoder2.0/dpa_resource"
    echo 0x10000000 > "$d/decoder2.1/dpa_size"; echo 0x10000000 > "$d/decoder2.1/dpa_resource"   # not the dead run's
    dead_record "$t" $'pid 999999\nstart 5\ncommand create\nroot decoder0.0\ndecoder decoder2.0 mem0\n'
    run cxltier --sysroot "$t" region create mem1
    assert_failure 1
    assert_output --partial "a region create (pid 999999) was killed midway; decoder2.0 (mem0) holds DPA for no region, but decoder2.1 was allocated after it and must be freed first"
    assert_output --partial "the record stays (/run/cxltier/region-change.999999)"
    refute_output --partial "created"
    assert_equal "$(cat "$d/decoder2.0/dpa_size")" 0x10000000     # nothing freed
    [[ -e $t/run/cxltier/region-change.999999 ]] || fail "the record was removed"
}

@test "a malformed or linked record is refused, by region destroy and offline alike, and kept" {
    cp -a "$(fixture lab-two-devices)" "$BATS_TEST_TMPDIR/t"
    t=$BATS_TEST_TMPDIR/t
    dead_record "$t" $'pid 999999\nstart 5\ncommand create\nroot /etc\n'
    run cxltier --sysroot "$t" region destroy region0 --offline
    assert_failure 1
    assert_output --partial "/run/cxltier/region-change.999999 is not a record of a region change as cxltier writes it: refusing it"
    assert_equal "$(cat "$t/sys/bus/cxl/devices/region0/commit")" 1
    run cxltier --sysroot "$t" offline region0
    assert_failure 1
    assert_output --partial "is not a record of a region change"
    assert_equal "$(cat "$t/run/cxltier/region-change.999999")" $'pid 999999\nstart 5\ncommand create\nroot /etc'
    rm "$t/run/cxltier/region-change.999999"
    printf 'pid 999999\nstart 5\ncommand create\nroot decoder0.0\n' > "$BATS_TEST_TMPDIR/elsewhere"
    ln -s "$BATS_TEST_TMPDIR/elsewhere" "$t/run/cxltier/region-change.999999"
    run cxltier --sysroot "$t" offline region0
    assert_failure 1
    assert_output --partial "region-change.999999: Too many levels of symbolic links (a symlink: refusing it"
    [[ -L $t/run/cxltier/region-change.999999 ]] || fail "the link was removed"
}

@test "a create whose undo fails keeps its record, naming the region for the next run" {
    t=$(fake_region_tree)
    dec=$t/sys/devices/platform/ACPI0017:00/root0/decoder0.0
    rm "$dec/region0/commit"; mkdir "$dec/region0/commit"
    rm "$dec/delete_region"; mkdir "$dec/delete_region"
    run cxltier --sysroot "$t" region create mem0 mem1
    assert_failure 1
    assert_output --partial "left behind: region0"
    run cat "$t"/run/cxltier/region-change.*
    assert_success
    assert_line "command create"
    assert_line "region region0"
    assert_line "decoder decoder3.0 mem1"
}

@test "a create refused and undone leaves no record" {
    t=$(fake_region_tree)
    r=$t/sys/devices/platform/ACPI0017:00/root0/decoder0.0/region0
    rm "$r/target1"; mkdir "$r/target1"
    run cxltier --sysroot "$t" region create mem0 mem1
    assert_failure 1
    assert_output --partial "were undone (region0 deleted)"
    run ls "$t/run/cxltier"
    assert_success
    refute_output --partial region-change
}

@test "a destroy killed after deleting its region: the next destroy of it says destroyed, not 'no region'" {
    cp -a "$(fixture lab-two-devices-idle)" "$BATS_TEST_TMPDIR/t"
    t=$BATS_TEST_TMPDIR/t
    dead_record "$t" $'pid 999999\nstart 5\ncommand destroy\nroot decoder0.0\nregion region5\ndecoder decoder2.0 mem0\n'
    run --separate-stderr cxltier --sysroot "$t" region destroy region5 -j
    assert_success
    [[ $stderr == *"a region destroy (pid 999999, region5, decoders decoder2.0) was killed midway: finished: region5 was already gone"* ]] ||
        fail "not said: $stderr"
    [[ $stderr == *"destroyed region5 (by finishing or undoing the killed run above)"* ]] || fail "not destroyed: $stderr"
    assert_equal "$(jq -c '[.regions[0].name, .regions[0].state, .recovered[0].outcome]' <<<"$output")" '["region5","destroyed","finished"]'
    # without a record, the same command finds no such region
    run cxltier --sysroot "$t" region destroy region5
    assert_failure 1
    assert_output --partial "no region 'region5'"
}

@test "doctor names a region change a killed run left, and which run recovers it" {
    cp -a "$(fixture lab-two-devices-idle)" "$BATS_TEST_TMPDIR/t"
    t=$BATS_TEST_TMPDIR/t
    run --separate-stderr cxltier --sysroot "$t" doctor -j
    assert_failure 1        # (the tree's other findings)
    assert_equal "$(jq -c '[.findings[] | select(.check == "region-change")]' <<<"$output")" '[]'
    [[ ! -e $t/run/cxltier ]] || fail "doctor made /run/cxltier"
    dead_record "$t" $'pid 999999\nstart 5\ncommand create\nroot decoder0.0\nregion region4\ndecoder decoder2.0 mem0\n'
    run --separate-stderr cxltier --sysroot "$t" doctor -j
    assert_failure 1
    assert_equal "$(jq -c '[.findings[] | select(.check == "region-change") | [.object, .status, .fix]]' <<<"$output")" \
        '[["region4","problem","the next '"'cxltier region', 'online' or 'offline'"' run undoes it"]]'
    [[ $(jq -r '.findings[] | select(.check == "region-change") | .finding' <<<"$output") == \
        "a region create (pid 999999, region4, decoders decoder2.0) was killed midway and is not yet undone" ]]
    printf 'pid 1\n' > "$t/run/cxltier/region-change.999999"
    run --separate-stderr cxltier --sysroot "$t" doctor -j
    assert_failure 1
    [[ $(jq -r '.findings[] | select(.check == "region-change") | .finding' <<<"$output") == *"is not a record of a region change"* ]]
    [[ -e $t/run/cxltier/region-change.999999 ]] || fail "doctor removed the record"
}

@test "a --reonline killed between its offline and online: doctor names the block, the next online run onlines it movable and says so" {
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/t"
    t=$BATS_TEST_TMPDIR/t m=$BATS_TEST_TMPDIR/t/sys/devices/system/memory
    echo offline > "$m/memory36/state"
    dead_record "$t" $'pid 999999\nstart 5\ncommand reonline\nblock memory36\n'
    run --separate-stderr cxltier --sysroot "$t" doctor -j
    assert_failure 1
    assert_equal "$(jq -r '.findings[] | select(.check == "region-change") | [.object, .fix] | join(": ")' <<<"$output")" \
        "memory36: the next 'cxltier online' or 'offline' run onlines it movable"
    online_recovers "$t" memory37 "warning: a --reonline (pid 999999, memory36) was killed midway: finished: memory36 onlined movable" \
        '[{"pid":999999,"command":"reonline","block":"memory36","decoders":[],"outcome":"finished","done":"memory36 onlined movable"}]'
    assert_equal "$(cat "$m/memory36/state")" online_movable
    [[ ! -e $t/run/cxltier/region-change.999999 ]] || fail "the record is still there"
}

@test "create -v and destroy -v say each step as it is written, N of all; no progress line off a terminal" {
    t=$(fake_region_tree)
    ln -s ../../../../../../bus/cxl/drivers/cxl_region "$t/sys/devices/platform/ACPI0017:00/root0/decoder0.0/region0/driver"
    run --separate-stderr cxltier --sysroot "$t" region create mem0 mem1 -v
    assert_success
    [[ $(grep -c '^cxltier region: step [0-9]*/13: ' <<<"$stderr") == 13 ]] || fail "$stderr"
    [[ $stderr == *"step 1/13: create a RAM region under decoder0.0"*"step 11/13: region0 target1 = decoder3.0 (mem1)"*"step 13/13: bind region0 to the cxl_region driver"* ]] ||
        fail "$stderr"
    [[ $stderr != *$'\r'* ]] || fail "a progress line with stderr not a terminal: $stderr"
    # a region unbound and reset already (as a destroy cut short leaves it): its targets freed, then deleted
    cp -a "$(fixture lab-two-devices)" "$BATS_TEST_TMPDIR/u"
    u=$BATS_TEST_TMPDIR/u d=$BATS_TEST_TMPDIR/u/sys/bus/cxl/devices
    echo 0 > "$d/region0/commit"
    rm -rf "$d/region0/dax_region0" "$d/region0/driver" "$u/sys/bus/dax/devices/dax0.0"
    : > "$u/sys/devices/platform/ACPI0017:00/root0/decoder0.0/delete_region"
    run --separate-stderr cxltier --sysroot "$u" region destroy region0 -v
    assert_success
    [[ $stderr == *"step 1/5: region0 target0 = none (was decoder2.0)"*"step 2/5: decoder2.0 dpa_size = 0"*"step 5/5: decoder0.0 delete_region = region0"* ]] ||
        fail "$stderr"
}
