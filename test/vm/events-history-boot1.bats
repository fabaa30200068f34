#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: history
# vm-disk: 64M -- the store's directory on a disk of its own, kept through the reboot before events-history-boot2.bats
# The event history on a persistent disk, first boot: records of each kind
# and severity into the follower's store at its default path, through a
# follower killed with SIGKILL mid-stream and restarted; what the store holds
# is kept on the disk for the second boot to compare.
load helper
load events
load events-history

BATS_TEST_TIMEOUT=600   # per test; every wait inside says what it waits for

setup_file() {
    mount_store_disk
    chmod 0700 $D
    r=$(ensure_region)
    vm_online_movable "$(vm_dax_of "$r")"
    cxltier events --drain >/dev/null 2>&1 || true   # the shared instance keeps what comes while no follower runs
}

teardown_file() {
    end_followers
    umount $D
}

@test "each kind and severity into the store on the disk, through a follower killed with SIGKILL mid-stream: each record once" {
    start_follower --store
    record general_media informational 65536 0
    record general_media warning 69632 0
    record dram informational 73728 0
    record dram warning 77824 0
    wait_for 120 "the store to hold the first four" store_holds 4
    record general_media failure 81920 1
    record dram fatal 86016 1
    kill -KILL "$pid"
    wait_for 60 "the follower to die of SIGKILL" exited "$pid"
    run wait "$pid"
    assert_failure 137
    # while no follower runs: the shared instance keeps them
    record general_media informational 90112 0
    record dram informational 94208 0
    start_follower --store
    record general_media informational 98304 0
    wait_for 120 "the store to hold all nine" store_holds 9
    kill -TERM "$pid"
    wait_for 60 "the follower to end on SIGTERM" exited "$pid"
    run wait "$pid"
    assert_success
    run cxltier events --history -j
    assert_success
    assert_equal "$(jq -c '[.events[].dpa] | sort' <<<"$output")" '[65536,69632,73728,77824,81920,86016,90112,94208,98304]'
    jq -c '.events[] | select(.kind == "general_media")' <<<"$output" | head -1 | all_fields cxl_general_media
    jq -c '.events[] | select(.kind == "dram")' <<<"$output" | head -1 | all_fields cxl_dram
    run cxltier events --history --summary -j
    assert_success
    assert_equal "$(jq -c '.summary | [.records, .corrected, .by_kind.general_media, .by_kind.dram, .by_severity.informational, .by_severity.warning, .by_severity.failure, .by_severity.fatal]' <<<"$output")" \
        '[9,7,5,4,5,2,1,1]'
    # for the second boot: what the store holds now
    history_json > $D/test-history.json
    summary_json > $D/test-summary.json
    event_counters > $D/test-counters.txt
    assert_equal "$(wc -l < $D/test-counters.txt)" 6
}
