#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The udev rule, cxltier-hotplug.service and `cxltier hotplug`, which run
# `cxltier online --policy` (the chain itself runs in the VM tier:
# vm/hotplug-systemd.bats, vm/hotplug-four.bats).
load helper

RULES=$CXLTIER_SRC/udev/90-cxltier.rules

# udevadm test on DEVPATH with RULES installed as 90-cxltier-test.rules:
# output and status as `run` leaves them
udev_test() { # rules-file action devpath
    mkdir -p /run/udev/rules.d
    cp "$1" /run/udev/rules.d/90-cxltier-test.rules
    run udevadm test --action="$2" "$3"
    rm -f /run/udev/rules.d/90-cxltier-test.rules
}

@test "the unit runs cxltier hotplug, which gives each run its --timeout" {
    unit=${CXLTIER_BUILD:-$BATS_TEST_DIRNAME/../../build}/cxltier-hotplug.service
    run grep -E '^ExecStart=' "$unit"
    assert_success
    assert_output --regexp '^ExecStart=/.*/cxltier hotplug --timeout 60$'
    # a run as hotplug starts one (lib/jobs/hotplug-service.c: the devices after "--"),
    # over dax0.0 of the lab tree, as a dry run
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-offline)" online --policy --timeout 60 --dry-run -j -- dax0.0
    assert_success
    [[ $(jq '.blocks | length' <<<"$output") == 8 ]]
}

@test "hotplug: no targets, no --sysroot, a --timeout as online takes it; each refusal says why (exit 2)" {
    run --separate-stderr cxltier hotplug mem0
    assert_failure 2
    [[ $stderr == *"hotplug takes no target ('mem0'): the devices come from udev's rule"* ]]
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-offline)" hotplug --once
    assert_failure 2
    [[ $stderr == *"hotplug watches the live system only"* ]]
    for t in -1 1.5 x 86401 ''; do
        run --separate-stderr cxltier hotplug --timeout "$t" --once
        assert_failure 2
        [[ $stderr == *"--timeout $t: give whole seconds up to 86400: a number (seconds) or a span such as 30s, 5min, 1h"* ]]
    done
    for o in -j -n -b "-o name"; do
        run --separate-stderr cxltier hotplug $o --once
        assert_failure 2
        [[ $stderr == *"hotplug prints no table or JSON of its own: its runs' output goes to the journal"* ]]
    done
}

@test "hotplug --once on a machine where udev tagged nothing: no run, exit 0" {
    [[ ! -e /run/udev/tags/cxltier ]] || fail "this machine has devices udev tagged cxltier: the test wants one without"
    run --separate-stderr cxltier hotplug --once
    assert_success
    assert_equal "$stderr" "cxltier hotplug: no device marked by udev's rule"
    assert_output ""
}

@test "udev: the rule's match keys on a real memory block of this machine" {
    udev_test "$RULES" add /devices/system/memory/memory0
    assert_success
    assert_output --partial "Reading rules file: /run/udev/rules.d/90-cxltier-test.rules"
    rules_parsed_clean 90-cxltier-test.rules
    # an online block (boot memory) starts no unit
    refute_output --regexp 'SYSTEMD_WANTS=.*cxltier-online'
}

@test "udev: the parse check fails on a rule with a key udev does not know" {
    printf 'ACTION=="add", BOGUSKEY=="x", TAG+="systemd"\n' > "$BATS_TEST_TMPDIR/bad.rules"
    udev_test "$BATS_TEST_TMPDIR/bad.rules" add /devices/system/memory/memory0
    run rules_parsed_clean 90-cxltier-test.rules
    assert_failure 1
    assert_output --partial "Invalid key 'BOGUSKEY'"
}

@test "udev: memory blocks start nothing, however they are added or onlined (the dax device's event does)" {
    # the rule reads no block state: any block of this machine stands for a
    # hot-added one (the VM tier adds real ones: vm/online.bats)
    b=$(ls /sys/devices/system/memory | grep -E '^memory[0-9]+$' | sort -V | tail -1)
    [[ -n $b ]]
    for action in add online offline; do
        udev_test "$RULES" "$action" "/devices/system/memory/$b"
        assert_success
        rules_parsed_clean 90-cxltier-test.rules
        assert_output --partial "ACTION=$action"
        refute_output --regexp 'SYSTEMD_WANTS=.*cxltier-hotplug'
        refute_output --regexp 'TAGS=.*:cxltier:'
    done
}

@test "the rule: a tag per dax device or memdev event, the memdev's wanting the service while no watch listens, only the keys udev knows, no work inside udev" {
    run grep -E 'RUN\+?=' "$RULES"
    assert_failure 1
    run grep -c 'TAG+="cxltier"$' "$RULES"
    assert_success
    assert_output 2
    run grep -c 'TEST!="/run/cxltier/hotplug.watch", TAG+="systemd", ENV{SYSTEMD_WANTS}+="cxltier-hotplug.service"' "$RULES"
    assert_success
    assert_output 1
    run grep -c 'SYSTEMD_WANTS' "$RULES"
    assert_output 1
    run grep -E 'SUBSYSTEM=="memory"' "$RULES"
    assert_failure 1
    run grep -E '^ACTION=="add\|bind", SUBSYSTEM=="dax", ENV\{DRIVER\}=="kmem"' "$RULES"
    assert_success
}

@test "the rule: a memdev bound to cxl_mem is tagged, and starts the service" {
    run grep -E '^ACTION=="add\|bind", SUBSYSTEM=="cxl", ENV\{DEVTYPE\}=="cxl_memdev", ENV\{DRIVER\}=="cxl_mem", KERNEL=="mem\[0-9\]\*"' "$RULES"
    assert_success
}

policy() { printf '%s\n' "$@" > "$BATS_TEST_TMPDIR/p.conf"; echo "$BATS_TEST_TMPDIR/p.conf"; }

@test "--policy memN: a memdev without a region gets none unless the policy says create-region = yes" {
    root=$(fixture lab-two-devices-idle)
    run --separate-stderr cxltier --sysroot "$root" online --policy --config "$(policy '[defaults]')" mem0 --dry-run -j
    assert_success
    [[ $(jq -c '.new_regions' <<<"$output") == '[{"memdev":"mem0","state":"left","note":"mem0 backs no region; the policy says create none (create-region = yes would)"}]' ]]
    [[ $(jq '.blocks | length' <<<"$output") == 0 ]]
}

@test "--policy memN with create-region = yes: the region is planned over that memdev alone" {
    root=$(fixture lab-two-devices-idle)
    run --separate-stderr cxltier --sysroot "$root" online --policy --config "$(policy '[defaults]' 'create-region = yes')" mem1 --dry-run -j
    assert_success
    [[ $(jq -c '[.new_regions[] | [.memdev, .state]]' <<<"$output") == '[["mem1","planned"]]' ]]
    [[ $stderr == *"dry run: mem1: would create a RAM region of 1024 MiB over mem1 under decoder0.0"* ]]
}

@test "--policy: create-region per device: by serial, a [device] section overrides [defaults]" {
    root=$(fixture lab-two-devices-idle)
    s0=$(cat "$root"/sys/bus/cxl/devices/mem0/serial)
    conf=$(policy '[defaults]' 'create-region = yes' "[device serial=$s0]" 'create-region = no')
    run --separate-stderr cxltier --sysroot "$root" online --policy --config "$conf" --dry-run -j
    assert_success
    [[ $(jq -c '[.new_regions[] | [.memdev, .state]]' <<<"$output") == '[["mem0","left"],["mem1","planned"]]' ]]
    [[ $(jq -r '.new_regions[0].note' <<<"$output") == *"the policy (a [device] section) says create none"* ]]
}

@test "--policy: a serial left offline gets no region either" {
    root=$(fixture lab-two-devices-idle)
    s1=$(cat "$root"/sys/bus/cxl/devices/mem1/serial)
    conf=$(policy '[defaults]' 'create-region = yes' "[device serial=$s1]" 'online = no')
    run --separate-stderr cxltier --sysroot "$root" online --policy --config "$conf" mem1 --dry-run -j
    assert_success
    [[ $(jq -r '.new_regions[0] | .state + ": " + .note' <<<"$output") == "left: mem1 backs no region; the policy (a [device] section) says leave it offline" ]]
}

@test "--policy: a memdev that already backs a region is not given another" {
    root=$(fixture lab-two-devices)
    run --separate-stderr cxltier --sysroot "$root" online --policy --config "$(policy '[defaults]' 'create-region = yes')" mem1 --dry-run -j
    assert_success
    [[ $(jq '.new_regions' <<<"$output") == null ]]
}

@test "--policy: a region that cannot be made is named, exit 1 when nothing else was done" {
    cp -a "$(fixture lab-two-devices-idle)" "$BATS_TEST_TMPDIR/t"
    rm "$BATS_TEST_TMPDIR"/t/sys/bus/cxl/devices/decoder0.0/create_ram_region
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" online --policy --config "$(policy '[defaults]' 'create-region = yes')" mem0 --dry-run -j
    assert_failure 1
    [[ $stderr == *"mem0: no region created: "* ]]
    [[ $(jq -r '.new_regions[0].state' <<<"$output") == failed ]]
}

@test "--policy: create-region and reonline are checked strictly" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-two-devices-idle)" online --policy --config "$(policy '[device any]' 'create-region = sometimes')" --dry-run
    assert_failure 1
    [[ $stderr == *"p.conf:2:17: create-region = sometimes: expected yes or no"* ]]
    run --separate-stderr cxltier --sysroot "$(fixture lab-two-devices-idle)" online --policy --config "$(policy '[defaults]' 'reonline = yes' 'reonline = yes')" --dry-run
    assert_failure 1
    [[ $stderr == *"p.conf:3:1: 'reonline' set twice in this section (first on line 2)"* ]]
}

@test "--policy: reonline = yes moves blocks online in another zone, as --reonline does" {
    root=$(fixture lab-region-online)
    run --separate-stderr cxltier --sysroot "$root" online --policy --config "$(policy '[defaults]' 'zone = movable')" --dry-run -j
    assert_success
    without=$(jq -c '[.blocks[].action] | unique' <<<"$output")
    run --separate-stderr cxltier --sysroot "$root" online --policy --config "$(policy '[defaults]' 'reonline = yes')" --dry-run -j
    assert_success
    with=$(jq -c '[.blocks[].action] | unique' <<<"$output")
    echo "without: $without with: $with"
    [[ $without == *refuse* || $without == '["none"]' ]]
    [[ $with != *refuse* ]]
}

@test "offline --remove: only memdevs, no --rollback" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-two-devices)" offline region0 --remove
    assert_failure 2
    [[ $stderr == *"--remove takes memdevs (memN), not 'region0'"* ]]
    run --separate-stderr cxltier --sysroot "$(fixture lab-two-devices)" offline mem0 --remove --rollback
    assert_failure 2
}

@test "offline --remove: a memdev of an interleave set needs --whole-region, and the others are named" {
    root=$(fixture lab-two-devices)
    run --separate-stderr cxltier --sysroot "$root" offline mem1 --remove --dry-run
    assert_failure 2
    [[ $stderr == *"mem1 is one of the 2 memdevs interleaved in region0 (mem0, mem1)"* ]]
    run --separate-stderr cxltier --sysroot "$root" offline mem1 --remove --whole-region --dry-run -j
    assert_success
    [[ $stderr == *"region0 also spans mem0: its memory on mem0 goes too (mem0 stays enabled)"* ]]
    [[ $stderr == *"dry run: mem1: would offline and destroy 1 region, then disable it; nothing was changed"* ]]
    [[ $(jq -c '.memdevs[0] | [.name, .regions[0].name, .regions[0].state, .regions[0].interleaved_with]' <<<"$output") == '["mem1","region0","planned",["mem0"]]' ]]
}

@test "offline --remove: a memdev without a region is disabled at once and safe to remove" {
    cp -a "$(fixture lab-two-devices-idle)" "$BATS_TEST_TMPDIR/t"
    t=$BATS_TEST_TMPDIR/t
    mkdir -p "$t/sys/bus/cxl/drivers/cxl_mem"
    : > "$t/sys/bus/cxl/drivers/cxl_mem/unbind"
    # the kernel drops the driver link when it unbinds: a copy cannot, so
    # the memdev is shown unbound already when the link is absent
    [[ -e $t/sys/bus/cxl/devices/mem0/driver ]] && rm "$t/sys/bus/cxl/devices/mem0/driver"
    run --separate-stderr cxltier --sysroot "$t" offline mem0 --remove -j
    assert_success
    [[ $stderr == *"mem0: no region left, was disabled already: safe to remove the card"* ]]
    [[ $(jq -c '.memdevs[0] | [.disabled, .safe_to_remove, (.regions | length)]' <<<"$output") == '[true,true,0]' ]]
}

@test "offline --remove: a memdev still bound whose unbind does not take is not called safe" {
    cp -a "$(fixture lab-two-devices-idle)" "$BATS_TEST_TMPDIR/t"
    t=$BATS_TEST_TMPDIR/t
    mkdir -p "$t/sys/bus/cxl/drivers/cxl_mem"
    : > "$t/sys/bus/cxl/drivers/cxl_mem/unbind"
    [[ -e $t/sys/bus/cxl/devices/mem0/driver ]] || ln -s ../../../../bus/cxl/drivers/cxl_mem "$t/sys/bus/cxl/devices/mem0/driver"
    run --separate-stderr cxltier --sysroot "$t" offline mem0 --remove -j
    assert_failure 1
    [[ $(cat "$t/sys/bus/cxl/drivers/cxl_mem/unbind") == mem0 ]]
    [[ $stderr == *"mem0 is still bound to cxl_mem after writing it to /sys/bus/cxl/drivers/cxl_mem/unbind"* ]]
    [[ $stderr == *"mem0: NOT safe to remove"* ]]
    [[ $(jq -c '.memdevs[0] | [.disabled, .safe_to_remove]' <<<"$output") == '[false,false]' ]]
}
