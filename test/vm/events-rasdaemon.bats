#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: events
# rasdaemon 0.8.3 (Debian 13's, with its own libraries: fetch.sh) as the peer
# of the storing follower in the same guest: the same injected records, read
# by both from the kernel's tracepoints. Every value rasdaemon keeps, cxltier
# keeps (rasdaemon-compare.jq says, column by column); the pages each takes
# out of use. The comparison is left on the share as rasdaemon/compare.tsv.
# Then rasdaemon's database taken into a store (events --import-rasdaemon):
# each record once, twice no duplicate, none twice in the follower's store;
# each the follower's record, field for field (rasdaemon-import.jq). On 6.12
# rasdaemon keeps no record (its database has its tables, empty): none to
# take.
load helper
load events
load ndctl-oracle

DEV=/machine/peripheral/cxl-mem0
BATS_TEST_TIMEOUT=600   # per test; every wait inside says what it waits for
RAS=/opt/ndctl81/rasdaemon13 SQL=/opt/ndctl81/sqlite3-13 RASDB=/var/lib/rasdaemon/ras-mc_event.db
TABLES="cxl_general_media_event cxl_dram_event cxl_memory_module_event"

setup_file() {
    r=$(ensure_region)
    vm_online_movable "$(vm_dax_of "$r")"
    oracle_ready
}

teardown_file() {
    [[ -n ${RPID:-} ]] && kill "$RPID" 2>/dev/null
    [[ -d $T/rasdaemon ]] && rmdir $T/rasdaemon
    return 0
}

teardown() {
    end_followers
    [[ -n ${HOG_PID:-} ]] && kill "$HOG_PID" 2>/dev/null
    if [[ -n ${RPID:-} ]]; then kill "$RPID" 2>/dev/null; wait_for 60 "rasdaemon to end" exited "$RPID"; fi
    [[ -d $T/rasdaemon ]] && rmdir $T/rasdaemon
    return 0
}

# rows of TABLE in rasdaemon's database, as JSON (blobs as hex)
ras_rows() {
    local cols
    cols=$($SQL "$RASDB" "SELECT group_concat(CASE WHEN type = 'BLOB' THEN 'lower(hex(' || name || ')) AS ' || name ELSE name END, ', ') FROM pragma_table_info('$1')")
    $SQL -json "$RASDB" "SELECT $cols FROM $1 ORDER BY id" | jq -c '. // []'
}
ras_count() { $SQL "$RASDB" "SELECT (SELECT count(*) FROM cxl_general_media_event) + (SELECT count(*) FROM cxl_dram_event) + (SELECT count(*) FROM cxl_memory_module_event)" 2>/dev/null; }
ras_holds() { [[ $(ras_count) == "$1" ]]; }
store_holds() {
    local n
    n=$(cxltier events --history --store-path "$DB" -j 2>/dev/null | jq '.events | length') || return 1
    [[ $n == "$1" ]]
}
# the running kernel's fields of TRACEPOINT, as a JSON array
kernel_fields() {
    grep -o 'field:[^;]*;' /sys/kernel/tracing/events/cxl/$1/format | sed 's/;$//; s/\[[0-9]*\]$//; s/.* //' |
        grep -v '^common_' | jq -R . | jq -sc .
}

# rasdaemon's database, which holds $1 records, taken into a new store
# twice and into the follower's store $DB
import_checks() {
    local n=$1 I=$BATS_TEST_TMPDIR/imported
    mkdir -m 700 "$I"
    (( n == 0 )) || echo "# rasdaemon's hdr_uuid of its General Media and DRAM rows: $($SQL "$RASDB" \
        'SELECT DISTINCT quote(hdr_uuid) FROM cxl_general_media_event UNION SELECT DISTINCT quote(hdr_uuid) FROM cxl_dram_event' | tr '\n' ' ')" >&3
    run --separate-stderr cxltier events --import-rasdaemon "$RASDB" --store-path "$I/events.db" -j
    assert_success
    assert_equal "$(jq -c '.import | [.rows, .new, .duplicates, .skipped]' <<<"$output")" "[$n,$n,0,0]"
    assert_equal "$stderr" "cxltier events: $RASDB: $n CXL records of rasdaemon's, $n of them new in the store $I/events.db"
    echo "# imported: $(jq -c '[.import.tables[] | [.table, .rows]]' <<<"$output")" >&3
    run --separate-stderr cxltier events --import-rasdaemon "$RASDB" --store-path "$I/events.db" -j
    assert_success
    assert_equal "$(jq -c '.import | [.rows, .new, .duplicates]' <<<"$output")" "[$n,0,$n]"
    run --separate-stderr cxltier events --import-rasdaemon "$RASDB" --store-path "$DB" -j
    assert_success
    [[ $(jq -c '.import | [.new, .duplicates]' <<<"$output") == "[0,$n]" ]] ||
        fail "into the follower's store: $(jq -c '.import | [.new, .duplicates]' <<<"$output"), not [0,$n]; its keys:
$($SQL "$DB" 'SELECT key FROM records ORDER BY key')
the import's:
$($SQL "$I/events.db" 'SELECT key FROM records ORDER BY key')"
    assert_equal "$(cxltier events --history --store-path "$I/events.db" -j | jq '.events | length')" "$n"
    jq -n --argjson imported "$(cxltier events --history --store-path "$I/events.db" -j | jq -c .events)" \
        --argjson live "$(cxltier events --history --store-path "$DB" -j | jq -c .events)" \
        '{imported: $imported, live: $live}' | jq -r -f /tests/rasdaemon-import.jq > /share/rasdaemon/import-diff.txt
    [[ ! -s /share/rasdaemon/import-diff.txt ]] || fail "$(head -5 /share/rasdaemon/import-diff.txt)"
}

@test "rasdaemon 0.8.3 and the follower, the same records: every value rasdaemon keeps, the store keeps; the pages each takes out of use; rasdaemon's database taken in, each record once" {
    S=$BATS_TEST_TMPDIR/store DB=$BATS_TEST_TMPDIR/store/events.db
    mkdir -m 700 "$S"
    mkdir -p /var/lib/rasdaemon /share/rasdaemon
    rm -f $RASDB
    printf '[events]\nretire-pages = yes\nretire-threshold = 3\n' > "$BATS_TEST_TMPDIR/conf"
    # rasdaemon with its page isolation on, at the same threshold
    PAGE_CE_ACTION=soft PAGE_CE_THRESHOLD=3 PAGE_CE_REFRESH_CYCLE=24h $RAS -f -r > /share/rasdaemon/rasdaemon.log 2>&1 3>&- &
    RPID=$!
    wait_for 60 "rasdaemon to enable the CXL events" grep -q 'Enabled event cxl:cxl_memory_module' /share/rasdaemon/rasdaemon.log
    cxltier events --drain >/dev/null 2>&1   # (what the shared instance held: consumed, not drained into this store)
    start_follower --store --store-path "$DB" --config "$BATS_TEST_TMPDIR/conf"
    start_cxl_hog
    dpa=$(dpa_of "$PHYS")
    kb0=$(corrupted_kb)
    # three corrected General Media errors on the hog's page, three DRAM ones on
    # another, one uncorrectable of each, a Memory Module record
    for o in 0 64 128; do
        inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"informational\",\"flags\":1,\"dpa\":$((dpa + o)),\"descriptor\":0,\"type\":0,\"transaction-type\":1,\"channel\":1,\"rank\":0,\"device\":3,\"component-id\":\"cxltier-comp-01\"}"
    done
    for o in 0 64 128; do
        inject cxl-inject-dram-event "{\"path\":\"$DEV\",\"log\":\"warning\",\"flags\":1,\"dpa\":$((dpa + 65536 + o)),\"descriptor\":0,\"type\":0,\"transaction-type\":2,\"channel\":1,\"rank\":0,\"nibble-mask\":3,\"bank-group\":1,\"bank\":2,\"row\":42,\"column\":7,\"correction-mask\":[1,0,0,0]}"
    done
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"failure\",\"flags\":2,\"dpa\":$((dpa + 131072)),\"descriptor\":1,\"type\":0,\"transaction-type\":1}"
    inject cxl-inject-dram-event "{\"path\":\"$DEV\",\"log\":\"fatal\",\"flags\":3,\"dpa\":$((dpa + 196608)),\"descriptor\":1,\"type\":0,\"transaction-type\":1,\"channel\":1,\"rank\":0,\"nibble-mask\":1,\"bank-group\":0,\"bank\":1,\"row\":7,\"column\":9,\"correction-mask\":[0,0,0,0]}"
    inject cxl-inject-memory-module-event "{\"path\":\"$DEV\",\"log\":\"fatal\",\"flags\":1,\"type\":3,\"health-status\":3,\"media-status\":7,\"additional-status\":1,\"life-used\":30,\"temperature\":-15,\"dirty-shutdown-count\":4,\"corrected-volatile-error-count\":3,\"corrected-persistent-error-count\":1}"
    wait_for 120 "the store to hold the nine records" store_holds 9
    wait_for 120 "rasdaemon to read the Memory Module record" grep -q ' cxl_memory_module .*hdr_handle:' /share/rasdaemon/rasdaemon.log
    kill -TERM "$pid"
    wait_for 60 "the follower to end on SIGTERM" exited "$pid"
    cxltier events --history --store-path "$DB" -j | jq -c '.events[]' > "$BATS_TEST_TMPDIR/stored"
    grep '"kind":"general_media"' "$BATS_TEST_TMPDIR/stored" | head -1 | all_fields cxl_general_media
    grep '"kind":"dram"' "$BATS_TEST_TMPDIR/stored" | head -1 | all_fields cxl_dram
    grep '"kind":"memory_module"' "$BATS_TEST_TMPDIR/stored" | head -1 | all_fields cxl_memory_module
    if ! grep -q hdr_maint_op_sub_class /sys/kernel/tracing/events/cxl/cxl_general_media/format; then
        # 6.12's records lack a field rasdaemon 0.8.3 requires: it parses none, stores none
        grep -q 'CANT FIND FIELD hdr_maint_op_sub_class' /share/rasdaemon/rasdaemon.log ||
            fail "rasdaemon parsed records without hdr_maint_op_sub_class: $(tail -3 /share/rasdaemon/rasdaemon.log)"
        kill -TERM "$RPID"
        wait_for 60 "rasdaemon to end" exited "$RPID"
        assert_equal "$(ras_count)" 0
        printf 'all\tall\t-\trasdaemon stored no record: the kernel has no hdr_maint_op_sub_class ("CANT FIND FIELD", "FAILED TO PARSE")\n' \
            > /share/rasdaemon/compare.tsv
        import_checks 0
    else
        wait_for 120 "rasdaemon's database to hold the nine" ras_holds 9
        kill -TERM "$RPID"
        wait_for 60 "rasdaemon to end" exited "$RPID"
        # the comparison, column by column
        jq -n --slurpfile cxl "$BATS_TEST_TMPDIR/stored" \
            --argjson gm "$(ras_rows cxl_general_media_event)" --argjson dram "$(ras_rows cxl_dram_event)" \
            --argjson mm "$(ras_rows cxl_memory_module_event)" \
            --argjson kgm "$(kernel_fields cxl_general_media)" --argjson kdram "$(kernel_fields cxl_dram)" \
            --argjson kmm "$(kernel_fields cxl_memory_module)" \
            '{ras: {cxl_general_media_event: $gm, cxl_dram_event: $dram, cxl_memory_module_event: $mm}, cxl: $cxl,
              kernel: {cxl_general_media: $kgm, cxl_dram: $kdram, cxl_memory_module: $kmm}}' > /share/rasdaemon/input.json
        jq -r -f /tests/rasdaemon-compare.jq /share/rasdaemon/input.json > /share/rasdaemon/compare-rows.tsv
        sort -u -t $'\t' -k1,4 /share/rasdaemon/compare-rows.tsv | cut -f1-4 > /share/rasdaemon/compare.tsv
        echo "# $(wc -l < /share/rasdaemon/compare-rows.tsv) values compared; statuses: $(cut -f4 /share/rasdaemon/compare-rows.tsv | sort | uniq -c | tr '\n' ' ')" >&3
        (( $(wc -l < /share/rasdaemon/compare-rows.tsv) > 9 * 20 )) || fail "too few values compared: $(wc -l < /share/rasdaemon/compare-rows.tsv)"
        run grep -E $'\t(MISSING|DIFFERS)\t' /share/rasdaemon/compare-rows.tsv
        assert_failure 1
        import_checks 9
    fi
    # the pages: cxltier retired its two; rasdaemon none (its page isolation
    # acts on EDAC memory-controller errors, not on CXL records)
    run cxltier events --history --summary --store-path "$DB" -j
    assert_success
    assert_equal "$(jq -c '[.summary.retired[] | .action]' <<<"$output")" '["retired","retired"]'
    assert_equal "$(corrupted_kb)" "$(( kb0 + 8 ))"
    echo "# rasdaemon's lines about offlining: $(grep -ci 'offlin' /share/rasdaemon/rasdaemon.log)" >&3
    grep -i 'offlin' /share/rasdaemon/rasdaemon.log | grep -vi 'choice' && fail "rasdaemon offlined a page"
    return 0
}
