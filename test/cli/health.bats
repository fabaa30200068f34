#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier health` and `cxltier events` on captured payloads and records.
load helper

P=$CXLTIER_SRC/test/fixtures/payloads

@test "health --file: every field of a payload that crossed its thresholds" {
    run cxltier health --file "$P/health-warning.bin" --alert-file "$P/alert-config.bin" -j
    assert_success
    run jq -c '.memdevs[0].health | [.status, .media_status, .life_used_state, .temperature_state, .life_used_percent, .temperature_celsius, .dirty_shutdowns, .corrected_volatile_errors, .corrected_persistent_errors, .corrected_volatile_warning]' <<<"$output"
    assert_output '[["maintenance_needed","hw_replacement_needed"],"write_persistency_loss_imminent","critical","warning",97,-5,10000,4294967295,1,true]'
}

@test "health --file: the alert configuration" {
    run cxltier health --file "$P/health-normal.bin" --alert-file "$P/alert-config.bin" -j
    assert_success
    run jq -c '.memdevs[0].alert_config | [.valid, .programmable, .life_used_critical_percent, .over_temperature_critical_celsius, .under_temperature_critical_celsius, .corrected_volatile_errors_warning]' <<<"$output"
    assert_output '[["life_used","over_temperature","under_temperature","corrected_volatile_errors","corrected_persistent_errors"],["life_used","over_temperature","corrected_volatile_errors"],95,85,-10,10000]'
}

@test "health --file: a table, healthy device reads ok" {
    run cxltier health --file "$P/health-normal.bin" -o MEMDEV,STATUS,MEDIA,LIFE-USED,TEMP,DIRTY-SHUTDOWNS,CORR-VOL,CORR-PERS
    assert_success
    assert_line --index 1 --regexp 'health-normal.bin +ok +normal +3 +38 +1 +7 +0'
}

@test "health --format prometheus: metric families, labels, values" {
    run cxltier health --file "$P/health-warning.bin" --format prometheus
    assert_success
    assert_line '# TYPE cxltier_memdev_temperature_celsius gauge'
    assert_line --regexp '^cxltier_memdev_temperature_celsius\{memdev=".*health-warning.bin"\} -5$'
    assert_line '# TYPE cxltier_memdev_dirty_shutdowns_total counter'
    assert_line --regexp '^cxltier_memdev_alert_level\{memdev=".*health-warning.bin",kind="life_used",severity="critical"\} 1$'
    # every sample line: cxltier_name{labels} number; every family has HELP and TYPE
    while IFS= read -r l; do
        [[ $l == '# HELP cxltier_'* || $l == '# TYPE cxltier_'* ||
           $l =~ ^cxltier_[a-z_]+\{memdev=\"[^\"]*\"(,[a-z]+=\"[a-z_]+\")*\}\ -?[0-9]+$ ]] || fail "bad line: $l"
    done <<<"$output"
    if command -v promtool >/dev/null; then
        promtool check metrics <<<"$output"
    fi
}

@test "health --format prometheus: counters of a million and more are exact integers" {
    # dirty shutdowns 1234567, corrected volatile 4294967295 (the u32 maximum)
    printf '\x00\x00\x00\x03\x26\x00\x87\xd6\x12\x00\xff\xff\xff\xff\x00\x00\x00\x00' > "$BATS_TEST_TMPDIR/big.bin"
    run cxltier health --file "$BATS_TEST_TMPDIR/big.bin" --format prometheus
    assert_success
    assert_line --regexp '^cxltier_memdev_dirty_shutdowns_total\{memdev=".*big.bin"\} 1234567$'
    assert_line --regexp '^cxltier_memdev_corrected_errors_total\{memdev=".*big.bin",kind="volatile"\} 4294967295$'
    refute_output --partial 'e+'
}

@test "health --file: a short payload is an error naming it" {
    printf 'abc' > "$BATS_TEST_TMPDIR/short.bin"
    run cxltier health --file "$BATS_TEST_TMPDIR/short.bin"
    assert_failure 1
    assert_output --partial "short.bin: 3 bytes, a payload needs 18"
}

@test "health on a captured tree: not possible, says why (exit 77)" {
    run cxltier health --sysroot "$(fixture lab-region-online)"
    assert_failure 77
    assert_output --partial "mailboxes"
}

@test "events --file: records decoded like the tracepoints" {
    rec=$BATS_TEST_TMPDIR/rec.bin
    { printf '\xfb\xcd\x0a\x77\xc2\x60\x41\x7f\x85\xa9\x08\x8b\x16\x21\xeb\xa6'    # General Media
      printf '\x80\x06\x00\x00\x34\x12\x00\x00'                                    # len, flags, handles
      printf '\x00\x00\x00\x00\x00\x00\x00\x00'                                    # timestamp
      head -c 16 /dev/zero
      printf '\x01\x10\x00\x00\x00\x00\x00\x00\x01\x00\x01\x05\x00\x03\x00\x09\x00\x00'
      head -c 62 /dev/zero; } > "$rec"
    [[ $(stat -c %s "$rec") == 128 ]]
    run cxltier events --file "$rec" -j
    assert_success
    assert_equal "$(jq -c '.events[0] | [.kind, .severity, .permanent, .handle, .dpa, .dpa_flags, .descriptor, .transaction_type, .channel, .device]' <<<"$output")" \
        '["general_media","failure",true,4660,4096,["volatile"],["uncorrectable"],"host_read",3,9]'
}

@test "events --file: a truncated record names its offset" {
    head -c 200 /dev/zero > "$BATS_TEST_TMPDIR/bad.bin"
    run cxltier events --file "$BATS_TEST_TMPDIR/bad.bin"
    assert_failure 1
    assert_output --partial "record 0 at byte 0"
}

@test "events: bad filters are usage errors" {
    run cxltier events --severity loud
    assert_failure 2
    run cxltier events --type bogus
    assert_failure 2
    run cxltier events --since fortnight    # (yesterday is a time: systemd.time(7))
    assert_failure 2
    # before 1970: an error, not a time that wraps around and hides every record
    run cxltier events --since 100000d
    assert_failure 2
    assert_output --partial "before 1970"
    run cxltier events --since @1e30
    assert_failure 2
    run cxltier events --since @
    assert_failure 2
}

# the families `cxltier metrics` declares: "NAME TYPE HELP" a line each
# (commands/metrics/metrics-model.c's table)
metrics_families() {
    sed -n 's/^\t{ "\(cxltier_[a-z_]*\)", "\([a-z]*\)", *"\(.*\)" },$/\1 \2 \3/p' \
        "$CXLTIER_SRC/cxltier/commands/metrics/metrics-model.c"
}

@test "health --format prometheus: cxltier_ as metrics, one name a quantity: each family metrics has is named, typed and explained as metrics does it" {
    local fams name type help n=0
    fams=$(metrics_families)
    grep -q '^cxltier_memdev_temperature_celsius gauge device temperature$' <<<"$fams" ||
        fail "metrics-model.c's families not read: $fams"
    run cxltier health --file "$P/health-warning.bin" --format prometheus
    assert_success
    while read -r _ _ name type; do
        help=$(sed -n "s/^# HELP $name //p" <<<"$output")
        [[ $name == cxltier_memdev_health_supported ]] && continue   # health's own: whether it answered
        grep -qxF "$name $type $help" <<<"$fams" || fail "$name ($type, '$help') is not a family of metrics as metrics has it"
        n=$((n + 1))
    done < <(grep '^# TYPE ' <<<"$output")
    assert_equal "$n" 7
    refute_output --regexp '^cxl_'
}

@test "health: --format and -j are one choice; --format prometheus takes no table options" {
    run --separate-stderr cxltier health -j --format prometheus --file "$P/health-warning.bin"
    assert_failure 2
    assert_equal "$stderr" "cxltier health: error: --format and -j both say the output's form: give one (-j is --format json)"
    run --separate-stderr cxltier -j health --format table --file "$P/health-warning.bin"
    assert_failure 2
    run --separate-stderr cxltier health --format prometheus -o NAME --file "$P/health-warning.bin"
    assert_failure 2
    assert_equal "$stderr" "cxltier health: error: --format prometheus prints metric families: -o, -n and -b choose a table's form"
    run --separate-stderr cxltier health --format json --file "$P/health-warning.bin"
    assert_success
}
