#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: events
# Page retirement by the storing follower against the real kernel: corrected
# DRAM errors injected over QMP on the DPA behind one page of a running
# process on the CXL node; the kernel traces them with the page's HPA, the
# follower stores them and, at the threshold, soft-offlines the page.
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
    [[ -n ${HOG_PID:-} ]] && kill "$HOG_PID" 2>/dev/null
    return 0
}


dram_at() { # DPA [DESCRIPTOR]: a DRAM record, ECC error on a host read
    inject cxl-inject-dram-event "{\"path\":\"$DEV\",\"log\":\"informational\",\"flags\":1,\"dpa\":$1,\"descriptor\":${2:-0},\"type\":0,\"transaction-type\":1,\"channel\":1,\"rank\":0,\"nibble-mask\":1,\"bank-group\":0,\"bank\":1,\"row\":7,\"column\":9,\"correction-mask\":[1,0,0,0]}"
}

# the follower's store holds N records
stored() {
    local n
    n=$(cxltier events --history --store-path "$DB" -j 2>/dev/null | jq '.events | length') || return 1
    [[ $n == "$1" ]]
}

conf() { printf '[events]\n%s\n' "$@" > "$BATS_TEST_TMPDIR/conf"; }

@test "corrected errors on a running process's page: below the threshold nothing; at it the page soft-offlined, its data intact, stored and counted" {
    S=$BATS_TEST_TMPDIR/store DB=$BATS_TEST_TMPDIR/store/events.db
    mkdir -m 700 "$S"
    conf 'retire-pages = yes' 'retire-threshold = 3' 'retire-window = 1h'
    start_cxl_hog
    dpa=$(dpa_of "$PHYS")
    echo "# hog's page: HPA $(printf 0x%x "$PHYS"), DPA $(printf 0x%x "$dpa") on node $(cxl_node)" >&3
    kb0=$(corrupted_kb)
    assert_equal "$(hwpoison "$PHYS")" 0
    cxltier events --drain >/dev/null 2>&1   # (what the shared instance held: consumed, not drained into this store)
    start_follower --store --store-path "$DB" --config "$BATS_TEST_TMPDIR/conf"
    # two: below the threshold of three
    dram_at "$dpa"
    dram_at $(( dpa + 64 ))
    wait_for 120 "the store to hold the two records" stored 2
    assert_equal "$(hwpoison "$PHYS")" 0
    assert_equal "$(corrupted_kb)" "$kb0"
    # the third: retired
    dram_at $(( dpa + 128 ))
    wait_for 120 "the follower to retire the page" grep -q 'retired page' "$BATS_TEST_TMPDIR/follow.err"
    grep -q "retired page $(printf 0x%x "$PHYS") (mem0 DPA $(printf 0x%x "$dpa")): 3 corrected errors within 3600 s (retire-threshold = 3); its data moved elsewhere" \
        "$BATS_TEST_TMPDIR/follow.err" || fail "$(cat "$BATS_TEST_TMPDIR/follow.err")"
    assert_equal "$(hwpoison "$PHYS")" 1
    assert_equal "$(corrupted_kb)" "$(( kb0 + 4 ))"
    # the process runs on with its data, on another page
    kill -USR1 "$HOG_PID"
    read -r line <&"${HOG[0]}"
    [[ $line == phys\ 0x* && $(( ${line#phys } )) != "$PHYS" ]] || fail "the hog's page after: '$line'"
    read -r line <&"${HOG[0]}"
    assert_equal "$line" intact
    # stored with its reason, counted, named
    run cxltier events --history --summary --store-path "$DB" -j
    assert_success
    assert_equal "$(jq -c '[.summary.retired[] | [.action, .memdev, .dpa, .hpa, .errors]]' <<<"$output")" \
        "[[\"retired\",\"mem0\",$dpa,$PHYS,3]]"
    run cxltier metrics --store-path "$DB"
    assert_success
    assert_line --regexp '^cxltier_pages_retired_total\{memdev="mem0",serial="0x[0-9a-f]+"\} 1$'
    run cxltier doctor --store-path "$DB" -j
    assert_failure 1
    assert_equal "$(jq -r '.findings[] | select(.check == "events" and (.finding | test("retired"))) | .finding' <<<"$output")" \
        '1 page retired for corrected errors (soft-offlined)'
    # a fourth on the page, now poisoned: nothing more
    dram_at $(( dpa + 192 ))
    wait_for 120 "the store to hold the four records" stored 4
    kill -TERM "$pid"
    wait_for 60 "the follower to end on SIGTERM" exited "$pid"
    assert_equal "$(grep -c 'retired page' "$BATS_TEST_TMPDIR/follow.err")" 1
    assert_equal "$(corrupted_kb)" "$(( kb0 + 4 ))"
}

@test "retire-pages = no, and an uncorrectable record: said, the page left in use" {
    S=$BATS_TEST_TMPDIR/store DB=$BATS_TEST_TMPDIR/store/events.db
    mkdir -m 700 "$S"
    conf 'retire-pages = no' 'retire-threshold = 1'
    start_cxl_hog
    dpa=$(dpa_of "$PHYS")
    kb0=$(corrupted_kb)
    cxltier events --drain >/dev/null 2>&1   # (what the shared instance held: consumed, not drained into this store)
    start_follower --store --store-path "$DB" --config "$BATS_TEST_TMPDIR/conf"
    dram_at "$dpa"
    wait_for 120 "the follower to say the page is left in use" grep -q 'left in use (retire-pages = no)' \
        "$BATS_TEST_TMPDIR/follow.err"
    # uncorrectable: the kernel's to handle (the data was not read: not poisoned)
    dram_at $(( dpa + 64 )) 1
    wait_for 120 "the follower to report the uncorrectable error" grep -q 'uncorrectable error on mem0' \
        "$BATS_TEST_TMPDIR/follow.err"
    grep -q "uncorrectable error on mem0 at DPA $(printf 0x%x $(( dpa + 64 ))) (HPA $(printf 0x%x $(( PHYS + 64 )))): the page is in use: the kernel handles the error if the data is read; cxltier does not act on it" \
        "$BATS_TEST_TMPDIR/follow.err" || fail "$(cat "$BATS_TEST_TMPDIR/follow.err")"
    assert_equal "$(hwpoison "$PHYS")" 0
    assert_equal "$(corrupted_kb)" "$kb0"
    kill -USR1 "$HOG_PID"
    read -r line <&"${HOG[0]}"
    assert_equal "$line" "phys $(printf 0x%x "$PHYS")"
    read -r line <&"${HOG[0]}"
    assert_equal "$line" intact
    run cxltier events --history --summary --store-path "$DB" -j
    assert_success
    assert_equal "$(jq -c '.summary.retired' <<<"$output")" '[]'
}
