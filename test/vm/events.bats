#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: events
# vm-asan-tests: general media: every field|--follow -- a record decoded whole, and --follow with its signals, reader gone, SIGKILL leftovers and lost instance (the whole file runs on the plain build)
# vm-userland: trixie -- the tracefs reader and the follower under Debian 13's libtracefs/libtraceevent
# `cxltier events` against the real kernel: events injected
# into QEMU's Type-3 device over QMP, drained by the kernel, read back.
load helper
load events
load ndctl-oracle

DEV=/machine/peripheral/cxl-mem0
BATS_TEST_TIMEOUT=900   # per test; every wait inside says what it waits for

setup_file() {
    r=$(ensure_region)
    vm_online_movable "$(vm_dax_of "$r")"
    # start collecting before anything is injected
    cxltier events --drain >/dev/null 2>&1 || true
}

teardown() {
    local p
    end_followers
    for p in $T/cxltier-test-* $T/cxl_monitor; do [[ -d $p ]] && rmdir "$p"; done
    # the small /run/cxltier of a failed test
    grep -q ' /run/cxltier tmpfs ' /proc/mounts && umount /run/cxltier
    return 0
}


# consume the shared instance (cxltier events --drain -j) into seen.json; true once
# it holds an event of KIND
seen() {
    local f=$BATS_TEST_TMPDIR/seen.json json
    [[ -f $f ]] || echo '[]' > "$f"
    json=$(cxltier events --drain -j) || return 1
    jq -c --slurpfile a "$f" '$a[0] + .events' <<<"$json" > "$f.new" && mv "$f.new" "$f"
    jq -e --arg k "$1" 'any(.[]; .kind == $k)' "$f" >/dev/null
}

# the events of KIND the kernel traced, once there is one (waits for it)
events_of() {
    wait_for 120 "a $1 event traced by the kernel" seen "$1" &&
        jq -c --arg k "$1" '[.[] | select(.kind == $k)]' "$BATS_TEST_TMPDIR/seen.json"
}

@test "general media: every field, the injected values, the region's HPA" {
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"failure\",\"flags\":61,\"dpa\":4096,\"descriptor\":3,\"type\":0,\"transaction-type\":1,\"channel\":2,\"rank\":1,\"device\":5,\"component-id\":\"cxltier-comp-01\"}"
    run events_of general_media
    assert_success
    e=$(jq -c '.[0]' <<<"$output")
    all_fields cxl_general_media <<<"$e"
    assert_equal "$(jq -c '[.memdev, .severity, .dpa, .descriptor, .memory_event_type, .transaction_type, .channel, .rank, .device]' <<<"$e")" \
        '["mem0","failure",4096,["uncorrectable","threshold"],"ecc_error","host_read",2,1,5]'
    assert_equal "$(jq -c '[.event, .host, .uuid, .record_type, .length, .flag_names, .performance_degraded, .hardware_replacement_needed]' <<<"$e")" \
        "[\"cxl_general_media\",\"$(basename "$(readlink -f $CXL/mem0/..)")\",\"fbcd0a77-c260-417f-85a9-088b1621eba6\",\"general_media\",128,[\"permanent_condition\",\"maintenance_needed\",\"performance_degraded\",\"hardware_replacement_needed\"],true,true]"
    assert_equal "$(jq -c '[.valid, .component_id, .fields.comp_id]' <<<"$e")" \
        "[[\"channel\",\"rank\",\"device\",\"component_id\"],\"$(printf 'cxltier-comp-01\0' | xxd -p)\",\"$(printf 'cxltier-comp-01\0' | xxd -p)\"]"
    region_base=$(( $(cat $CXL/$(ensure_region)/resource) ))
    assert_equal "$(jq '.hpa' <<<"$e")" "$(( region_base + 4096 ))"
    assert_equal "$(jq -r '.region' <<<"$e")" "$(ensure_region)"
    assert_equal "$(jq '.serial' <<<"$e")" "$(( $(cat $CXL/mem0/serial) ))"
}

@test "DRAM: every field, bank, row, column and correction mask as injected" {
    inject cxl-inject-dram-event "{\"path\":\"$DEV\",\"log\":\"warning\",\"flags\":1,\"dpa\":8192,\"descriptor\":1,\"type\":3,\"transaction-type\":2,\"channel\":1,\"rank\":0,\"nibble-mask\":1,\"bank-group\":2,\"bank\":3,\"row\":4,\"column\":5,\"correction-mask\":[1,2,3,4]}"
    run events_of dram
    assert_success
    e=$(jq -c '.[0]' <<<"$output")
    all_fields cxl_dram <<<"$e"
    assert_equal "$(jq -c '[.severity, .dpa, .memory_event_type, .transaction_type, .bank_group, .bank, .row, .column, .nibble_mask]' <<<"$e")" \
        '["warning",8192,"data_path_error","host_write",2,3,4,5,1]'
    assert_equal "$(jq -c '[.correction_mask, (.valid | index("correction_mask") != null)]' <<<"$e")" \
        '[["0x0000000000000001","0x0000000000000002","0x0000000000000003","0x0000000000000004"],true]'
}

@test "memory module: every field, the device health inside, negative temperature kept" {
    inject cxl-inject-memory-module-event "{\"path\":\"$DEV\",\"log\":\"fatal\",\"flags\":1,\"type\":3,\"health-status\":3,\"media-status\":7,\"additional-status\":1,\"life-used\":30,\"temperature\":-15,\"dirty-shutdown-count\":4,\"corrected-volatile-error-count\":3,\"corrected-persistent-error-count\":1}"
    run events_of memory_module
    assert_success
    e=$(jq -c '.[0]' <<<"$output")
    all_fields cxl_memory_module <<<"$e"
    assert_equal "$(jq -c '[.severity, .device_event_type, .health.maintenance_needed, .health.performance_degraded, .health.media_status, .health.life_used_state, .health.life_used_percent, .health.temperature_celsius, .health.dirty_shutdowns, .health.corrected_volatile_errors, .fields.device_temp]' <<<"$e")" \
        '["fatal","temperature_change",true,true,"all_data_loss_on_power_loss","warning",30,-15,4,3,-15]'
}

# the cxl_monitor instance of ndctl 81's `cxl monitor` records cxl events
monitor_recording() { [[ $(cat $T/cxl_monitor/events/cxl/enable 2>/dev/null) == 1 ]]; }
# FILE holds N JSON lines or more (cxl monitor's log: its records, flushed
# one by one, and messages of its own that start with a time)
records_at_least() { [[ -f $1 && $(grep -c '^{' "$1") -ge $2 ]]; }

@test "ndctl 81's cxl monitor and cxltier events --drain -j see the same records: every field both show agrees" {
    oracle_ready
    mon=$BATS_TEST_TMPDIR/monitor.jsonl
    $CXL81 monitor -l "$mon" > "$BATS_TEST_TMPDIR/monitor.out" 2>&1 3>&- &
    mpid=$!
    echo "$mpid" >> "$BATS_FILE_TMPDIR/followers"     # (teardown ends it if this test fails)
    wait_for 60 "cxl monitor's instance cxl_monitor recording cxl events" monitor_recording
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"warning\",\"flags\":1,\"dpa\":12288,\"descriptor\":1,\"type\":1,\"transaction-type\":2,\"channel\":3,\"rank\":2,\"device\":7,\"component-id\":\"oracle-comp\"}"
    inject cxl-inject-dram-event "{\"path\":\"$DEV\",\"log\":\"informational\",\"flags\":1,\"dpa\":16384,\"descriptor\":1,\"type\":2,\"transaction-type\":1,\"channel\":2,\"rank\":1,\"nibble-mask\":3,\"bank-group\":1,\"bank\":2,\"row\":9,\"column\":8,\"correction-mask\":[5,6,7,8]}"
    inject cxl-inject-memory-module-event "{\"path\":\"$DEV\",\"log\":\"warning\",\"flags\":1,\"type\":1,\"health-status\":1,\"media-status\":0,\"additional-status\":0,\"life-used\":12,\"temperature\":41,\"dirty-shutdown-count\":2,\"corrected-volatile-error-count\":6,\"corrected-persistent-error-count\":0}"
    wait_for 120 "cxl monitor to log the three records" records_at_least "$mon" 3
    for k in general_media dram memory_module; do events_of "$k" >/dev/null || fail "cxltier saw no $k record"; done
    kill -TERM "$mpid"; wait "$mpid" 2>/dev/null || true   # (INT: ignored by a job started in the background)
    # (cxl monitor leaves its instance behind: it never destroys it)
    [[ ! -d $T/cxl_monitor ]] || rmdir $T/cxl_monitor
    grep '^{' "$mon" > "$mon.json"; mon=$mon.json
    ours=$BATS_TEST_TMPDIR/seen.json
    # every monitor line: the cxltier event of the same tracepoint and device
    # timestamp, each field both have, byte arrays and UUIDs as hex
    run jq -rn --slurpfile mon "$mon" --slurpfile ours "$ours" '
        def hex2: "0123456789abcdef" as $h | $h[(./16|floor):(./16|floor)+1] + $h[(.%16):(.%16)+1];
        def norm: if type == "array" then (map(hex2) | join(""))
                  elif type == "string" and test("^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$") then gsub("-"; "")
                  else . end;
        $mon[] as $m | ($m | del(.system, .event, .timestamp)) as $mf
        | [$ours[0][] | select(.event == $m.event and .fields.hdr_timestamp == $m.hdr_timestamp)] as $hit
        | if ($hit | length) != 1 then "\($m.event) of device time \($m.hdr_timestamp): cxltier has \($hit | length) such records"
          else ($hit[0].fields) as $f
               | ($mf | keys[]) as $k | select($f | has($k))
               | select(($mf[$k] | norm) != ($f[$k] | norm))
               | "\($m.event): \($k): cxltier \($f[$k] | tojson), cxl monitor \($mf[$k] | tojson)" end'
    assert_success
    [[ -z $output ]] || fail "$output"
    # and something was compared: each record shares its fields with cxltier's
    assert_equal "$(jq -s 'length' "$mon")" 3
    n=$(jq -rn --slurpfile mon "$mon" --slurpfile ours "$ours" \
        '[$mon[] as $m | [$ours[0][] | select(.event == $m.event and .fields.hdr_timestamp == $m.hdr_timestamp)][0].fields as $f
          | $m | del(.system, .event, .timestamp) | keys[] | select(. as $k | $f | has($k))] | length')
    (( n >= 40 )) || fail "only $n fields compared"
}

@test "poison: injected over QMP, listed by the kernel, with DPA and HPA" {
    inject cxl-inject-poison "{\"path\":\"$DEV\",\"start\":262144,\"length\":64}"
    echo 1 > $CXL/mem0/trigger_poison_list
    run events_of poison
    assert_success
    e=$(jq -c '[.[] | select(.dpa == 262144)][0]' <<<"$output")
    all_fields cxl_poison <<<"$e"
    assert_equal "$(jq -c '[.trace_type, .source, .dpa_length, (.hpa > 0), .region != null, .poison_flags, .fields.source]' <<<"$e")" \
        '["list","internal",64,true,true,[],2]'
}

@test "overflow: every field, the records the device's log lost, with the log and times" {
    bdf=$(basename "$(readlink -f $CXL/mem0/..)")
    ctl=$(setpci -s "$bdf" CAP_MSIX+2.w)
    # hold the event interrupts (MSI-X function mask): QEMU's log keeps 8 records, the rest overflow
    setpci -s "$bdf" CAP_MSIX+2.w=$(printf %x $(( 0x$ctl | 0x4000 )))
    for i in $(seq 1 11); do
        inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"informational\",\"flags\":0,\"dpa\":$(( 65536 + i * 64 )),\"descriptor\":0,\"type\":0,\"transaction-type\":0}"
    done
    setpci -s "$bdf" CAP_MSIX+2.w="$ctl"      # the pending interrupt fires: the kernel drains the log
    run events_of overflow
    assert_success
    e=$(jq -c '.[0]' <<<"$output")
    all_fields cxl_overflow <<<"$e"
    assert_equal "$(jq -c '[.memdev, .severity, .count, (.first_timestamp > 0), (.last_timestamp >= .first_timestamp), (.first_time | test("Z$"))]' <<<"$e")" \
        '["mem0","informational",3,true,true,true]'
}

@test "--follow prints an event injected while it runs and removes its instance" {
    start_follower
    out=$BATS_TEST_TMPDIR/follow.out
    t0=$EPOCHREALTIME
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"informational\",\"flags\":1,\"dpa\":12288,\"descriptor\":0,\"type\":1,\"transaction-type\":3}"
    wait_for 120 "the follower to print the injected event (dpa 12288)" grep -q '"dpa":12288' "$out"
    ms=$(( (10#${EPOCHREALTIME/./} - 10#${t0/./}) / 1000 ))
    echo "# diagnostic: the event showed after $ms ms (QMP, device interrupt, kernel drain, 100 ms reads)" >&3
    kill -INT "$pid"
    wait_for 60 "the follower to end on SIGINT" exited "$pid"
    run wait "$pid"
    assert_success
    # one compact JSON object per line
    jq -e . "$out" >/dev/null
    [[ $(head -1 "$out") != *$'\n'* ]]
    [[ ! -d $T/$inst ]]
}

@test "--follow | head -1: the follower ends with its reader and removes its instance" {
    mkfifo "$BATS_TEST_TMPDIR/pipe"
    head -1 < "$BATS_TEST_TMPDIR/pipe" > "$BATS_TEST_TMPDIR/head.out" 3>&- &
    hpid=$!
    cxltier events --follow -j > "$BATS_TEST_TMPDIR/pipe" 2> "$BATS_TEST_TMPDIR/follow.err" 3>&- &
    pid=$!
    echo "$pid $hpid" >> "$BATS_FILE_TMPDIR/followers"
    wait_for 60 "the tracefs instance of follower $pid" instance_of "$pid"
    inst=$(instance_of "$pid")
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"informational\",\"flags\":1,\"dpa\":36864,\"descriptor\":0,\"type\":1,\"transaction-type\":3}"
    wait_for 120 "head to print the injected event and exit" exited "$hpid" ||
        fail "follower: $(cat "$BATS_TEST_TMPDIR/follow.err"); shared instance: $(grep -c cxl_general_media $T/cxltier/trace) records"
    wait "$hpid"
    wait_for 60 "the follower to notice its reader is gone" exited "$pid"
    run wait "$pid"
    assert_success
    jq -e '.dpa == 36864' "$BATS_TEST_TMPDIR/head.out"
    [[ ! -d $T/$inst ]] || fail "instance $inst left behind"
    [[ ! -s $BATS_TEST_TMPDIR/follow.err ]] || fail "stderr: $(cat "$BATS_TEST_TMPDIR/follow.err")"
}

@test "--follow: SIGHUP, SIGQUIT and SIGTERM end it and remove its instance" {
    for sig in HUP QUIT TERM; do
        start_follower
        kill -$sig "$pid"
        wait_for 60 "the follower to end on SIG$sig" exited "$pid"
        run wait "$pid"
        assert_success
        [[ ! -d $T/$inst ]] || fail "SIG$sig: instance $inst left behind"
    done
}

@test "--follow killed with SIGKILL: the next run recognises its instance and removes it" {
    start_follower
    kill -9 "$pid"
    wait_for 60 "the follower to die" exited "$pid"
    wait "$pid" || true
    [[ -d $T/$inst ]]      # SIGKILL runs no code: the instance is left
    run --separate-stderr cxltier events --drain -j
    assert_success
    [[ $stderr == *"removed the tracefs instance $inst"* ]]
    [[ ! -d $T/$inst ]]
}

@test "stale instances: only those provably ours and stale are removed" {
    ns=$(readlink /proc/self/ns/pid); ns=${ns//[^0-9]/}
    start=$(cut -d' ' -f22 /proc/$$/stat)
    sh -c 'exit 0' & dead=$!; wait "$dead"
    keep=("cxltier-follow-$$-$start-$ns"            # its owner (this shell) is alive
          "cxltier-follow-$dead-1-$((ns + 1))"      # another pid namespace: cannot tell
          "cxltier-follow-$dead"                    # no start time recorded
          "cxltier-test-$dead-1-$ns-x")             # not one of our names
    gone=("cxltier-follow-$dead-1-$ns"              # owner dead
          "cxltier-poison-$$-1-$ns")                # pid alive, but started at another time
    for n in "${keep[@]}" "${gone[@]}"; do mkdir "$T/$n"; done
    run --separate-stderr cxltier events --drain -j
    bad=
    for n in "${keep[@]}"; do
        [[ -d $T/$n ]] && rmdir "$T/$n" || bad+=" removed:$n"
    done
    for n in "${gone[@]}"; do
        [[ ! -d $T/$n ]] || { rmdir "$T/$n"; bad+=" kept:$n"; }
    done
    [[ -z $bad ]] || fail "wrong:$bad"
    assert_success
}

@test "--follow: an instance removed under it ends it with an error" {
    start_follower
    wait_for 60 "rmdir of $inst (busy while it reads)" rmdir "$T/$inst"
    wait_for 60 "the follower to notice" exited "$pid"
    run wait "$pid"
    assert_failure 1
    run cat "$BATS_TEST_TMPDIR/follow.err"    # (shown when the message is not there)
    assert_output --partial "tracefs instance $inst disappeared"
}

@test "poison: severity failure and the kernel's time, so --severity and --since keep it" {
    inject cxl-inject-poison "{\"path\":\"$DEV\",\"start\":327680,\"length\":64}"
    echo 1 > $CXL/mem0/trigger_poison_list    # the kernel traces the list before the write returns
    run --separate-stderr cxltier events --drain -j --type poison --severity failure,fatal --since 10m
    assert_success
    e=$(jq -c '[.events[] | select(.dpa == 327680)][0]' <<<"$output")
    now=$(( ${EPOCHREALTIME/./} * 1000 ))
    assert_equal "$(jq -c --argjson now "$now" '[.severity, .time, (.trace_time | test("^20[0-9-]+T")), (.trace_timestamp <= $now)]' <<<"$e")" \
        '["failure",null,true,true]'
    # the table's TIME: the kernel's when the device gave none
    echo 1 > $CXL/mem0/trigger_poison_list
    run cxltier events --drain --type poison -o TIME,KIND,DPA
    assert_success
    assert_line --regexp '^20[0-9-]+T[0-9:.]+Z +poison +0x50000$'
}

@test "filters: --type and --severity" {
    # a follower sees every event the moment the shared instance gets it
    start_follower
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"warning\",\"flags\":1,\"dpa\":16384,\"descriptor\":0,\"type\":0,\"transaction-type\":1}"
    inject cxl-inject-dram-event "{\"path\":\"$DEV\",\"log\":\"fatal\",\"flags\":1,\"dpa\":20480,\"descriptor\":0,\"type\":0,\"transaction-type\":1}"
    wait_for 120 "both injected events traced (dpa 16384 and 20480)" \
        jq -se 'any(.[]; .dpa == 16384) and any(.[]; .dpa == 20480)' "$BATS_TEST_TMPDIR/follow.out"
    run --separate-stderr cxltier events --drain -j --type dram --severity fatal
    assert_success
    assert_equal "$(jq -c '[.events[] | [.kind, .severity]] | unique' <<<"$output")" '[["dram","fatal"]]'
    (( $(jq '.kept' <<<"$output") >= 1 )) || fail "the hidden General Media record not counted in .kept: $output"
    assert_equal "$(jq '[.events[] | select(.dpa == 20480)] | length' <<<"$output")" 1
    # what the filters hid was read from the buffer (reading consumes) and is
    # kept: the next run shows it; what was shown is not shown again
    [[ -f /run/cxltier/events.kept && $(stat -c %a /run/cxltier/events.kept) == 600 ]]
    run --separate-stderr cxltier events --drain -j
    assert_success
    assert_equal "$(jq -c '[.events[] | select(.dpa == 16384) | [.kind, .severity]]' <<<"$output")" '[["general_media","warning"]]'
    assert_equal "$(jq '[.events[] | select(.dpa == 20480)] | length' <<<"$output")" 0
    [[ ! -e /run/cxltier/events.kept ]]
}

@test "--since and a memdev filter keep what they hide, across runs, until a run shows it" {
    # the follower's instance gets each record when the shared one does
    start_follower
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"informational\",\"flags\":1,\"dpa\":24576,\"descriptor\":0,\"type\":0,\"transaction-type\":1}"
    wait_for 120 "the injected event traced (dpa 24576)" jq -se 'any(.[]; .dpa == 24576)' "$BATS_TEST_TMPDIR/follow.out"
    # a run for another memdev, then one for events newer than an hour from
    # now: each reads the record and hides it
    run --separate-stderr cxltier events --drain -j mem9
    assert_success
    assert_equal "$(jq '.events | length' <<<"$output")" 0
    run --separate-stderr cxltier events --drain -j --since @$(( ${EPOCHREALTIME%.*} + 3600 ))
    assert_success
    assert_equal "$(jq '.events | length' <<<"$output")" 0
    run --separate-stderr cxltier events --drain -j mem0
    assert_success
    assert_equal "$(jq '[.events[] | select(.dpa == 24576)] | length' <<<"$output")" 1
    [[ ! -e /run/cxltier/events.kept ]]
}

@test "a store that cannot be written: this run's hidden records counted as unkept (exit 64), the old store left as it was" {
    # /run/cxltier on a small tmpfs, filled after the first store: the next
    # store's write fails (ENOSPC)
    mkdir -p -m 0700 /run/cxltier
    mount -t tmpfs -o size=64k,mode=0700 cxltier-test /run/cxltier
    cxltier events --drain > /dev/null    # what earlier tests left in the shared instance
    start_follower
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"informational\",\"flags\":1,\"dpa\":40960,\"descriptor\":0,\"type\":0,\"transaction-type\":1}"
    wait_for 120 "the first injected event traced (dpa 40960)" jq -se 'any(.[]; .dpa == 40960)' "$BATS_TEST_TMPDIR/follow.out"
    run --separate-stderr cxltier events --drain -j --type dram
    assert_success
    assert_equal "$(jq -c '[.kept, .unkept]' <<<"$output")" '[1,null]'
    cp /run/cxltier/events.kept "$BATS_TEST_TMPDIR/store.before"
    dd if=/dev/zero of=/run/cxltier/fill bs=4k 2>/dev/null || true
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"informational\",\"flags\":1,\"dpa\":45056,\"descriptor\":0,\"type\":0,\"transaction-type\":1}"
    wait_for 120 "the second injected event traced (dpa 45056)" jq -se 'any(.[]; .dpa == 45056)' "$BATS_TEST_TMPDIR/follow.out"
    run --separate-stderr cxltier events --drain -j --type dram
    assert_failure 64
    # the second record is lost; the first is still kept, in the old store
    assert_equal "$(jq -c '[.kept, .unkept, (.events | length)]' <<<"$output")" '[1,1,0]'
    [[ $stderr == *"1 records this run read and did not show could not be kept, and are lost"*"No space left"* ]] ||
        fail "no message naming the loss and its cause: $stderr"
    [[ $stderr == *"events.kept was left as it was"* ]] || fail "the old store not named: $stderr"
    cmp /run/cxltier/events.kept "$BATS_TEST_TMPDIR/store.before"
    rm /run/cxltier/fill
    run --separate-stderr cxltier events --drain -j
    umount /run/cxltier
    assert_equal "$(jq -c '[.events[] | select(.dpa == 40960 or .dpa == 45056) | .dpa]' <<<"$output")" '[40960]'
}

@test "the shared instance found not recording (cxl events off) is turned on again, with a warning" {
    cxltier events --drain > /dev/null 2>&1
    echo 0 > $T/cxltier/events/cxl/enable
    run --separate-stderr cxltier events --drain -j
    assert_success
    [[ $stderr == *"was not recording"*"turned it on again"* ]]
    assert_equal "$(cat $T/cxltier/events/cxl/enable)" 1
    # and it records again
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"warning\",\"flags\":1,\"dpa\":28672,\"descriptor\":0,\"type\":0,\"transaction-type\":1}"
    wait_for 120 "the event injected after the re-enable (dpa 28672)" seen_dpa 28672
    run --separate-stderr cxltier events --drain -j
    [[ $stderr != *"was not recording"* ]]
}

seen_dpa() {
    cxltier events --drain -j >> "$BATS_TEST_TMPDIR/all.json" 2>/dev/null &&
        jq -se --argjson d "$1" 'any(.[].events[]; .dpa == $d)' "$BATS_TEST_TMPDIR/all.json" >/dev/null
}

@test "the shared instance gets 512 KiB of ring buffer per CPU when cxltier creates it; a size set since is kept" {
    cxltier events --stop > /dev/null 2>&1
    run --separate-stderr cxltier events --drain -j
    assert_success
    # in whole ring-buffer pages (4080 bytes of data each)
    kb=$(cat $T/cxltier/buffer_size_kb)
    (( kb >= 512 && kb < 528 )) || fail "buffer_size_kb of the new shared instance: $kb (the kernel's default is 1408)"
    echo 1024 > $T/cxltier/buffer_size_kb
    kb=$(cat $T/cxltier/buffer_size_kb)    # the kernel rounds to whole pages
    (( kb >= 1024 && kb < 1040 )) || fail "buffer_size_kb after writing 1024: $kb"
    run --separate-stderr cxltier events --drain -j
    assert_success
    assert_equal "$(cat $T/cxltier/buffer_size_kb)" "$kb"
}

@test "the global trace buffer and other instances are left alone" {
    assert_equal "$(cat /sys/kernel/tracing/events/cxl/enable)" 0
    run cxltier events --stop
    assert_success
    ! ls /sys/kernel/tracing/instances | grep -q '^cxltier$'
}


# records of DPA d in the JSON of $output
at_dpa() { jq --argjson d "$1" '[.events[] | select(.dpa == $d)] | length' <<<"$output"; }

@test "plain events: makes no instance, and what the instance holds is read without being consumed" {
    cxltier events --stop > /dev/null 2>&1
    ls $T > "$BATS_TEST_TMPDIR/instances.before"
    run --separate-stderr cxltier events --no-store -j
    assert_success
    assert_equal "$(jq -c . <<<"$output")" '{"events":[],"kept":0}'
    [[ $stderr == *"nothing collected: no 'cxltier' tracefs instance"*"cxltier events --drain"* ]] || fail "$stderr"
    ls $T | diff "$BATS_TEST_TMPDIR/instances.before" - || fail "a plain run changed the instances"
    # --drain makes it, and says so with its size
    run --separate-stderr cxltier events --drain --no-store -j
    assert_success
    [[ $stderr == *"made the tracefs instance cxltier, 512 KiB of ring buffer a CPU"* ]] || fail "$stderr"
    gm_at 49152
    wait_for 120 "the shared instance to hold the record of dpa 49152" grep -q 'dpa=c000 ' $T/cxltier/trace
    ls $T > "$BATS_TEST_TMPDIR/instances.before"
    # read twice, and by a filtered run between: there each time
    for opts in "" "--type dram" ""; do
        run --separate-stderr cxltier events --no-store -j $opts
        assert_success
        assert_equal "$(at_dpa 49152)" "$([[ -z $opts ]] && echo 1 || echo 0)"
        assert_equal "$(jq '.kept' <<<"$output")" "$([[ -z $opts ]] && echo 0 || echo 1)"
    done
    ls $T | diff "$BATS_TEST_TMPDIR/instances.before" - || fail "a plain run changed the instances"
    # the consuming read shows it once, and then it is gone
    run --separate-stderr cxltier events --drain --no-store -j
    assert_equal "$(at_dpa 49152)" 1
    run --separate-stderr cxltier events --no-store -j
    assert_equal "$(at_dpa 49152)" 0
    # an instance not recording: a plain run says so and leaves it; --drain turns it on
    echo 0 > $T/cxltier/events/cxl/enable
    run --separate-stderr cxltier events --no-store -j
    assert_success
    [[ $stderr == *"is not recording"*"left as it is"* ]] || fail "$stderr"
    assert_equal "$(cat $T/cxltier/events/cxl/enable)" 0
    cxltier events --drain --no-store > /dev/null 2>&1
    assert_equal "$(cat $T/cxltier/events/cxl/enable)" 1
}

@test "the follower's store: each record once with every field, through a SIGKILL and a restart; --history, --summary" {
    S=$BATS_TEST_TMPDIR/store DB=$BATS_TEST_TMPDIR/store/events.db
    mkdir -m 700 "$S"
    cxltier events --drain >/dev/null 2>&1   # (what the shared instance held before this test: shown, consumed)
    start_follower --store --store-path "$DB"
    out=$BATS_TEST_TMPDIR/follow.out
    for d in 20480 24576 28672; do gm_at $d; done
    wait_for 120 "the follower to print the three records (dpa 20480, 24576, 28672)" \
        bash -c "grep -q '\"dpa\":28672' '$out' && grep -q '\"dpa\":20480' '$out'"
    # committed after each read of the trace buffer; a reader never blocks it
    wait_for 60 "the store to hold the three" stored_at_least 3 "$DB"
    kill -KILL "$pid"
    wait_for 60 "the follower to die of SIGKILL" exited "$pid"
    run wait "$pid"
    assert_failure 137
    cp "$out" "$BATS_TEST_TMPDIR/first.out"
    # while no follower runs, two more: the shared instance keeps them
    inject cxl-inject-dram-event "{\"path\":\"$DEV\",\"log\":\"warning\",\"flags\":1,\"dpa\":32768,\"descriptor\":1,\"type\":3,\"transaction-type\":2,\"channel\":1,\"rank\":0,\"nibble-mask\":1,\"bank-group\":2,\"bank\":3,\"row\":4,\"column\":5,\"correction-mask\":[1,2,3,4]}"
    gm_at 36864
    wait_for 120 "the shared instance to hold the records of dpa 32768 and 36864" \
        bash -c "grep -q 'dpa=8000 ' $T/cxltier/trace && grep -q 'dpa=9000 ' $T/cxltier/trace"
    # the next follower: the dead one's instance removed, the shared one drained into the store
    start_follower --store --store-path "$DB"
    wait_for 60 "the new follower to say what it drained" grep -q 'records that arrived while no follower ran' \
        "$BATS_TEST_TMPDIR/follow.err"
    assert_equal "$(grep -c 'records that arrived while no follower ran' "$BATS_TEST_TMPDIR/follow.err")" 1
    grep -q "cxltier events: 2 records that arrived while no follower ran stored from the 'cxltier' tracefs instance" \
        "$BATS_TEST_TMPDIR/follow.err" || fail "$(cat "$BATS_TEST_TMPDIR/follow.err")"
    gm_at 40960
    wait_for 120 "the follower to print the record of dpa 40960" grep -q '"dpa":40960' "$out"
    kill -TERM "$pid"
    wait_for 60 "the follower to end on SIGTERM" exited "$pid"
    run wait "$pid"
    assert_success
    run cxltier events --history --store-path "$DB" -j
    assert_success
    echo "$output" > "$BATS_TEST_TMPDIR/history.json"
    # each record once, oldest first
    assert_equal "$(jq -c '[.events[].dpa]' <<<"$output")" '[20480,24576,28672,32768,36864,40960]'
    assert_equal "$(jq -c '.store | [.shown, .records, .pruned]' <<<"$output")" '[6,6,0]'
    jq -c '.events[] | select(.dpa == 32768)' <<<"$output" | all_fields cxl_dram
    jq -c '.events[] | select(.dpa == 20480)' <<<"$output" | all_fields cxl_general_media
    # what the followers printed live is what the store gives back, field for
    # field, with what the store says of it: its device, and when it arrived
    # (the kernel's emit time)
    for d in 20480 24576 28672 40960; do
        live=$(cat "$BATS_TEST_TMPDIR/first.out" "$out" | jq -cS "select(.dpa == $d)")
        stored=$(jq -cS ".events[] | select(.dpa == $d)" "$BATS_TEST_TMPDIR/history.json")
        assert_equal "$(jq -cS 'del(.identity, .received, .received_timestamp)' <<<"$stored")" "$live"
        assert_equal "$(jq -c '[(.identity | test("^serial:0x[0-9a-f]+$")), .received == .trace_time]' <<<"$stored")" '[true,true]'
    done
    run cxltier events --history --summary --store-path "$DB" -j
    assert_success
    assert_equal "$(jq -c '.summary | [.records, .by_kind.general_media, .by_kind.dram, .by_severity.informational, .by_severity.warning, .corrected_pages_total]' <<<"$output")" \
        '[6,5,1,5,1,5]'
    # a run without --history: the store's six, nothing live left to show twice
    run cxltier events --store-path "$DB" -j
    assert_success
    assert_equal "$(jq -c '[.events[].dpa]' <<<"$output")" '[20480,24576,28672,32768,36864,40960]'
    # the counters metrics exports
    run cxltier metrics --store-path "$DB"
    assert_success
    assert_line --regexp '^cxltier_events_total\{memdev="mem0"(,serial="0x[0-9a-f]+")?,kind="general_media",severity="informational"\} 5$'
}
