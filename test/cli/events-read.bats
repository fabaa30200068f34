#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier events` as a read: --since/--until in every form systemd.time(7)
# gives (what journalctl takes, and what the command itself prints), and a
# plain run on a tracefs tree under --sysroot (the kernel's format files, no
# instance) that makes nothing: the tree is as it was. Reading a live
# instance without consuming it is the VM tier's (test/vm/events.bats).
load helper

GM=fbcd0a77c260417f85a9088b1621eba6
. "$CXLTIER_SRC/test/tools/event-record.bash"

# le64 N: N as 8 little-endian bytes, in hex
le64() {
    local h i out=
    h=$(printf '%016x' "$1")
    for (( i = 14; i >= 0; i -= 2 )); do out+=${h:i:2}; done
    echo "$out"
}
T0=1706267916665022464   # 2024-01-26T11:18:36.665022464Z

setup() {
    S=$BATS_TEST_TMPDIR/store
    mkdir -m 700 "$S"
    DB=$S/events.db
    # handles 1..3: T0, T0 + 1 s, T0 + 2 s; handle 4: two hours ago
    NOW2H=$(( $(date +%s) * 1000000000 - 7200 * 1000000000 ))
    {
        event_record $GM 17:000000 20:0100 24:"$(le64 $T0)" 48:0010000000000000 56:00
        event_record $GM 17:000000 20:0200 24:"$(le64 $((T0 + 1000000000)))" 48:0020000000000000 56:00
        event_record $GM 17:000000 20:0300 24:"$(le64 $((T0 + 2000000000)))" 48:0030000000000000 56:00
        event_record $GM 17:000000 20:0400 24:"$(le64 $NOW2H)" 48:0040000000000000 56:00
    } > "$BATS_TEST_TMPDIR/records.bin"
    cxltier events --file "$BATS_TEST_TMPDIR/records.bin" --store --store-path "$DB" 2>/dev/null
}

# handles OPTS...: the handles of the stored records OPTS take, as [1,2,...]
handles() {
    run cxltier events --history --store-path "$DB" -j "$@"
    assert_success
    jq -c '[.events[].handle]' <<<"$output"
}

@test "--since/--until: points in time, as systemd.time(7) writes them" {
    assert_equal "$(handles --since @1706267917 --until @1706267918.7)" '[2,3]'
    assert_equal "$(handles --since 2024-01-26T11:18:37Z)" '[2,3,4]'
    assert_equal "$(handles --since '2024-01-26 11:18:37 UTC' --until 2024-01-26T11:18:38Z)" '[2]'
    assert_equal "$(handles --since 2024-01-26T12:18:37+01:00)" '[2,3,4]'
    assert_equal "$(handles --until 2024-01-27)" '[1,2,3]'
    assert_equal "$(handles --since 2024-01-26 --until 2024-01-27)" '[1,2,3]'
}

@test "--since/--until: spans from now, ago and ahead" {
    assert_equal "$(handles --since 3h)" '[4]'       # a bare span: that long ago
    assert_equal "$(handles --since 1h)" '[]'
    assert_equal "$(handles --since -3h)" '[4]'
    assert_equal "$(handles --since '3 hours ago')" '[4]'
    assert_equal "$(handles --since 1w)" '[4]'
    assert_equal "$(handles --since 5min)" '[]'
    assert_equal "$(handles --until 5min)" '[1,2,3,4]'
    assert_equal "$(handles --since 1h30min)" '[]'
    assert_equal "$(handles --since 10800)" '[4]'    # bare seconds
    assert_equal "$(handles --since yesterday)" '[4]'
    assert_equal "$(handles --until yesterday)" '[1,2,3]'
    assert_equal "$(handles --since now)" '[]'
    assert_equal "$(handles --until now)" '[1,2,3,4]'
    assert_equal "$(handles --until +1h)" '[1,2,3,4]'
}

@test "--since takes back what the TIME column and the JSON print" {
    run cxltier events --history --store-path "$DB" -n -o TIME
    assert_success
    assert_equal "${lines[1]}" 2024-01-26T11:18:37.665022464Z
    assert_equal "$(handles --since "${lines[1]}")" '[2,3,4]'
    assert_equal "$(handles --until "${lines[1]}")" '[1]'
    t=$(cxltier events --history --store-path "$DB" -j | jq -r '.events[2].time')
    assert_equal "$t" 2024-01-26T11:18:38.665022464Z
    assert_equal "$(handles --since "$t")" '[3,4]'
    assert_equal "$(handles --until "$t")" '[1,2]'
}

@test "--since/--until: what is not a time is refused, saying the forms taken" {
    for bad in foo '5 fortnights' minutes 2024-13-01 '@x' '1h fortnight' 2024-01-26T25:00:00Z; do
        run cxltier events --history --store-path "$DB" --since "$bad"
        assert_failure 2
        assert_output "cxltier events: error: --since $bad: not a time; give one as systemd.time(7) writes it: a span ago (30s, 5min, 2h, 1w), -1h, yesterday, today, now, 2026-12-01 10:00, 2026-12-01T10:00:00Z (as TIME prints), or @EPOCH"
    done
    run cxltier events --history --store-path "$DB" --until 1900-01-01
    assert_failure 2
    assert_output --partial "--until 1900-01-01: that is before 1970 or after 2262"
    run cxltier events --history --store-path "$DB" --since 100y
    assert_failure 2
    assert_output --partial "before 1970"
}

# a tracefs tree under SYSROOT/sys/kernel/tracing: the kernel's event formats, no instance
tracefs_tree() {
    local f n
    R=$BATS_TEST_TMPDIR/root
    for f in "$FIXTURES"/tracefs/linux-6.12/*.format; do
        n=$(basename "$f" .format)
        mkdir -p "$R/sys/kernel/tracing/events/cxl/$n"
        cp "$f" "$R/sys/kernel/tracing/events/cxl/$n/format"
    done
    mkdir "$R/sys/kernel/tracing/instances"
    find "$R" -printf '%p %m %s\n' | sort > "$BATS_TEST_TMPDIR/before"
}

unchanged() {
    find "$R" -printf '%p %m %s\n' | sort | diff "$BATS_TEST_TMPDIR/before" - || fail "the tree changed"
}

@test "plain events, no instance and no store: says nothing is collected and how to start, makes nothing" {
    tracefs_tree
    run --separate-stderr cxltier events --sysroot "$R" --store-path "$S/none.db"
    assert_success
    assert_output ''
    assert_equal "$stderr" "cxltier events: nothing collected: no event store at $S/none.db and no 'cxltier' tracefs instance; collect with 'systemctl enable --now cxltier-events.service' ('cxltier events --follow --store'), or 'cxltier events --drain' to keep them in the kernel from now on"
    unchanged
    run --separate-stderr cxltier events --sysroot "$R" --no-store -j
    assert_success
    assert_equal "$(jq -c . <<<"$output")" '{"events":[],"kept":0}'
    unchanged
    [[ ! -e $S/none.db ]]
}

@test "plain events, no instance: the stored history alone, nothing made" {
    tracefs_tree
    run --separate-stderr cxltier events --sysroot "$R" --store-path "$DB" -j
    assert_success
    assert_equal "$stderr" ''
    assert_equal "$(jq -c '[[.events[].handle], .kept, .store.shown]' <<<"$output")" '[[1,2,3,4],0,4]'
    unchanged
}

@test "--drain and --journal: with what they go with only" {
    run cxltier events --drain --follow
    assert_failure 2
    assert_output --partial "--drain reads the shared instance once"
    run cxltier events --drain --history
    assert_failure 2
    run cxltier events --journal
    assert_failure 2
    assert_output --partial "--journal sends what --follow reads to the journal"
}
