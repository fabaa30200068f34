#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# `cxltier events` and `health` against the real kernel: events injected
# into QEMU's Type-3 device over QMP, drained by the kernel, read back.
load helper

DEV=/machine/peripheral/cxl-mem0

setup_file() {
    r=$(ensure_region)
    vm_online_movable "$(vm_dax_of "$r")"
    # start collecting before anything is injected
    cxltier events >/dev/null 2>&1 || true
}

teardown() {
    local f=$BATS_FILE_TMPDIR/follower
    [[ -f $f ]] && { kill "$(cat "$f")" 2>/dev/null || true; rm -f "$f"; }
    return 0
}

inject() { host_qmp "{\"execute\":\"$1\",\"arguments\":$2}" >/dev/null; }

# wait until `cxltier events -j` (consuming) shows N events of KIND; prints them
events_of() {
    local kind=$1 i json all='[]'
    for i in $(seq 1 40); do
        json=$(cxltier events -j)
        all=$(jq -c --argjson a "$all" '$a + .events' <<<"$json")
        if [[ $(jq --arg k "$kind" '[.[] | select(.kind == $k)] | length' <<<"$all") -ge 1 ]]; then
            jq -c --arg k "$kind" '[.[] | select(.kind == $k)]' <<<"$all"
            return 0
        fi
        sleep 0.25
    done
    echo "[]"
    return 1
}

@test "general media: the injected values, with the region's HPA" {
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"failure\",\"flags\":1,\"dpa\":4096,\"descriptor\":3,\"type\":0,\"transaction-type\":1,\"channel\":2,\"rank\":1,\"device\":5}"
    run events_of general_media
    assert_success
    e=$(jq -c '.[0]' <<<"$output")
    assert_equal "$(jq -c '[.memdev, .severity, .dpa, .descriptor, .memory_event_type, .transaction_type, .channel, .rank, .device]' <<<"$e")" \
        '["mem0","failure",4096,["uncorrectable","threshold"],"ecc_error","host_read",2,1,5]'
    region_base=$(( $(cat $CXL/$(ensure_region)/resource) ))
    assert_equal "$(jq '.hpa' <<<"$e")" "$(( region_base + 4096 ))"
    assert_equal "$(jq -r '.region' <<<"$e")" "$(ensure_region)"
    assert_equal "$(jq '.serial' <<<"$e")" "$(( $(cat $CXL/mem0/serial) ))"
}

@test "DRAM: bank, row, column as injected" {
    inject cxl-inject-dram-event "{\"path\":\"$DEV\",\"log\":\"warning\",\"flags\":1,\"dpa\":8192,\"descriptor\":1,\"type\":3,\"transaction-type\":2,\"channel\":1,\"rank\":0,\"nibble-mask\":1,\"bank-group\":2,\"bank\":3,\"row\":4,\"column\":5}"
    run events_of dram
    assert_success
    assert_equal "$(jq -c '.[0] | [.severity, .dpa, .memory_event_type, .transaction_type, .bank_group, .bank, .row, .column]' <<<"$output")" \
        '["warning",8192,"data_path_error","host_write",2,3,4,5]'
}

@test "memory module: the device health inside, negative temperature kept" {
    inject cxl-inject-memory-module-event "{\"path\":\"$DEV\",\"log\":\"fatal\",\"flags\":1,\"type\":3,\"health-status\":3,\"media-status\":7,\"additional-status\":1,\"life-used\":30,\"temperature\":-15,\"dirty-shutdown-count\":4,\"corrected-volatile-error-count\":3,\"corrected-persistent-error-count\":1}"
    run events_of memory_module
    assert_success
    assert_equal "$(jq -c '.[0] | [.severity, .device_event_type, .health.maintenance_needed, .health.performance_degraded, .health.media_status, .health.life_used_state, .health.life_used_percent, .health.temperature_celsius, .health.dirty_shutdowns, .health.corrected_volatile_errors]' <<<"$output")" \
        '["fatal","temperature_change",true,true,"all_data_loss_on_power_loss","warning",30,-15,4,3]'
}

@test "poison: injected over QMP, listed by the kernel, with DPA and HPA" {
    inject cxl-inject-poison "{\"path\":\"$DEV\",\"start\":262144,\"length\":64}"
    echo 1 > $CXL/mem0/trigger_poison_list
    run events_of poison
    assert_success
    assert_equal "$(jq -c '[.[] | select(.dpa == 262144)][0] | [.trace_type, .dpa_length, (.hpa > 0), .region != null]' <<<"$output")" \
        '["list",64,true,true]'
}

@test "--follow prints an event injected while it runs, within 2 s, and removes its instance" {
    # fd 3 closed: a follower left behind must not keep bats waiting
    cxltier events --follow -j > /tmp/follow.out 2>/tmp/follow.err 3>&- &
    pid=$!
    echo "$pid" > "$BATS_FILE_TMPDIR/follower"
    wait_for 60 "the follower's tracefs instance cxltier-follow-$pid" \
        test -d "/sys/kernel/tracing/instances/cxltier-follow-$pid"
    t0=$EPOCHREALTIME
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"informational\",\"flags\":1,\"dpa\":12288,\"descriptor\":0,\"type\":1,\"transaction-type\":3}"
    seen=
    for i in $(seq 1 40); do
        if grep -q '"dpa":12288' /tmp/follow.out; then seen=$EPOCHREALTIME; break; fi
        sleep 0.05
    done
    kill -INT $pid; wait $pid
    [[ -n $seen ]]
    ms=$(( (10#${seen/./} - 10#${t0/./}) / 1000 ))
    echo "# event seen after $ms ms" >&3
    (( ms < 2000 ))
    # one compact JSON object per line
    jq -e . /tmp/follow.out >/dev/null
    [[ $(head -1 /tmp/follow.out) != *$'\n'* ]]
    ! ls /sys/kernel/tracing/instances | grep -q "^cxltier-follow-$pid$"
}

@test "filters: --type and --severity" {
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"warning\",\"flags\":1,\"dpa\":16384,\"descriptor\":0,\"type\":0,\"transaction-type\":1}"
    inject cxl-inject-dram-event "{\"path\":\"$DEV\",\"log\":\"fatal\",\"flags\":1,\"dpa\":20480,\"descriptor\":0,\"type\":0,\"transaction-type\":1}"
    sleep 3
    run cxltier events -j --type dram --severity fatal
    assert_success
    assert_equal "$(jq -c '[.events[] | [.kind, .severity]] | unique' <<<"$output")" '[["dram","fatal"]]'
}

@test "the global trace buffer and other instances are left alone" {
    assert_equal "$(cat /sys/kernel/tracing/events/cxl/enable)" 0
    run cxltier events --stop
    assert_success
    ! ls /sys/kernel/tracing/instances | grep -q '^cxltier$'
}

@test "health: QEMU's device has no Get Health Info: a clear answer, exit 77" {
    run --separate-stderr cxltier health
    assert_failure 77
    [[ $stderr == *"Get Health Info is not supported by mem0"* ]]
    run --separate-stderr cxltier health -j
    assert_equal "$(jq -c '.memdevs[0] | [.name, .supported]' <<<"$output")" '["mem0",false]'
    run --separate-stderr cxltier health --format prometheus
    assert_failure 77
    assert_output --partial 'cxl_health_supported{memdev="mem0",serial="0x1234"} 0'
}
