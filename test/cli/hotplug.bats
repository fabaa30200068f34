#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The udev rule and the systemd unit that run `cxltier online --policy`.
load helper

RULES=$CXLTIER_SRC/udev/90-cxltier.rules

@test "the unit runs cxltier online --policy for its instance" {
    unit=${CXLTIER_BUILD:-$BATS_TEST_DIRNAME/../../build}/cxltier-online@.service
    run grep -E '^ExecStart=' "$unit"
    assert_output --regexp '^ExecStart=/.*/cxltier online --policy --timeout 60 %i$'
    cmd=$(sed -n 's/^ExecStart=//p' "$unit" | sed "s#^[^ ]*cxltier#$CXLTIER#; s/%i/dax0.0/")
    # the same command line, on the lab tree, as a dry run
    run --separate-stderr $cmd --sysroot "$(fixture lab-region-offline)" --dry-run -j
    assert_success
    [[ $(jq '.blocks | length' <<<"$output") == 8 ]]
}

@test "systemd accepts the unit" {
    command -v systemd-analyze >/dev/null || skip "no systemd-analyze"
    unit=${CXLTIER_BUILD:-$BATS_TEST_DIRNAME/../../build}/cxltier-online@.service
    cp "$unit" "$BATS_TEST_TMPDIR/cxltier-online@dax0.0.service"
    sed -i "s#^ExecStart=[^ ]*cxltier#ExecStart=$CXLTIER#" "$BATS_TEST_TMPDIR/cxltier-online@dax0.0.service"
    run systemd-analyze verify "$BATS_TEST_TMPDIR/cxltier-online@dax0.0.service"
    refute_output --partial "Unknown"
    refute_output --partial "rror"
}

@test "udev: the rule's match keys on a real memory block of this machine" {
    command -v udevadm >/dev/null || skip "no udevadm"
    [[ -d /sys/devices/system/memory/memory0 ]] || skip "no memory blocks"
    mkdir -p /run/udev/rules.d
    cp "$RULES" /run/udev/rules.d/90-cxltier-test.rules
    run udevadm test --action=add /devices/system/memory/memory0
    rm -f /run/udev/rules.d/90-cxltier-test.rules
    # parsed without complaint
    refute_output --partial "90-cxltier-test.rules: "
    # an online block (boot memory) starts no unit
    refute_output --regexp 'SYSTEMD_WANTS=.*cxltier-online'
}

@test "udev: memory blocks start nothing, however they are added (the dax device's event does)" {
    command -v udevadm >/dev/null || skip "no udevadm"
    b=$(grep -l '^offline' /sys/devices/system/memory/memory*/state 2>/dev/null | head -1)
    [[ -n $b ]] || skip "no offline memory block on this machine (tested in the VM tier)"
    b=$(basename "$(dirname "$b")")
    mkdir -p /run/udev/rules.d
    cp "$RULES" /run/udev/rules.d/90-cxltier-test.rules
    run udevadm test --action=add "/devices/system/memory/$b"
    rm -f /run/udev/rules.d/90-cxltier-test.rules
    refute_output --regexp 'SYSTEMD_WANTS=.*cxltier-online'
}

@test "the rule: one unit per dax device event, only the keys udev knows, no work inside udev" {
    run grep -E 'RUN\+?=' "$RULES"
    assert_failure
    run grep -c 'SYSTEMD_WANTS' "$RULES"
    assert_output 1
    run grep -E 'SUBSYSTEM=="memory"' "$RULES"
    assert_failure
    run grep -E '^ACTION=="add\|bind", SUBSYSTEM=="dax", ENV\{DRIVER\}=="kmem"' "$RULES"
    assert_success
}
