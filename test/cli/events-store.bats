#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The event store (lib/events/event-store.c) through the command line:
# records written from --file (the follower's writes are the VM tier's,
# test/vm/events.bats), stored once however often they are read, the
# history (--history, --since/--until, --summary), the counters `metrics`
# exports and the example alerting rules that read them (promtool), and
# every fault said and nothing lost: a damaged, foreign or newer store, a
# directory that is not root's own, a bad configuration.
load helper

GM=fbcd0a77c260417f85a9088b1621eba6
DRAM=601dcbb39c064eabb8af4e9bfb5c9624

# le64 N: N as 8 little-endian bytes, in hex
le64() {
    local h i out=
    h=$(printf '%016x' "$1")
    for (( i = 14; i >= 0; i -= 2 )); do out+=${h:i:2}; done
    echo "$out"
}
T0=1706267916665022464   # 2024-01-26T11:18:36.665022464Z

. "$CXLTIER_SRC/test/tools/event-record.bash"
rec() { event_record "$@"; }

# a test's holder of the store's lock, ended whatever the test did
teardown() { [[ -z ${holder:-} ]] || kill "$holder" 2>/dev/null || true; }

setup() {
    S=$BATS_TEST_TMPDIR/store
    mkdir -m 700 "$S"
    DB=$S/events.db
    R=$BATS_TEST_TMPDIR/records.bin
    # five records: corrected General Media on page 0x1000 (twice) and 0x3000,
    # a DRAM one on page 0x1000, an uncorrectable one on 0x2000; device times
    # 2024-01-26T11:18:36Z + 0..4 s (handles 1..5)
    {
        rec $GM 17:000000 20:0100 24:"$(le64 $T0)" 48:0010000000000000 56:00
        rec $GM 17:000000 20:0200 24:"$(le64 $((T0 + 1000000000)))" 48:4010000000000000 56:00
        rec $GM 17:000000 20:0300 24:"$(le64 $((T0 + 2000000000)))" 48:0030000000000000 56:00
        rec $DRAM 17:000000 20:0400 24:"$(le64 $((T0 + 3000000000)))" 48:8010000000000000 56:00
        rec $GM 17:020000 20:0500 24:"$(le64 $((T0 + 4000000000)))" 48:0020000000000000 56:01
    } > "$R"
}

@test "--file --store: every record stored once, however often it is read" {
    run --separate-stderr cxltier events --file "$R" --store --store-path "$DB"
    assert_success
    assert_equal "$stderr" "cxltier events: $R: 5 records, 5 of them new in the store $DB"
    run --separate-stderr cxltier events --file "$R" --store --store-path "$DB"
    assert_success
    assert_equal "$stderr" "cxltier events: $R: 5 records, 0 of them new in the store $DB"
    run cxltier events --history --store-path "$DB" -j
    assert_success
    assert_equal "$(jq -c '[.events[] | [.handle, .kind, .severity, .dpa]]' <<<"$output")" \
        '[[1,"general_media","informational",4096],[2,"general_media","informational",4160],[3,"general_media","informational",12288],[4,"dram","informational",4224],[5,"general_media","failure",8192]]'
    assert_equal "$(jq -c '.store | [.shown, .records, .pruned]' <<<"$output")" '[5,5,0]'
    # every field as the decoder gave it the first time (and what the store
    # says of it: its device, when it arrived)
    diff <(cxltier events --file "$R" -j | jq -S '.events') \
        <(jq -S '.events | map(del(.identity, .received, .received_timestamp))' <<<"$output")
    assert_equal "$(jq -c '[.events[] | [.identity, .received == .time]] | unique' <<<"$output")" '[["memdev:unknown",true]]'
}

@test "--file --store into a store another program holds locked: the records it did not take named, exit 64" {
    cxltier events --file "$R" --store --store-path "$DB" 2>/dev/null
    {
        rec $GM 17:000000 20:0600 24:"$(le64 $((T0 + 5000000000)))" 48:0050000000000000 56:00
        rec $GM 17:000000 20:0700 24:"$(le64 $((T0 + 6000000000)))" 48:0060000000000000 56:00
        rec $GM 17:000000 20:0800 24:"$(le64 $((T0 + 7000000000)))" 48:0070000000000000 56:00
    } > "$BATS_TEST_TMPDIR/more.bin"
    mkfifo "$BATS_TEST_TMPDIR/locked"
    # another writer holds the database's lock until it is killed
    python3 -c 'import signal, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").write("locked\n")
signal.pause()' "$DB" "$BATS_TEST_TMPDIR/locked" 3>&- &
    holder=$!
    read -r line < "$BATS_TEST_TMPDIR/locked"
    # more than the store's queue holds: the oldest dropped on the way are named too
    many_records "$BATS_TEST_TMPDIR/many.bin" 110000 110000
    run --separate-stderr cxltier events --file "$BATS_TEST_TMPDIR/many.bin" --store --store-path "$DB" --type overflow
    assert_failure 64
    [[ $stderr == *"error: $BATS_TEST_TMPDIR/many.bin: the store $DB did not take 110000 of its 110000 records (another program holds its lock): records 0-109999 (by their place in the file, from 0); it took the 0 others, 0 of them new"* ]] ||
        fail "$stderr"
    run --separate-stderr cxltier events --file "$BATS_TEST_TMPDIR/more.bin" --store --store-path "$DB" -j
    kill "$holder"
    wait "$holder" || true
    holder=
    assert_failure 64
    assert_equal "$(jq '.events | length' <<<"$output")" 3
    [[ $stderr == *"cxltier events: error: $BATS_TEST_TMPDIR/more.bin: the store $DB did not take 3 of its 3 records (another program holds its lock): records 0-2 (by their place in the file, from 0); it took the 0 others, 0 of them new: give the file again when the store takes records" ]] ||
        fail "$stderr"
    [[ $stderr != *"lost with this"* ]] || fail "said twice: $stderr"
    assert_equal "$(cxltier events --history --store-path "$DB" -j | jq '.events | length')" 5
    run --separate-stderr cxltier events --file "$BATS_TEST_TMPDIR/more.bin" --store --store-path "$DB"
    assert_success
    assert_equal "$stderr" "cxltier events: $BATS_TEST_TMPDIR/more.bin: 3 records, 3 of them new in the store $DB"
}

@test "--history: --since, --until and the filters on the stored records" {
    cxltier events --file "$R" --store --store-path "$DB" 2>/dev/null
    run cxltier events --history --store-path "$DB" --since @1706267917 --until @1706267919 -j
    assert_success
    assert_equal "$(jq -c '[.events[].handle]' <<<"$output")" '[2,3]'
    run cxltier events --history --store-path "$DB" --type dram -j
    assert_success
    assert_equal "$(jq -c '[.events[].handle]' <<<"$output")" '[4]'
    run cxltier events --history --store-path "$DB" --severity failure -j
    assert_success
    assert_equal "$(jq -c '[.events[].handle]' <<<"$output")" '[5]'
    run cxltier events --history --store-path "$DB"
    assert_success
    assert_line --index 0 --regexp '^TIME +MEMDEV +KIND +SEVERITY'
    assert_equal "${#lines[@]}" 6
}

@test "--summary: counts per kind, severity and day, and the pages most corrected" {
    cxltier events --file "$R" --store --store-path "$DB" 2>/dev/null
    run cxltier events --history --summary --store-path "$DB" -j
    assert_success
    assert_equal "$(jq -c '.summary | [.records, .by_kind.general_media, .by_kind.dram, .by_severity.informational, .by_severity.failure]' <<<"$output")" '[5,4,1,4,1]'
    assert_equal "$(jq -c '.summary.days' <<<"$output")" '[{"day":"2024-01-26","records":5}]'
    assert_equal "$(jq -c '.summary | [.corrected_pages_total, [.corrected_pages[] | [.dpa, .records]]]' <<<"$output")" '[2,[[4096,3],[12288,1]]]'
    assert_equal "$(jq -c '.summary | [.first, .last]' <<<"$output")" '["2024-01-26T11:18:36.665022464Z","2024-01-26T11:18:40.665022464Z"]'
    run cxltier events --history --summary --store-path "$DB"
    assert_success
    assert_line --index 1 --regexp '^ +5 +4 +1 +0 +0 +4 +0 +1 +0$'
    assert_line '2 pages with corrected errors, the most first:'
    assert_line --regexp '^ +0x1000 +3 2024-01-26T11:18:36.665022464Z 2024-01-26T11:18:39.665022464Z$'
}

@test "metrics: the store's counters, which pruning never lowers; the example alerting rules pass promtool" {
    cxltier events --file "$R" --store --store-path "$DB" 2>/dev/null
    run cxltier metrics --sysroot "$(fixture lab-region-online)" --store-path "$DB"
    assert_success
    assert_line 'cxltier_events_total{kind="general_media",severity="informational"} 3'
    assert_line 'cxltier_events_total{kind="general_media",severity="failure"} 1'
    assert_line 'cxltier_events_total{kind="dram",severity="informational"} 1'
    assert_line 'cxltier_events_stored_records 5'
    assert_line 'cxltier_events_pruned_total 0'
    assert_line 'cxltier_metrics_collector_success{collector="events"} 1'
    # a store that keeps a day: the 2024 records go at the next write, the counters stay
    printf '[events]\nstore-max-age = 1d\n' > "$BATS_TEST_TMPDIR/conf"
    rec $GM 17:000000 20:0600 24:"$(le64 $T0)" 48:0050000000000000 > "$BATS_TEST_TMPDIR/one.bin"
    cxltier events --file "$BATS_TEST_TMPDIR/one.bin" --store --store-path "$DB" --config "$BATS_TEST_TMPDIR/conf" 2>/dev/null
    run cxltier metrics --sysroot "$(fixture lab-region-online)" --store-path "$DB"
    assert_success
    assert_line 'cxltier_events_total{kind="general_media",severity="informational"} 4'
    assert_line 'cxltier_events_stored_records 0'
    assert_line 'cxltier_events_pruned_total 6'
    cp "$CXLTIER_SRC/docs/cxltier-alerts.yml" "$CXLTIER_SRC/test/cli/alerts-test.yml" "$BATS_TEST_TMPDIR/"
    run promtool check rules "$BATS_TEST_TMPDIR/cxltier-alerts.yml"
    assert_success
    assert_output --partial 'SUCCESS: 5 rules found'
    run promtool test rules "$BATS_TEST_TMPDIR/alerts-test.yml"
    assert_success
    # (and a rule that does not fire where the test says it does is caught)
    sed -i 's/> 10$/> 100/' "$BATS_TEST_TMPDIR/cxltier-alerts.yml"
    run promtool test rules "$BATS_TEST_TMPDIR/alerts-test.yml"
    assert_failure 1
}

@test "a damaged store: the reader says so and what to do; the writer moves it aside, loses nothing it reads" {
    head -c 4096 /dev/urandom > "$DB"
    cp "$DB" "$BATS_TEST_TMPDIR/damaged.copy"
    run --separate-stderr cxltier events --history --store-path "$DB"
    assert_failure 1
    assert_equal "$stderr" "cxltier events: error: event store $DB: damaged or not a database (the follower moves it aside when it starts: systemctl restart cxltier-events)"
    run --separate-stderr cxltier events --file "$R" --store --store-path "$DB"
    assert_success
    [[ $stderr == *"the event store $DB was damaged or not cxltier's: moved aside to $DB.bad-"* ]]
    aside=$(ls "$DB".bad-*)
    cmp "$aside" "$BATS_TEST_TMPDIR/damaged.copy"
    assert_equal "$(cxltier events --history --store-path "$DB" -j | jq '.events | length')" 5
}

@test "another program's database, and a store of a newer schema: refused, left as they are" {
    python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE mc_event (id INTEGER)'); c.commit()" "$DB"
    run --separate-stderr cxltier events --history --store-path "$DB"
    assert_failure 1
    assert_equal "$stderr" "cxltier events: error: event store $DB: not cxltier's (another program's database): give the right path"
    rm "$DB"
    python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript('PRAGMA application_id = 1129860180; PRAGMA user_version = 4; CREATE TABLE records (a)')" "$DB"
    sum=$(sha256sum < "$DB")
    run --separate-stderr cxltier events --file "$R" --store --store-path "$DB"
    assert_failure 1
    assert_equal "$stderr" "cxltier events: error: event store $DB has a newer schema than this cxltier's (3): left alone; run the newer cxltier, or move the file away
cxltier events: warning: events are not stored (only shown) until the store can be opened: the follower tries again when it restarts"
    assert_equal "$(sha256sum < "$DB")" "$sum"
    assert_equal "$(ls "$S")" events.db
}

@test "a store's directory writable by others, another user's, or behind a symbolic link: refused" {
    chmod 0777 "$S"
    run --separate-stderr cxltier events --file "$R" --store --store-path "$DB"
    assert_failure 1
    [[ $stderr == "cxltier events: error: the event store's directory $S is writable by others: it must be root's own and writable by no one else (chown; chmod go-w)"* ]]
    [[ ! -e $DB ]]
    run --separate-stderr cxltier events --history --store-path "$DB"
    assert_failure 1
    chmod 0700 "$S"
    chown nobody "$S"
    run --separate-stderr cxltier events --file "$R" --store --store-path "$DB"
    assert_failure 1
    [[ $stderr == *"$S is another user's"* ]]
    chown root "$S"
    ln -s "$S" "$BATS_TEST_TMPDIR/link"
    run --separate-stderr cxltier events --file "$R" --store --store-path "$BATS_TEST_TMPDIR/link/events.db"
    assert_failure 1
    [[ $stderr == *"(a symbolic link is on the way: give the real path)"* ]]
    [[ ! -e $DB ]]
}

@test "no store yet: --history says where it will be; the options that do not go together" {
    run --separate-stderr cxltier events --history --store-path "$DB" -j
    assert_success
    assert_equal "$(jq -c '.events' <<<"$output")" '[]'
    assert_equal "$stderr" "cxltier events: no event store at $DB yet: cxltier-events.service (events --follow --store) makes it"
    [[ ! -e $DB ]]
    run cxltier events --store
    assert_failure 2
    assert_output --partial "--store goes with --follow or --file"
    run cxltier events --history --follow
    assert_failure 2
    run cxltier events --summary --follow
    assert_failure 2
    run cxltier events --history --since 1h --until 2h
    assert_failure 2
    assert_output --partial "--until is not after --since"
    run cxltier events --history --no-store
    assert_failure 2
}

@test "[events] of the configuration: the store's path and bounds; a bad line named" {
    printf '[migrate]\njobs = 2\n[events]\nstore = %s\nstore-max-size = 2M\n' "$DB" > "$BATS_TEST_TMPDIR/conf"
    run --separate-stderr cxltier events --file "$R" --store --config "$BATS_TEST_TMPDIR/conf"
    assert_success
    [[ -s $DB ]]
    printf '[events]\nstore-max-age = soon\n' > "$BATS_TEST_TMPDIR/bad"
    run --separate-stderr cxltier events --history --config "$BATS_TEST_TMPDIR/bad"
    assert_failure 2
    assert_equal "$stderr" "cxltier events: error: $BATS_TEST_TMPDIR/bad:2: store-max-age = soon: a duration such as 90d or 52w (0: none)"
    printf '[events]\nretire = yes\n' > "$BATS_TEST_TMPDIR/bad"
    run --separate-stderr cxltier events --history --config "$BATS_TEST_TMPDIR/bad"
    assert_failure 2
    assert_equal "$stderr" "cxltier events: error: $BATS_TEST_TMPDIR/bad:2: [events]: unknown key 'retire' (store, store-max-age, store-max-size, retire-pages, retire-threshold, retire-window, retire-limit)"
    run --separate-stderr cxltier events --history --config "$BATS_TEST_TMPDIR/none"
    assert_failure 2
}

@test "doctor: a device whose corrected errors rise, and one that reported a failure, named with what to do" {
    local now i
    now=$(( $(date +%s) * 1000000000 ))
    # twelve corrected records in the last hour, one in the day before
    for i in $(seq 1 12); do
        rec $GM 17:000000 20:"$(printf '%02x00' "$i")" 24:"$(le64 $((now - i * 60000000000)))" 48:0010000000000000 56:00
    done > "$BATS_TEST_TMPDIR/recent.bin"
    rec $GM 17:000000 20:2000 24:"$(le64 $((now - 30 * 3600 * 1000000000)))" 48:0020000000000000 56:00 >> "$BATS_TEST_TMPDIR/recent.bin"
    cxltier events --file "$BATS_TEST_TMPDIR/recent.bin" --store --store-path "$DB" 2>/dev/null
    run cxltier doctor --sysroot "$(fixture lab-region-online)" --store-path "$DB" -j
    assert_failure 1
    assert_equal "$(jq -c '[.findings[] | select(.check == "events") | [.status, .finding]]' <<<"$output")" \
        '[["problem","corrected memory errors rising: 12 corrected General Media and DRAM records in the last 24 h, 1 in the 24 h before"]]'
    # a failure record: named too
    rec $GM 17:020000 20:3000 24:"$(le64 $((now - 7200000000000)))" 48:0030000000000000 56:01 > "$BATS_TEST_TMPDIR/fail.bin"
    cxltier events --file "$BATS_TEST_TMPDIR/fail.bin" --store --store-path "$DB" 2>/dev/null
    run cxltier doctor --sysroot "$(fixture lab-region-online)" --store-path "$DB" -j
    assert_failure 1
    assert_equal "$(jq -c '[.findings[] | select(.check == "events") | .finding][1]' <<<"$output")" '"1 failure or fatal record in the last 7 days"'
    # an old history only: fine, said with --all
    rm "$DB"
    cxltier events --file "$R" --store --store-path "$DB" 2>/dev/null
    run cxltier doctor --sysroot "$(fixture lab-region-online)" --store-path "$DB" --all -j
    assert_success
    assert_equal "$(jq -c '[.findings[] | select(.check == "events") | [.status, .finding]]' <<<"$output")" \
        '[["ok","5 records kept (0 pruned); no device with rising corrected errors, a failure in the last 7 days or a retired page"]]'
    # an unreadable history: a problem, with the fix
    head -c 4096 /dev/urandom > "$DB"
    run cxltier doctor --sysroot "$(fixture lab-region-online)" --store-path "$DB" -j
    assert_failure 1
    assert_equal "$(jq -r '.findings[] | select(.check == "events") | .fix' <<<"$output")" 'systemctl restart cxltier-events'
}

# a decision as the follower writes it (lib/events/retire-log.c): the page's
# row, and the decision counted
retirement() {
    python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"INSERT INTO retirements (time_ns, first_ns, memdev, serial, device, dpa, hpa, action, errors, reason, message) VALUES (1764979200000000000, 1764979200000000000, 'mem0', 42, 'serial:0x2a', ?, ?, ?, 3, '3 corrected errors within 86400 s (retire-threshold = 3)', ?)\", (int(sys.argv[2], 0), int(sys.argv[2], 0) + 0x1080000000, sys.argv[3], sys.argv[4] or None)); c.execute(\"INSERT INTO retire_counts VALUES ('mem0', 42, ?, 1, 1764979200000000000) ON CONFLICT DO UPDATE SET n = n + 1\", (sys.argv[3],)); c.commit()" "$DB" "$@"
}

@test "retired pages: counted by metrics, named by doctor, listed by --summary" {
    cxltier events --file "$R" --store --store-path "$DB" 2>/dev/null
    run cxltier metrics --store-path "$DB"
    assert_success
    refute_output --partial cxltier_pages_retired_total
    retirement 0x1000 retired ''
    retirement 0x2000 retired ''
    retirement 0x3000 limited 'the limit of 16 pages an hour for this device is reached (retire-limit)'
    retirement 0x4000 already_poisoned ''
    run cxltier metrics --store-path "$DB"
    assert_success
    assert_line 'cxltier_pages_retired_total{memdev="mem0",serial="0x2a"} 2'
    assert_line 'cxltier_pages_not_retired_total{memdev="mem0",serial="0x2a",why="limited"} 1'
    refute_output --partial already
    run cxltier doctor --sysroot "$(fixture lab-region-online)" --store-path "$DB" -j
    assert_failure 1
    assert_equal "$(jq -c '[.findings[] | select(.check == "events") | [.status, .object, .finding]]' <<<"$output")" \
        '[["problem","mem0 (serial 0x2a)","1 page due for retirement left in use: the limit of pages an hour (retire-limit) was reached"],["problem","mem0 (serial 0x2a)","2 pages retired for corrected errors (soft-offlined)"]]'
    run cxltier events --history --summary --store-path "$DB" -j
    assert_success
    assert_equal "$(jq -c '[.summary.retired[] | [.action, .dpa, .hpa, .memdev, .serial, .errors]]' <<<"$output")" \
        '[["retired",4096,70866964480,"mem0",42,3],["retired",8192,70866968576,"mem0",42,3],["limited",12288,70866972672,"mem0",42,3],["already_poisoned",16384,70866976768,"mem0",42,3]]'
    assert_equal "$(jq -r '.summary.retired[2].message' <<<"$output")" 'the limit of 16 pages an hour for this device is reached (retire-limit)'
    run cxltier events --history --summary --store-path "$DB"
    assert_success
    assert_output --partial 'Pages retired, or due and left in use:'
}

# many_records FILE N PAGES [SECONDS]: N corrected General Media records on
# PAGES pages (one after the other, round), distinct handles and device times
# from SECONDS (default 2026-12-01) a millisecond apart
many_records() {
    python3 - "$@" <<'PY'
import struct, sys
gm = bytes.fromhex("fbcd0a77c260417f85a9088b1621eba6")
n, pages = int(sys.argv[2]), int(sys.argv[3])
t0 = int(sys.argv[4] if len(sys.argv) > 4 else 1796083200) * 10**9
with open(sys.argv[1], "wb") as f:
    for i in range(n):
        rec = bytearray(128)
        rec[0:16] = gm
        rec[16] = 128
        struct.pack_into("<H", rec, 20, i % 65536)
        struct.pack_into("<Q", rec, 24, t0 + i * 10**6)
        struct.pack_into("<Q", rec, 48, (i % pages) * 4096)
        f.write(rec)
PY
}

# peak_kib ARGS...: the peak RSS of cxltier ARGS, in KiB
# (the child's getrusage, as GNU time reads it, which is not in every root
# the tests run in: the figure is the larger of python's own, about 10 MiB,
# which the child had until its exec, and cxltier's; the bound is far above)
peak_kib() {
    python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$CXLTIER" "$@"
}

asan_build() { [[ $(ldd "$CXLTIER") == *libasan* ]]; }

@test "--history streams: its memory does not grow with the store, as JSON or a table" {
    ! asan_build || skip "an ASan build's peak RSS is its shadow memory and quarantine: the plain build's run measures it"
    many_records "$BATS_TEST_TMPDIR/many.bin" 20000 20000
    cxltier events --file "$BATS_TEST_TMPDIR/many.bin" --store --store-path "$DB" --type overflow 2>/dev/null
    json=$(peak_kib events --history --store-path "$DB" -j)
    table=$(peak_kib events --history --store-path "$DB")
    echo "# 20000 records: at most $json KiB at peak as JSON, $table KiB as a table" >&3
    (( json < 65536 && table < 65536 )) || fail "20000 records: $json KiB at peak as JSON, $table KiB as a table"
    assert_equal "$(cxltier events --history --store-path "$DB" -j | jq '.events | length')" 20000
    assert_equal "$(cxltier events --history --store-path "$DB" | wc -l)" 20001
}

# seconds COMMAND...: how long it ran (its status must be 0 or 1)
seconds() {
    local t0 t1 rc=0
    t0=$EPOCHREALTIME
    "$@" > /dev/null 2>&1 || rc=$?
    t1=$EPOCHREALTIME
    (( rc <= 1 )) || { echo "status $rc: $*" >&2; return 1; }
    echo $(( (10#${t1/./} - 10#${t0/./}) / 1000 ))
}

@test "110000 records on as many pages: --file --store writes every one (more than a follower holds); --summary and doctor take about their share of the time, not its square" {
    local now s_small s_big d_small d_big
    now=$(( $(date +%s) - 3600 ))
    mkdir -m 700 "$S/small"
    many_records "$BATS_TEST_TMPDIR/small.bin" 5000 5000 $now
    many_records "$BATS_TEST_TMPDIR/many.bin" 110000 110000 $now
    cxltier events --file "$BATS_TEST_TMPDIR/small.bin" --store --store-path "$S/small/e.db" --type overflow 2>/dev/null
    run --separate-stderr cxltier events --file "$BATS_TEST_TMPDIR/many.bin" --store --store-path "$DB" --type overflow
    assert_success
    assert_equal "$stderr" "cxltier events: $BATS_TEST_TMPDIR/many.bin: 110000 records, 110000 of them new in the store $DB"
    s_small=$(seconds cxltier events --history --summary --store-path "$S/small/e.db" -j)
    s_big=$(seconds cxltier events --history --summary --store-path "$DB" -j)
    d_small=$(seconds cxltier doctor --sysroot "$(fixture lab-region-online)" --store-path "$S/small/e.db" -j)
    d_big=$(seconds cxltier doctor --sysroot "$(fixture lab-region-online)" --store-path "$DB" -j)
    echo "# --summary: ${s_small} ms on 5000 pages, ${s_big} ms on 110000; doctor: ${d_small} ms, ${d_big} ms" >&3
    (( s_big < 44 * (s_small + 10) && d_big < 44 * (d_small + 10) )) ||
        fail "--summary: ${s_small} ms on 5000 pages, ${s_big} ms on 110000; doctor: ${d_small} ms, ${d_big} ms"
    run cxltier events --history --summary --store-path "$DB" -j
    assert_success
    assert_equal "$(jq -c '.summary | [.records, .corrected_pages_total, (.corrected_pages | length)]' <<<"$output")" '[110000,110000,10]'
}

@test "a store-max-age past what a clock counts: refused, the history left whole" {
    cxltier events --file "$R" --store --store-path "$DB" 2>/dev/null
    printf '[events]\nstore-max-age = 999999d\n' > "$BATS_TEST_TMPDIR/conf"
    run --separate-stderr cxltier events --file "$R" --store --store-path "$DB" --config "$BATS_TEST_TMPDIR/conf"
    assert_failure 2
    assert_equal "$stderr" "cxltier events: error: $BATS_TEST_TMPDIR/conf:2: store-max-age = 999999d: a duration of at most 100 years, such as 90d or 52w (0: none)"
    assert_equal "$(cxltier events --history --store-path "$DB" -j | jq '.events | length')" 5
}

# ras_db FILE: a database as rasdaemon 0.8.3 makes it (ras-record.c's CXL
# tables), with a General Media record, a DRAM one and a poison one as it
# stores them, and a row without a memdev
ras_db() {
    python3 - "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
hdr = "id INTEGER PRIMARY KEY, timestamp TEXT, memdev TEXT, host TEXT, serial INTEGER, log_type TEXT, hdr_uuid TEXT, hdr_flags INTEGER, hdr_handle INTEGER, hdr_related_handle INTEGER, hdr_ts TEXT, hdr_length INTEGER, hdr_maint_op_class INTEGER, hdr_maint_op_sub_class INTEGER"
c.execute(f"CREATE TABLE cxl_general_media_event ({hdr}, dpa INTEGER, dpa_flags INTEGER, descriptor INTEGER, type INTEGER, transaction_type INTEGER, channel INTEGER, rank INTEGER, device INTEGER, comp_id BLOB, hpa INTEGER, region TEXT, region_uuid TEXT, pldm_entity_id BLOB, pldm_resource_id BLOB, sub_type INTEGER, cme_threshold_ev_flags INTEGER, cme_count INTEGER)")
c.execute(f"CREATE TABLE cxl_dram_event ({hdr}, dpa INTEGER, dpa_flags INTEGER, descriptor INTEGER, type INTEGER, transaction_type INTEGER, channel INTEGER, rank INTEGER, nibble_mask INTEGER, bank_group INTEGER, bank INTEGER, row INTEGER, column INTEGER, cor_mask BLOB, hpa INTEGER, region TEXT, region_uuid TEXT, comp_id BLOB, pldm_entity_id BLOB, pldm_resource_id BLOB, sub_type INTEGER, sub_channel INTEGER, cme_threshold_ev_flags INTEGER, cvme_count INTEGER)")
c.execute("CREATE TABLE cxl_poison_event (id INTEGER PRIMARY KEY, timestamp TEXT, memdev TEXT, host TEXT, serial INTEGER, trace_type TEXT, region TEXT, region_uuid TEXT, hpa INTEGER, dpa INTEGER, dpa_length INTEGER, source TEXT, flags INTEGER, overflow_ts TEXT)")
u = "fbcd0a77-c260-417f-85a9-088b1621eba6"
c.execute("INSERT INTO cxl_general_media_event VALUES (1, '2025-12-06 10:00:01 +0100', 'mem0', '0000:0d:00.0', 4660, 'Warning', ?, 1, 7, 0, '2025-12-06 10:00:00 +0100', 128, 0, 0, 4096, 0, 0, 0, 1, 1, 0, 3, ?, 4563406848, 'region0', '', NULL, NULL, 0, 0, 0)", (u, bytes(16)))
c.execute("INSERT INTO cxl_dram_event VALUES (1, '2025-12-06 09:00:02 +0000', 'mem0', '0000:0d:00.0', 4660, 'Informational', '601dcbb3-9c06-4eab-b8af-4e9bfb5c9624', 1, 8, 0, '2025-12-06 09:00:01 +0000', 128, 0, 0, 8192, 0, 0, 0, 2, 1, 0, 3, 1, 2, 42, 7, ?, -1, '', '', NULL, NULL, NULL, 0, 0, 0, 0)", (bytes([1] + [0] * 31),))
c.execute("INSERT INTO cxl_dram_event (id, timestamp, log_type) VALUES (2, '2025-12-06 09:00:03 +0000', 'Warning')")
c.execute("INSERT INTO cxl_poison_event VALUES (1, '2025-12-06 09:00:04 +0000', 'mem0', '0000:0d:00.0', 4660, 'Inject', '', '', -1, 12288, 64, 'Injected', 0, '1970-01-01 00:00:00 +0000')")
c.commit()
PY
}

@test "--import-rasdaemon: a row without its UUID (rasdaemon could not read the kernel's) is of its table's format, the same record as with it" {
    ras_db "$BATS_TEST_TMPDIR/ras.db"
    cp "$BATS_TEST_TMPDIR/ras.db" "$BATS_TEST_TMPDIR/no-uuid.db"
    python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE cxl_general_media_event SET hdr_uuid = ''\"); c.execute(\"UPDATE cxl_dram_event SET hdr_uuid = '00000000-0000-0000-0000-000000000000'\"); c.commit()" "$BATS_TEST_TMPDIR/no-uuid.db"
    run --separate-stderr cxltier events --import-rasdaemon "$BATS_TEST_TMPDIR/no-uuid.db" --store-path "$DB" -j
    assert_failure 64
    assert_equal "$(jq -c '.import | [.rows, .new, .duplicates]' <<<"$output")" '[4,3,0]'
    run cxltier events --history --store-path "$DB" -j
    assert_success
    assert_equal "$(jq -c '[.events[] | .uuid]' <<<"$output")" \
        '["fbcd0a77-c260-417f-85a9-088b1621eba6","601dcbb3-9c06-4eab-b8af-4e9bfb5c9624",null]'
    # the same records as rasdaemon keeps them with their UUID: held already
    run --separate-stderr cxltier events --import-rasdaemon "$BATS_TEST_TMPDIR/ras.db" --store-path "$DB" -j
    assert_failure 64
    assert_equal "$(jq -c '.import | [.rows, .new, .duplicates]' <<<"$output")" '[4,0,3]'
    # a kernel whose cxl_dram gives the correction mask as 32 bytes (7.x), not
    # four u64: the import's as its
    local root=$BATS_TEST_TMPDIR/root
    mkdir -p "$root/sys/kernel/tracing/events/cxl/cxl_dram" && mkdir -m 700 "$S/b"
    printf 'name: cxl_dram\nformat:\n\tfield:u8 cor_mask[32];\toffset:100;\tsize:32;\tsigned:0;\n' \
        > "$root/sys/kernel/tracing/events/cxl/cxl_dram/format"
    run --separate-stderr cxltier --sysroot "$root" events --import-rasdaemon "$BATS_TEST_TMPDIR/ras.db" --store-path "$S/b/e.db"
    assert_failure 64
    assert_equal "$(cxltier events --history --store-path "$S/b/e.db" -j | jq -c '.events[1].fields.cor_mask')" \
        '"0100000000000000000000000000000000000000000000000000000000000000"'
}

@test "--import-rasdaemon: rasdaemon's CXL records into the store as the kernel gave them, each once" {
    ras_db "$BATS_TEST_TMPDIR/ras.db"
    run --separate-stderr cxltier events --import-rasdaemon "$BATS_TEST_TMPDIR/ras.db" --store-path "$DB" -j
    assert_failure 64
    assert_equal "$(jq -c '.import | [.rows, .new, .duplicates, .skipped]' <<<"$output")" '[4,3,0,1]'
    assert_equal "$(jq -c '[.import.tables[] | [.table, .rows, .new, .skipped]]' <<<"$output")" \
        '[["cxl_general_media_event",1,1,0],["cxl_dram_event",2,1,1],["cxl_poison_event",1,1,0]]'
    [[ $stderr == *"1 rows of rasdaemon's database $BATS_TEST_TMPDIR/ras.db make no record"* ]] || fail "$stderr"
    # twice: nothing new
    run --separate-stderr cxltier events --import-rasdaemon "$BATS_TEST_TMPDIR/ras.db" --store-path "$DB" -j
    assert_failure 64
    assert_equal "$(jq -c '.import | [.rows, .new, .duplicates]' <<<"$output")" '[4,0,3]'
    # as the kernel gave them: the fields under its names, the times rasdaemon kept
    run cxltier events --history --store-path "$DB" -j
    assert_success
    assert_equal "$(jq -c '[.events[] | [.event, .memdev, .serial, .severity, .dpa, .handle // .trace_type]]' <<<"$output")" \
        '[["cxl_general_media","mem0",4660,"warning",4096,7],["cxl_dram","mem0",4660,"informational",8192,8],["cxl_poison","mem0",4660,"failure",12288,"inject"]]'
    assert_equal "$(jq -c '[.events[] | [.time, .received, .identity]][0]' <<<"$output")" \
        '["2025-12-06T09:00:00.000000000Z","2025-12-06T09:00:01.000000000Z","serial:0x1234"]'
    assert_equal "$(jq -c '.events[0] | [.hpa, .region, .fields.region_name, .fields.log]' <<<"$output")" '[4563406848,"region0","region0",1]'
    # (rasdaemon keeps no validity_flags: the decoded keys they make valid are absent)
    assert_equal "$(jq -c '.events[1] | [has("hpa"), .fields.cor_mask, .fields.row, .fields.bank]' <<<"$output")" \
        '[false,[1,0,0,0],42,2]'
    run cxltier events --history --summary --store-path "$DB" -j
    assert_success
    assert_equal "$(jq -c '.summary | [.records, .corrected_pages_total]' <<<"$output")" '[3,2]'
    # no such database, and one that is not rasdaemon's
    run --separate-stderr cxltier events --import-rasdaemon "$BATS_TEST_TMPDIR/none.db" --store-path "$DB"
    assert_failure 1
    assert_equal "$stderr" "cxltier events: error: rasdaemon's database $BATS_TEST_TMPDIR/none.db: No such file or directory"
    python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('CREATE TABLE mc_event (id INTEGER)')" "$BATS_TEST_TMPDIR/other.db"
    run --separate-stderr cxltier events --import-rasdaemon "$BATS_TEST_TMPDIR/other.db" --store-path "$DB"
    assert_failure 1
    [[ $stderr == *"has no CXL table of rasdaemon's"* ]] || fail "$stderr"
    run cxltier events --import-rasdaemon --follow
    assert_failure 2
    assert_output --partial "--import-rasdaemon takes rasdaemon's history into the store: not with --follow"
}
