#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: inspect
# vm-test-timeout: 600 -- a few mailbox commands; generous for TCG on a loaded host
# `cxltier health` against the real kernel and QEMU 10's Type-3 device, which
# implements neither Get Health Info nor the alert configuration commands:
# the answers must be clear, and nothing sent that the kernel does not enable.
load helper

@test "health: QEMU's device has no Get Health Info: a clear answer, exit 77" {
    run --separate-stderr cxltier health
    assert_failure 77
    [[ $stderr == *"Get Health Info is not supported by mem0"* ]]
    run --separate-stderr cxltier health -j
    assert_equal "$(jq -c '.memdevs[0] | [.name, .supported]' <<<"$output")" '["mem0",false]'
    run --separate-stderr cxltier health --format prometheus
    assert_failure 77
    assert_output --partial 'cxltier_memdev_health_supported{memdev="mem0"} 0'
}

@test "health --set-alert: the kernel does not enable Set Alert Configuration for QEMU's device: refused before sending (77)" {
    run --separate-stderr cxltier health --set-alert life-used=90,over-temperature=85 mem0
    assert_failure 77
    # the running kernel's command table (CXL_MEM_QUERY_COMMANDS) has the
    # command, without the enabled flag: the device's Command Effects Log lacks 0x4202
    [[ $stderr == *"mem0: the kernel does not enable Set Alert Configuration for this device: the device does not list it in its Command Effects Log"* ]]
    [[ -z $output ]]    # nothing was set: nothing shown
    run --separate-stderr cxltier health --set-alert pmem-err=off all -j
    assert_failure 77
}

@test "health --set-alert as non-root: the mailbox is root's (exit 1)" {
    run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups cxltier health --set-alert life-used=90 mem0
    assert_failure 1
    [[ $stderr == *"cannot open /dev/cxl/mem0: Permission denied (the mailbox is root's)"* ]]
}

@test "health: an unknown memdev is named" {
    run --separate-stderr cxltier health --set-alert life-used=90 mem7
    assert_failure 1
    [[ $stderr == *"no memdev 'mem7'"* ]]
}
