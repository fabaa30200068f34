#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: inject
# vm-test-timeout: 900 -- a poison read under TCG on a loaded host takes tens of seconds; every wait says what it waits for
# `cxltier poison` against the real kernel: poison put into QEMU's Type-3
# device over QMP (cxl-inject-poison) or through the kernel's debugfs, read
# back through trigger_poison_list and the cxl_poison records. The tests
# need a device nobody poisoned before them: the file's own boot gives it.
# They run in order: clean, refusals (the sanitize one before any region),
# then poison.
load helper
load events
load ndctl-oracle

DEV=/machine/peripheral/cxl-mem0
T=/sys/kernel/tracing/instances

# no private instance of a poison reader is left
no_instance_left() {
    ! ls $T | grep -q '^cxltier-poison-' || { echo "left: $(ls $T | grep '^cxltier-poison-')" >&2; return 1; }
}
# the list of mem0 can be read (bound to cxl_mem, endpoint there)
readable() { cxltier poison mem0 >/dev/null 2>&1; }
region_base() { echo $(( $(cat $CXL/$(ensure_region)/resource) )); }

@test "a clean device: an empty list, exit 0" {
    run --separate-stderr cxltier poison mem0 -j
    assert_success
    assert_equal "$(jq -c '[.poison, (.memdevs[0] | [.name, .serial, .ranges, .poisoned_bytes, .overflow, .scanning])]' <<<"$output")" \
        "[[],[\"mem0\",$(( $(cat $CXL/mem0/serial) )),0,0,false,false]]"
    run --separate-stderr cxltier poison
    assert_success
    assert_line --regexp '^mem0 +0 +no poison$'
    no_instance_left
}

@test "not root: refused, naming the memdev (exit 1)" {
    run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups cxltier poison mem0
    assert_failure 1
    [[ $stderr == *"mem0: reading the poison list needs root"* ]]
}

@test "a memdev not bound to cxl_mem: named, with what to do (exit 1)" {
    echo mem0 > /sys/bus/cxl/drivers/cxl_mem/unbind
    run --separate-stderr cxltier poison mem0
    echo mem0 > /sys/bus/cxl/drivers/cxl_mem/bind
    wait_for 120 "mem0 bound to cxl_mem again, its list readable" readable
    assert_failure 1
    [[ $stderr == *"mem0 is not bound to the cxl_mem driver"* ]]
    no_instance_left
}

@test "a device being sanitized: refused as busy, said so (exit 1)" {
    S=$CXL/mem0/security/sanitize
    [[ -e $S ]] || fail "no $S: the kernel offers no Sanitize for mem0"
    # the kernel sanitizes only a device no region maps: this file makes its region later
    ! ls $CXL | grep -q '^region[0-9]' || fail "a region maps mem0 already"
    # QEMU takes 8 s of its clock for its 1G and the kernel refuses the
    # mailbox until its poller has seen the end; on a loaded TCG host that
    # can pass before cxltier reaches the device, which then reads the list
    # (the kernel let it through: the sanitize was over). Sanitize again then.
    local try
    for try in 1 2 3 4 5; do
        echo 1 > $S
        run --separate-stderr cxltier poison mem0 -j
        [[ $status == 0 ]] || break
        echo "# try $try: the sanitize ended before cxltier read the list" >&3
        wait_for 600 "the sanitize of mem0 to end (security/state: $(cat $CXL/mem0/security/state))" \
            bash -c "[[ \$(cat $CXL/mem0/security/state) != sanitize ]]"
    done
    state=$(cat $CXL/mem0/security/state)
    assert_failure 1
    [[ $stderr == *"mem0 is being sanitized (security/state says so)"* ]]
    assert_equal "$(jq -c '[.poison, (.memdevs[0] | [.name, .supported, has("ranges")])]' <<<"$output")" '[[],["mem0",true,false]]'
    no_instance_left
    wait_for 600 "the sanitize of mem0 to end (security/state: $state), its list readable again" readable
}

@test "poison injected over QMP: listed with its DPA, HPA and region" {
    r=$(ensure_region)
    base=$(region_base)
    inject cxl-inject-poison "{\"path\":\"$DEV\",\"start\":262144,\"length\":128}"
    run --separate-stderr cxltier poison mem0 -j
    assert_success
    e=$(jq -c '[.poison[] | select(.dpa == 262144)][0]' <<<"$output")
    # one region, one way, from DPA 0: the host address is the region's base plus the DPA
    assert_equal "$(jq -c '[.memdev, .dpa, .length, .hpa, .region, .region_offset, .source, .flags]' <<<"$e")" \
        "[\"mem0\",262144,128,$((base + 262144)),\"$r\",262144,\"internal\",[]]"
    assert_equal "$(jq -c '.memdevs[0] | [.ranges, .poisoned_bytes]' <<<"$output")" '[1,128]'
    run --separate-stderr cxltier poison mem0
    assert_success
    assert_line --regexp "0x40000-0x4007f +128 +0x$(printf %x $((base + 262144))) +$r +internal *$"
    no_instance_left
}

@test "ndctl 81's cxl list -L shows the same records: DPA, length, source" {
    oracle_ready
    oracle_poison mem0
    [[ $(cxltier poison mem0 -j | jq '.poison | length') -ge 1 ]] || fail "no poison to compare: the test before put it there"
}

@test "poison REGION: its memdevs, the ranges inside it" {
    r=$(ensure_region)
    run --separate-stderr cxltier poison "$r" -j
    assert_success
    assert_equal "$(jq -c '[.poison[] | [.memdev, .dpa, .region]]' <<<"$output")" "[[\"mem0\",262144,\"$r\"]]"
    # a memdev named beside its region: read once, every range
    run --separate-stderr cxltier poison "$r" mem0 -j
    assert_success
    assert_equal "$(jq '.memdevs | length' <<<"$output")" 1
    run --separate-stderr cxltier poison region99
    assert_failure 1
    [[ $stderr == *"no memdev or region 'region99'"* ]]
}

@test "list -vvv: media_errors per memdev; no health from QEMU's device" {
    run --separate-stderr cxltier list -vvv -j
    assert_success
    m=$(jq -c '.memdevs[] | select(.name == "mem0")' <<<"$output")
    assert_equal "$(jq -c '[.media_errors[] | [.dpa, .length, .source, .region]]' <<<"$m")" "[[262144,128,\"internal\",\"$(ensure_region)\"]]"
    assert_equal "$(jq -c '[has("health"), has("alert_config"), has("partition_info")]' <<<"$m")" '[false,false,true]'
    no_instance_left
}

@test "inject and clear through debugfs: a round trip through the device's list" {
    [[ -e /sys/kernel/debug/cxl/mem0/inject_poison ]] || fail "no debugfs inject_poison for mem0"
    base=$(region_base)
    run --separate-stderr cxltier poison inject mem0 0x80000 128 --yes-really -j
    assert_success
    # what the kernel traced for each cacheline: its DPA, its host address
    assert_equal "$(jq -c '[.poison[] | [.trace_type, .dpa, .length, .hpa]]' <<<"$output")" \
        "[[\"inject\",524288,64,$((base + 524288))],[\"inject\",524352,64,$((base + 524352))]]"
    [[ $stderr == *"injected poison at mem0 DPA 0x80000-0x8007f (2 cachelines)"* ]]
    run --separate-stderr cxltier poison mem0 -j
    assert_equal "$(jq -c '[.poison[] | select(.dpa >= 524288 and .dpa < 524416) | [.dpa, .length, .source]]' <<<"$output")" \
        '[[524288,64,"injected"],[524352,64,"injected"]]'
    run --separate-stderr cxltier poison clear mem0 0x80000 128 --yes-really -j
    assert_success
    assert_equal "$(jq -c '[.poison[] | .trace_type] | unique' <<<"$output")" '["clear"]'
    # and the QMP-injected range: the device is clean again
    run --separate-stderr cxltier poison clear mem0 0x40000 128 --yes-really
    assert_success
    run --separate-stderr cxltier poison mem0 -j
    assert_success
    assert_equal "$(jq -c '[(.poison | length), .memdevs[0].ranges]' <<<"$output")" '[0,0]'
    no_instance_left
}

@test "inject: a misaligned or out-of-range address is refused before the device sees it" {
    run --separate-stderr cxltier poison inject mem0 0x80010 --yes-really
    assert_failure 1
    [[ $stderr == *"must be multiples of 64"* ]]
    run --separate-stderr cxltier poison inject mem0 0x40000000 --yes-really
    assert_failure 1
    [[ $stderr == *"beyond its capacity"* ]]
    run --separate-stderr cxltier poison mem0 -j
    assert_equal "$(jq '.poison | length' <<<"$output")" 0
}
