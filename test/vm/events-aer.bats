#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-args: -c 512M
# vm-kernels: 6.12 -- Linux 7.3 reports no QMP-injected CXL RAS error (neither cxl_aer_* trace event within 120 s, nor a change of mem0's aer_dev_* counts: metrics.bats), where 6.12 reports both
# `cxltier events` on CXL RAS (AER) errors injected over QMP. A boot of its
# own (-c 512M keeps it apart from the shared default machine) and no region:
# an uncorrectable error makes the kernel detach mem0's driver and reset it.
load helper
load events

DEV=/machine/peripheral/cxl-mem0
BATS_TEST_TIMEOUT=900   # per test; every wait inside says what it waits for

setup_file() {
    cxltier events --drain >/dev/null 2>&1 || true     # start keeping events
    BDF=$(basename "$(readlink -f $CXL/mem0/..)")
    export BDF
    # Linux leaves the AER internal errors masked; QEMU then drops them
    setpci -s "$BDF" ECAP_AER+0x14.l=0         # correctable mask
    setpci -s "$BDF" ECAP_AER+0x08.l=0         # uncorrectable mask
}

# consume events until one of tracepoint EVENT is there; prints it
aer_event() {
    local ev=$1 json
    json=$(cxltier events --drain -j) || return 1
    jq -e --arg e "$ev" '[.events[] | select(.event == $e)][0] // empty' <<<"$json" > "$BATS_TEST_TMPDIR/event.json"
}

@test "correctable: informational" {
    inject cxl-inject-correctable-error "{\"path\":\"$DEV\",\"type\":\"mem-data-ecc\"}"
    wait_for 120 "cxl_aer_correctable_error from the kernel" aer_event cxl_aer_correctable_error
    all_fields cxl_aer_correctable_error < "$BATS_TEST_TMPDIR/event.json"
    assert_equal "$(jq -c '[.kind, .memdev, .severity, .status, .status_names, .uncorrectable]' "$BATS_TEST_TMPDIR/event.json")" \
        '["aer","mem0","informational",2,["memory_data_ecc"],false]'
}

@test "uncorrectable: fatal, and --severity fatal shows it" {
    inject cxl-inject-uncorrectable-errors "{\"path\":\"$DEV\",\"errors\":[{\"type\":\"mem-data-ecc\",\"header\":[1,2,3,4]}]}"
    wait_for 120 "cxl_aer_uncorrectable_error in the trace" \
        grep -q cxl_aer_uncorrectable_error /sys/kernel/tracing/instances/cxltier/trace
    run cxltier events --drain -j --severity fatal --type aer
    assert_success
    e=$(jq -c '[.events[] | select(.event == "cxl_aer_uncorrectable_error")][0]' <<<"$output")
    all_fields cxl_aer_uncorrectable_error <<<"$e"
    assert_equal "$(jq -c '[.severity, .status, .status_names, .first_error, .first_error_names, .uncorrectable]' <<<"$e")" \
        '["fatal",128,["memory_data_ecc"],128,["memory_data_ecc"],true]'
    assert_equal "$(jq -c '.fields.header_log | [length, .[0:5]]' <<<"$e")" '[128,[1,2,3,4,0]]'
}
