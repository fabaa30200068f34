#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# `cxltier doctor` on deliberately broken setups, and `online --convert` and
# `online --policy` against the real kernel and libdaxctl.
load helper

setup_file() {
    ensure_region > "$BATS_FILE_TMPDIR/region"
}

teardown_file() {
    vm_forget_dax_ids
}

setup() {
    R=$(cat "$BATS_FILE_TMPDIR/region")
    D=$(vm_dax_of "$R")
}

@test "offline blocks: doctor names them with the fix, exit 1" {
    offline_all "$D"
    run --separate-stderr cxltier doctor -j
    assert_failure 1
    assert_equal "$(jq -r '.findings[] | select(.check == "blocks") | .fix' <<<"$output")" "cxltier online $D"
}

@test "devdax mode: doctor says --convert; online --convert switches it through libdaxctl and onlines movable" {
    offline_all "$D"
    vm_to_devdax "$D"
    [[ $(basename "$(readlink /sys/bus/dax/devices/$D/driver)") == device_dax ]]
    run --separate-stderr cxltier doctor -j
    assert_failure 1
    assert_equal "$(jq -r '.findings[] | select(.check == "dax") | .fix' <<<"$output")" "cxltier online $D --convert"
    run cxltier online "$D"
    assert_failure 1
    assert_output --partial "devdax mode"
    run --separate-stderr cxltier online "$D" --convert
    assert_success
    [[ $stderr == *"now in system-ram mode"* ]]
    [[ $(basename "$(readlink /sys/bus/dax/devices/$D/driver)") == kmem ]]
    for b in $(vm_blocks_of "$D"); do assert_equal "$(cat $MEMSYS/$b/valid_zones)" Movable; done
}

@test "a healthy setup: doctor exit 0, the modules checked through libkmod" {
    vm_online_movable "$D"
    run --separate-stderr cxltier doctor --all -j
    assert_success
    assert_equal "$(jq -r '.findings[] | select(.check == "module" and .object == "kmem") | .finding' <<<"$output")" loaded
    assert_equal "$(jq -r '.findings[] | select(.check == "module" and .object == "cxl_port") | .status' <<<"$output")" ok
}

@test "the kernel's CXL latency against CDAT: 6.12's link latency in ps is said, 7.x's figures pass" {
    vm_online_movable "$D"
    run --separate-stderr cxltier doctor --all -j
    assert_success
    # where the kernels genuinely differ: 6.12 adds the PCIe link latency in
    # ps to its ns figures (~17300 ns against QEMU's 150 ns CDAT); 7.x does not
    case $(uname -r) in
    6.*) assert_equal "$(jq -c --arg r "$R" '.findings[] | select(.check == "latency" and .object == $r) | .status' <<<"$output")" '"info"'
         [[ $(jq -r '.findings[] | select(.check == "latency") | .finding' <<<"$output") == *"adds the PCIe link latency in picoseconds"* ]] ;;
    *)   assert_equal "$(jq -c --arg r "$R" '.findings[] | select(.check == "latency" and .object == $r) | .status' <<<"$output")" '"ok"' ;;
    esac
}

@test "a DAMON context the kernel runs itself (DAMON_STAT) is named exactly when it runs" {
    run --separate-stderr cxltier doctor --all -j
    n=$(jq '[.findings[] | select(.check == "damon" and .object == "damon_stat")] | length' <<<"$output")
    if [[ $(cat /sys/module/damon_stat/parameters/enabled 2>/dev/null) == Y ]]; then
        assert_equal "$n" 1
        [[ $(jq -r '.findings[] | select(.object == "damon_stat") | .finding' <<<"$output") == *"kdamond pid $(cat /sys/module/damon_stat/parameters/kdamond_pid);"* ]]
    else
        assert_equal "$n" 0
    fi
}

@test "online --policy (what the udev unit runs): a serial left offline stays offline; the default onlines movable" {
    offline_all "$D"
    serial=$(cat $CXL/mem0/serial)
    printf '[device serial=%s]\nonline = no\n' "$serial" > /tmp/p.conf
    b=$(vm_blocks_of "$D" | head -1)
    run --separate-stderr cxltier online --policy --config /tmp/p.conf "$b"
    assert_success
    assert_equal "$(cat $MEMSYS/$b/state)" offline
    printf '[defaults]\nzone = movable\n' > /tmp/p.conf
    run --separate-stderr cxltier online --policy --config /tmp/p.conf "$D"
    assert_success
    for x in $(vm_blocks_of "$D"); do assert_equal "$(cat $MEMSYS/$x/valid_zones)" Movable; done
}

# last: a block onlined into ZONE_NORMAL may take unmovable kernel
# allocations and then never offline again (seen on 7.3)
@test "ZONE_NORMAL blocks and auto-onlining: both found" {
    offline_all "$D"
    b=$(vm_blocks_of "$D" | head -1)
    echo online_kernel > $MEMSYS/$b/state
    echo online > $MEMSYS/auto_online_blocks
    run --separate-stderr cxltier doctor -j
    echo offline > $MEMSYS/auto_online_blocks
    assert_failure 1
    assert_equal "$(jq -r '.findings[] | select(.check == "zone") | .fix' <<<"$output")" "cxltier online $D --reonline"
    assert_equal "$(jq -r '.findings[] | select(.check == "auto-online") | .status' <<<"$output")" problem
    echo offline > $MEMSYS/$b/state || echo "# $b stays online in ZONE_NORMAL (unmovable pages)" >&3
}

# tiering_findings: the demotion, promotion and weights findings, one
# "check fix" a line
tiering_findings() {
    cxltier doctor -j | jq -r '.findings[] | select(.check == "demotion" or .check == "promotion" or .check == "weights") | "\(.check) \(.fix)"'
}

@test "tiering: CXL memory online with demotion off, no promotion, weights all 1: each said, and gone once the switch is set" {
    local dem=/sys/kernel/mm/numa/demotion_enabled bal=/proc/sys/kernel/numa_balancing
    local rate=/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps wi=/sys/kernel/mm/mempolicy/weighted_interleave
    local saved n w node
    vm_online_movable "$D"
    node=$(cat /sys/bus/dax/devices/$D/target_node)
    saved="$(cat $dem) $(cat $bal) $(cat $rate)"
    echo 0 > $dem; echo 1 > $bal; echo 65536 > $rate
    # the weights as the kernel gave them (7.x: auto, derived from the
    # figures), then all 1 by hand
    for w in $wi/node*; do echo "$w $(cat "$w")"; done > "$BATS_TEST_TMPDIR/weights"
    [[ ! -f $wi/auto ]] || echo "$wi/auto $(cat $wi/auto)" >> "$BATS_TEST_TMPDIR/weights"
    for w in $wi/node*; do echo 1 > "$w"; done
    run tiering_findings
    assert_output "demotion cxltier tiering --demotion on
promotion cxltier tiering --balancing normal+tiering
weights cxltier weights --set"
    run --separate-stderr cxltier doctor -j
    assert_equal "$(jq -r '[.findings[] | select(.check == "demotion") | .object] | join(",")' <<<"$output")" "node$node"
    cxltier tiering --demotion on --balancing normal+tiering > /dev/null
    echo 3 > $wi/node0
    run tiering_findings
    assert_output ""
    cxltier tiering --promote-rate 0 > /dev/null
    run tiering_findings
    assert_output "promotion cxltier tiering --promote-rate 65536"
    read -r d b r <<<"$saved"
    echo "$d" > $dem; echo "$b" > $bal; echo "$r" > $rate
    while read -r w n; do echo "$n" > "$w"; done < "$BATS_TEST_TMPDIR/weights"
}
