#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: history
# vm-disk: 64M -- the store's directory on a disk of its own, kept through the reboot before events-history-boot2.bats
# vm-reboot: before -- the history kept on the disk by events-history-boot1.bats, read after the guest powered off and booted again
# The event history on a persistent disk, after the reboot: the store opens
# and holds every record once, field for field; --summary and the counters
# are as they were; new records add to the counters.
load helper
load events
load events-history

BATS_TEST_TIMEOUT=600   # per test; every wait inside says what it waits for

setup_file() {
    mount_store_disk
    r=$(ensure_region)
    vm_online_movable "$(vm_dax_of "$r")"
    cxltier events --drain >/dev/null 2>&1 || true
}

teardown_file() {
    end_followers
    umount $D
}

@test "after the reboot: every record once, field for field; --summary and the counters as before the reboot" {
    [[ -s $D/test-history.json ]] || fail "the first boot left no history on the disk"
    assert_equal "$(history_json)" "$(cat $D/test-history.json)"
    assert_equal "$(summary_json)" "$(cat $D/test-summary.json)"
    assert_equal "$(event_counters)" "$(cat $D/test-counters.txt)"
}

@test "after the reboot: the follower adds to the same store, the counters go on from where they were" {
    before=$(grep 'kind="general_media",severity="informational"' $D/test-counters.txt | awk '{print $2}')
    [[ $before == 3 ]] || fail "before the reboot: '$before'"
    start_follower --store
    record general_media informational 102400 0
    record general_media informational 106496 0
    wait_for 120 "the store to hold eleven" store_holds 11
    kill -TERM "$pid"
    wait_for 60 "the follower to end on SIGTERM" exited "$pid"
    run wait "$pid"
    assert_success
    run cxltier metrics
    assert_success
    assert_line --regexp '^cxltier_events_total\{memdev="mem0"(,serial="0x[0-9a-f]+")?,kind="general_media",severity="informational"\} 5$'
    assert_line --regexp '^cxltier_events_total\{memdev="mem0"(,serial="0x[0-9a-f]+")?,kind="dram",severity="fatal"\} 1$'
}
