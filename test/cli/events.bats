#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier events --file`: 128-byte event records decoded to the same keys as
# the kernel's tracepoints (their format files in test/fixtures/tracefs), and
# -o on any field.
load helper

GM=fbcd0a77c260417f85a9088b1621eba6
DRAM=601dcbb39c064eabb8af4e9bfb5c9624
MM=fe927475dd594339a58679bab113b774
DCD=ca95afa7f18340188c2f95268e101a2a
FORMATS=$FIXTURES/tracefs

. "$CXLTIER_SRC/test/tools/event-record.bash"

# record UUID [OFFSET:HEXBYTES...]: a 128-byte record in a file of its own
# (event_record); prints its path
record() {
    local f=$BATS_TEST_TMPDIR/rec-$RANDOM.bin
    event_record "$@" > "$f"
    echo "$f"
}

# the record fields of a tracepoint format: not common_*, not what only the
# kernel knows (memdev, host, log, serial, region), not the test-only field
record_fields() {
    grep -o 'field:[^;]*;' "$1" | sed 's/;$//; s/\[[0-9]*\]$//; s/.* //' |
        grep -vxE 'common_.*|memdev|host|log|serial|hpa|hpa_alias0|region_uuid|region_name|field_no_kernel_has'
}

# every name given on stdin is a key of .events[0].fields in $output
has_fields() {
    local f missing=
    while read -r f; do
        jq -e --arg f "$f" '.events[0].fields | has($f)' <<<"$output" >/dev/null || missing+=" $f"
    done
    [[ -z $missing ]] || fail "missing fields:$missing"
}

@test "general media record: the tracepoint's field names, CXL 3.1 fields decoded" {
    # flags: failure, permanent, performance degraded, hardware replacement;
    # validity channel, rank, device, component id in PLDM format; CME count
    r=$(record $GM 17:360000 20:0700 22:0300 24:15cd5b0700000000 32:0204 \
        48:0110000000000000 56:03 57:04 58:07 59:1f00 61:02 62:01 63:050000 \
        66:03aabbccddeeff11223344 82:02 83:050000 86:01)
    run cxltier events --file "$r" -j
    assert_success
    record_fields "$FORMATS/synthetic-newer/cxl_general_media.format" | has_fields
    record_fields "$FORMATS/linux-6.12/cxl_general_media.format" | has_fields
    e=$(jq -c '.events[0]' <<<"$output")
    assert_equal "$(jq -c '[.kind, .record_type, .uuid, .severity, .handle, .related_handle, .length, .flag_names]' <<<"$e")" \
        '["general_media","general_media","fbcd0a77-c260-417f-85a9-088b1621eba6","failure",7,3,128,["permanent_condition","performance_degraded","hardware_replacement_needed"]]'
    assert_equal "$(jq -c '[.maintenance_operation_class, .maintenance_operation_sub_class, .memory_event_type, .memory_event_sub_type, .transaction_type]' <<<"$e")" \
        '[2,null,"scrub_media_ecc_error","internal_datapath_error","internal_media_ecs"]'
    assert_equal "$(jq -c '[.valid, .component_id_format, .pldm_valid, .pldm_entity_id, .pldm_resource_id, .cme_threshold_event_flags, .cme_count]' <<<"$e")" \
        '[["channel","rank","device","component_id","component_id_format"],"pldm",["entity_id","resource_id"],"aabbccddeeff","11223344",["threshold_exceeded"],5]'
    assert_equal "$(jq -c '.fields | [.hdr_flags, .dpa, .dpa_flags, .comp_id, .sub_type]' <<<"$e")" \
        '[54,4096,1,"03aabbccddeeff112233440000000000",1]'
}

@test "general media record: the maintenance sub-class when flagged valid" {
    r=$(record $GM 17:400000 32:0204)
    run cxltier events --file "$r" -j
    assert_success
    assert_equal "$(jq -c '.events[0] | [.maintenance_operation_class, .maintenance_operation_sub_class, .flag_names]' <<<"$output")" \
        '[2,4,["maintenance_operation_sub_class_valid"]]'
}

@test "DRAM record: correction mask, sub-channel, component id, CVME count" {
    r=$(record $DRAM 17:010000 48:0020000000000000 57:01 59:ff05 61:01 66:02 67:03 68:040000 71:0500 \
        73:0100000000000000020000000000000003000000000000000000000000000080 \
        105:6d656d2d636f6d70 121:07 122:01 123:090000 126:05)
    run cxltier events --file "$r" -j
    assert_success
    record_fields "$FORMATS/linux-6.12/cxl_dram.format" | has_fields
    e=$(jq -c '.events[0]' <<<"$output")
    assert_equal "$(jq -c '[.kind, .severity, .dpa, .memory_event_type, .bank_group, .bank, .row, .column, .sub_channel, .cvme_count]' <<<"$e")" \
        '["dram","warning",8192,"scrub_media_ecc_error",2,3,4,5,7,9]'
    assert_equal "$(jq -c '[.correction_mask, .component_id, .memory_event_sub_type, .cme_threshold_event_flags]' <<<"$e")" \
        '[["0x0000000000000001","0x0000000000000002","0x0000000000000003","0x8000000000000000"],"6d656d2d636f6d700000000000000000","media_link_crc_error",["cme_in_multiple_media"]]'
    assert_equal "$(jq -c '.valid' <<<"$e")" \
        '["channel","rank","nibble_mask","bank_group","bank","row","column","correction_mask","component_id","sub_channel"]'
}

@test "memory module record: health, sub-type, component id" {
    r=$(record $MM 17:030000 48:03 49:03 50:07 51:01 52:1e 53:f1ff 55:04000000 59:03000000 63:01000000 \
        67:0100 69:41424344 85:02)
    run cxltier events --file "$r" -j
    assert_success
    record_fields "$FORMATS/linux-6.12/cxl_memory_module.format" | has_fields
    e=$(jq -c '.events[0]' <<<"$output")
    assert_equal "$(jq -c '[.severity, .device_event_type, .device_event_sub_type, .valid, .component_id, .health.temperature_celsius, .fields.device_temp]' <<<"$e")" \
        '["fatal","temperature_change","unsupported_config_data",["component_id"],"41424344000000000000000000000000",-15,-15]'
}

@test "a record of another format: its type from the UUID, the payload as hex" {
    r=$(record $DCD 17:000000 48:00112233 127:ff)
    run cxltier events --file "$r" -j
    assert_success
    record_fields "$FORMATS/linux-6.12/cxl_generic_event.format" | has_fields
    assert_equal "$(jq -c '.events[0] | [.kind, .record_type, .uuid, (.payload | length), .payload[0:8], .payload[158:160], .fields.data == .payload]' <<<"$output")" \
        '["generic","dynamic_capacity","ca95afa7-f183-4018-8c2f-95268e101a2a",160,"00112233","ff",true]'
    run cxltier events --file "$(record 00112233445566778899aabbccddeeff)" -j
    assert_success
    assert_equal "$(jq -c '.events[0] | [.kind, .record_type, .uuid]' <<<"$output")" \
        '["generic",null,"00112233-4455-6677-8899-aabbccddeeff"]'
    run cxltier events --file "$(record 00112233445566778899aabbccddeeff)"
    assert_success
    assert_output --partial "00112233-4455-6677-8899-aabbccddeeff record"
}

@test "-o: the table shows any field" {
    r=$(record $GM 17:020000 20:0700 59:0800 66:636f6d70)
    run cxltier events --file "$r" -o KIND,comp_id,fields.hdr_handle,component_id,no_such_key
    assert_success
    assert_line --index 0 --regexp '^KIND +comp_id +fields.hdr_handle +component_id +no_such_key$'
    assert_line --index 1 --regexp '^general_media +636f6d70000000000000000000000000 +7 +636f6d70000000000000000000000000 *$'
    run cxltier events --file "$r" -o +uuid
    assert_success
    assert_line --index 0 --regexp 'DETAIL +uuid$'
    run cxltier events --file "$r" -o KIND,NoSuchColumn
    assert_failure 2
    assert_output --partial "unknown column 'NoSuchColumn'"
    run cxltier events --help
    assert_success
    assert_output --partial "any_key"
}
