#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: events
# The follower's store when the file system under it fails, on the real
# kernel's records: a store on a tmpfs of its own filled up, read-only when
# the follower starts, and a damaged database file. Each is said once, the
# records are held in memory meanwhile, and written once the store can take
# them: none is lost. (A file system cannot be made read-only under a
# process that has files on it open for writing: remount says EBUSY. A
# database locked by another writer is the unit tests' (test-event-store).)
load helper
load events

DEV=/machine/peripheral/cxl-mem0
BATS_TEST_TIMEOUT=600   # per test; every wait inside says what it waits for

setup_file() {
    r=$(ensure_region)
    vm_online_movable "$(vm_dax_of "$r")"
}

teardown() {
    end_followers
    grep -q " $BATS_TEST_TMPDIR/store " /proc/mounts && umount "$BATS_TEST_TMPDIR/store"
    return 0
}

# the store's directory: a tmpfs of SIZE of its own, root's, 0700
store_fs() {
    S=$BATS_TEST_TMPDIR/store DB=$BATS_TEST_TMPDIR/store/events.db
    mkdir -p "$S"
    mount -t tmpfs -o "size=$1,mode=0700" cxltier-test "$S"
}

# the DPAs of the store's records, in order, on one line
stored_dpas() { cxltier events --history --store-path "$DB" -j | jq -c '[.events[].dpa]'; }
# the store holds exactly the records at DPAS ("[a,b,...]")
holds() { [[ $(stored_dpas 2>/dev/null) == "$1" ]]; }
printed() { grep -q "\"dpa\":$1[,}]" "$BATS_TEST_TMPDIR/follow.out"; }
said() { grep -q "$1" "$BATS_TEST_TMPDIR/follow.err"; }

stop_follower() {
    kill -TERM "$pid"
    wait_for 60 "the follower to end on SIGTERM" exited "$pid"
    run wait "$pid"
}

@test "a full file system: said once, the records held, written when there is room again" {
    store_fs 2m
    cxltier events --drain >/dev/null 2>&1
    start_follower --store --store-path "$DB"
    gm_at 16384
    wait_for 120 "the store to hold the record of dpa 16384" holds '[16384]'
    # the rest of the file system taken
    dd if=/dev/zero of="$S/fill" bs=64k 2>/dev/null || true
    gm_at 20480
    gm_at 24576
    wait_for 120 "the follower to print the records of dpa 20480 and 24576" bash -c "$(declare -f printed); printed 20480 && printed 24576"
    wait_for 60 "the follower to say the store is full" said 'records not written yet (kept, tried again)'
    grep -q 'full' "$BATS_TEST_TMPDIR/follow.err" || fail "$(cat "$BATS_TEST_TMPDIR/follow.err")"
    rm "$S/fill"
    wait_for 60 "the store to take the two that waited" holds '[16384,20480,24576]'
    stop_follower
    assert_success
}

@test "a store that cannot be made at start (read-only): the follower runs on, holds the records, makes it when it can" {
    store_fs 4m
    mount -o remount,ro "$S"
    cxltier events --drain >/dev/null 2>&1
    start_follower --store --store-path "$DB"
    wait_for 60 "the follower to say the records are held" said 'the records are held in memory and written when it can take them'
    gm_at 28672
    wait_for 120 "the follower to print the record of dpa 28672" printed 28672
    mount -o remount,rw "$S"
    wait_for 60 "the store to be made with the record" holds '[28672]'
    stop_follower
    assert_success
}

@test "a damaged database: moved aside with the time, said, a new store takes the records" {
    store_fs 4m
    head -c 8192 /dev/urandom > "$DB"
    cxltier events --drain >/dev/null 2>&1
    start_follower --store --store-path "$DB"
    wait_for 60 "the follower to say it moved the file aside" said 'was damaged or not cxltier'"'"'s: moved aside to'
    ls "$S" | grep -qE '^events\.db\.bad-[0-9]{8}T[0-9]{6}Z$' || fail "$(ls "$S")"
    gm_at 32768
    wait_for 120 "the new store to hold the record of dpa 32768" holds '[32768]'
    stop_follower
    assert_success
}
