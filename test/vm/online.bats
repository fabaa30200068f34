#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-asan-tests: online REGION: every block|--dry-run changes nothing|memdev, node, block and range targets|--rollback returns the blocks|online --convert MEMDEV|a rollback that cannot return -- the plan, the state writes, rollback and its failure, conversion (the whole file runs on the plain build; the host ASan tier runs every online test on the fixture trees)
# `cxltier online` / `offline` against the real kernel's memory hotplug.
# The tests run in order and share the region; each starts from all-offline.
load helper

setup_file() {
    r=$(ensure_region)
    echo "$r" > "$BATS_FILE_TMPDIR/region"
}

teardown_file() {
    vm_forget_dax_ids
}

setup() {
    R=$(cat "$BATS_FILE_TMPDIR/region")
    D=$(vm_dax_of "$R")
    offline_all "$D"
}

# Before a test puts a block into ZONE_NORMAL: the first block online movable,
# so that the node already has memory. When a node gets its first memory the
# kernel starts its kswapdN and kcompactdN on it (task_struct from a node-local
# slab, stacks node-local); 7.3 then put them in the ZONE_NORMAL block (an
# order-3 slab page, "unmovable page" on offline), and they end only when the
# node loses its last memory: that block could never be offlined again.
# Onlined into ZONE_MOVABLE first, the node takes no kernel allocations.
# a test that changes auto_online_blocks sets AUTO to what was there
teardown() {
    [[ -z ${AUTO:-} ]] || echo "$AUTO" > $MEMSYS/auto_online_blocks
}

anchor_movable() {
    A=$(vm_blocks_of "$D" | head -1)
    echo online_movable > $MEMSYS/$A/state
}

@test "online REGION: every block online with valid_zones Movable, exit 0" {
    run cxltier online "$R"
    assert_success
    for b in $(vm_blocks_of "$D"); do
        assert_equal "$(cat $MEMSYS/$b/state)" online
        assert_equal "$(cat $MEMSYS/$b/valid_zones)" Movable
    done
}

@test "online REGION -v: each block said as it is onlined (chmem -v), the table one range a state" {
    local bs n first
    bs=$((16#$(cat $MEMSYS/block_size_bytes)))
    n=$(vm_blocks_of "$D" | wc -l)
    first=$(vm_blocks_of "$D" | head -1)
    first=${first#memory}
    run --separate-stderr cxltier online "$R" -v
    assert_success
    [[ $(grep -c '^cxltier online: memory block [0-9]* (0x[0-9a-f]*-0x[0-9a-f]*) onlined movable$' <<<"$stderr") == "$n" ]] ||
        fail "not $n lines a block: $stderr"
    [[ $stderr == *"memory block $first ($(printf '0x%x-0x%x' $((first * bs)) $(((first + 1) * bs - 1)))) onlined movable"* ]] ||
        fail "memory$first: $stderr"
    [[ $stderr != *$'\r'* ]] || fail "a progress line with stderr not a terminal: $stderr"
    # consecutive blocks, all done alike: one row
    [[ $(sed -n 2p <<<"$output") =~ ^0x[0-9a-f]+-0x[0-9a-f]+\ +[0-9]+-[0-9]+\ .*offline-\>online\ +Movable\ +done ]] &&
        [[ $(wc -l <<<"$output") == 2 ]] || fail "$output"
}

@test "offline REGION: every block offline, exit 0" {
    vm_online_movable "$D"
    run cxltier offline "$R"
    assert_success
    for b in $(vm_blocks_of "$D"); do assert_equal "$(cat $MEMSYS/$b/state)" offline; done
}

@test "online then online again: the second run changes nothing and says so" {
    cxltier online "$D"
    run --separate-stderr cxltier online "$D" -j
    assert_success
    [[ $(jq -r '[.blocks[].result] | unique | join(",")' <<<"$output") == unchanged ]]
}

@test "--dry-run changes nothing (state compared before and after) and shows the plan" {
    before=$(blocks_state "$D")
    run --separate-stderr cxltier online "$R" --dry-run -j
    assert_success
    assert_equal "$(blocks_state "$D")" "$before"
    [[ $(jq -r '[.blocks[] | .action + "/" + .result] | unique | join(",")' <<<"$output") == online_movable/planned ]]
    [[ $stderr == *"nothing was changed"* ]]
    vm_online_movable "$D"
    before=$(blocks_state "$D")
    run cxltier offline "$R" --dry-run
    assert_success
    assert_equal "$(blocks_state "$D")" "$before"
}

@test "memdev, node, block and range targets resolve to the same blocks" {
    a=$(cxltier online mem0 --dry-run -j | jq -c '[.blocks[].id]')
    b=$(cxltier online "$D" --dry-run -j | jq -c '[.blocks[].id]')
    first=$(vm_blocks_of "$D" | head -1); last=$(vm_blocks_of "$D" | tail -1)
    c=$(cxltier online "${first}-${last#memory}" --dry-run -j | jq -c '[.blocks[].id]')
    node=$(cat /sys/bus/dax/devices/$D/target_node)
    d=$(cxltier online "node$node" --dry-run -j | jq -c '[.blocks[].id] | sort')
    e=$(cxltier online all --dry-run -j | jq -c '[.blocks[].id]')
    assert_equal "$a" "$b"; assert_equal "$a" "$c"; assert_equal "$a" "$d"; assert_equal "$a" "$e"
    # the memdevs behind them, also when only the dax device was loaded (libdaxctl)
    assert_equal "$(cxltier online "$D" --dry-run -j | jq -c '[.memdevs[] | [.memdev, .region, .interleave_ways]]')" \
        "[[\"mem0\",\"$R\",1]]"
}

@test "a block someone put in ZONE_NORMAL: named, the rest onlined, exit 64" {
    anchor_movable
    b=$(vm_blocks_of "$D" | sed -n 3p)
    echo online_kernel > $MEMSYS/$b/state
    run --separate-stderr cxltier online "$R"
    assert_failure 64
    [[ $stderr == *"$b ($D): refused: online in ZONE_NORMAL"* ]]
    for x in $(vm_blocks_of "$D"); do
        [[ $x == "$b" ]] && continue
        assert_equal "$(cat $MEMSYS/$x/valid_zones)" Movable
    done
}

@test "--reonline moves a ZONE_NORMAL block to ZONE_MOVABLE" {
    anchor_movable
    b=$(vm_blocks_of "$D" | sed -n 3p)
    echo online_kernel > $MEMSYS/$b/state
    run cxltier online "$R" --reonline
    assert_success
    assert_equal "$(cat $MEMSYS/$b/valid_zones)" Movable
}

@test "--rollback returns the blocks that changed when one fails: exit 1, all offline again" {
    anchor_movable
    b=$(vm_blocks_of "$D" | sed -n 5p)
    echo online_kernel > $MEMSYS/$b/state
    run --separate-stderr cxltier online "$R" --rollback -j
    assert_failure 1
    # the anchor was online already: unchanged, not rolled back
    [[ $(jq '[.blocks[] | select(.result == "rolled_back")] | length' <<<"$output") == 6 ]]
    assert_equal "$(cat $MEMSYS/$A/state)" online
    for x in $(vm_blocks_of "$D"); do
        [[ $x == "$b" || $x == "$A" ]] && continue
        assert_equal "$(cat $MEMSYS/$x/state)" offline
    done
}

@test "--zone normal needs --force, and then warns" {
    run cxltier online "$R" --zone normal
    assert_failure 2
    assert_output --partial "--force"
    anchor_movable    # the other blocks by range
    second=$(vm_blocks_of "$D" | sed -n 2p); last=$(vm_blocks_of "$D" | tail -1)
    run --separate-stderr cxltier online "${second}-${last#memory}" --zone normal --force
    assert_success
    [[ $stderr == *"never be removed"* ]]
    for x in $(vm_blocks_of "$D" | tail -n +2); do assert_equal "$(cat $MEMSYS/$x/valid_zones)" Normal; done
}

@test "two concurrent runs never interleave: both succeed, every block movable" {
    cxltier online "$R" > /tmp/a.out 2>&1 & a=$!
    cxltier online "$R" > /tmp/b.out 2>&1 & b=$!
    ra=0; rb=0
    wait $a || ra=$?
    wait $b || rb=$?
    cat /tmp/a.out /tmp/b.out >&3
    assert_equal "$ra/$rb" 0/0
    for x in $(vm_blocks_of "$D"); do assert_equal "$(cat $MEMSYS/$x/valid_zones)" Movable; done
    # the second waited for the first: between them every block was changed once
    changed=$(grep -ho '[0-9]* blocks changed' /tmp/a.out /tmp/b.out | awk '{s += $1} END {print s}')
    assert_equal "$changed" 8
}

@test "a held lock: a run waits, then gives up naming the holder" {
    cxltier offline "$R" >/dev/null 2>&1    # makes /run/cxltier and its lock
    lock=/run/cxltier/memory-blocks.lock
    ( exec 9<>$lock 3>&-; flock 9; printf '%11d\n' 4242 >&9; echo held > /tmp/held; exec sleep 30 ) &
    holder=$!
    wait_for 10 "the test's flock on $lock" test -s /tmp/held
    run cxltier online "$R" --timeout 1
    kill $holder; wait $holder 2>/dev/null || true; rm -f /tmp/held
    assert_failure 1
    assert_output --partial "another cxltier (pid 4242)"
    assert_equal "$(stat -c '%U %a' /run/cxltier) $(stat -c '%U %a %h' $lock)" "root 700 root 600 1"
}

@test "auto_online_blocks=online is reported before onlining" {
    echo online > $MEMSYS/auto_online_blocks
    run cxltier online "$R" --dry-run
    echo offline > $MEMSYS/auto_online_blocks
    assert_output --partial "auto_online_blocks=online"
}

@test "unknown targets: exit 1 or 2 with the name" {
    run cxltier online region9
    assert_failure 1
    assert_output --partial "no region 'region9'"
    run cxltier online bogus
    assert_failure 2
    run cxltier offline memory99999
    assert_failure 1
    assert_output --partial "memory99999 does not exist"
}

@test "online --convert MEMDEV: the device switches to system-ram, the memdev is found again, every block movable" {
    vm_to_devdax "$D"
    [[ $(basename "$(readlink /sys/bus/dax/devices/$D/driver)") == device_dax ]]
    # a dry run converts nothing
    run --separate-stderr cxltier online mem0 --convert --dry-run
    assert_success
    [[ $stderr == *"$D would be switched to system-ram mode"* ]]
    [[ $(basename "$(readlink /sys/bus/dax/devices/$D/driver)") == device_dax ]]
    run --separate-stderr cxltier online mem0 --convert -j
    assert_success
    [[ $stderr == *"$D is now in system-ram mode"* ]]
    [[ $(basename "$(readlink /sys/bus/dax/devices/$D/driver)") == kmem ]]
    [[ $(jq '[.blocks[] | select(.result == "done")] | length' <<<"$output") == $(vm_blocks_of "$D" | wc -l) ]]
    for b in $(vm_blocks_of "$D"); do assert_equal "$(cat $MEMSYS/$b/valid_zones)" Movable; done
}

@test "online --convert with the kernel onlining new memory itself: refused without --force; with it held off, every block movable, the setting put back" {
    vm_to_devdax "$D"
    [[ $(basename "$(readlink /sys/bus/dax/devices/$D/driver)") == device_dax ]]
    AUTO=$(cat $MEMSYS/auto_online_blocks)
    echo online > $MEMSYS/auto_online_blocks
    run --separate-stderr cxltier online mem0 --convert
    assert_failure 1
    [[ $stderr == *"auto_online_blocks is 'online'"*"add --force"* ]]
    [[ $(basename "$(readlink /sys/bus/dax/devices/$D/driver)") == device_dax ]]
    run --separate-stderr cxltier online mem0 --convert --force -j
    echo "$stderr" >&3
    assert_success
    [[ $stderr == *"auto_online_blocks=online) held off while $D switched, then set back"* ]]
    [[ $(basename "$(readlink /sys/bus/dax/devices/$D/driver)") == kmem ]]
    for b in $(vm_blocks_of "$D"); do
        assert_equal "$b $(cat $MEMSYS/$b/state) $(cat $MEMSYS/$b/valid_zones)" "$b online Movable"
    done
    assert_equal "$(cat $MEMSYS/auto_online_blocks)" online
    [[ ! -e /run/cxltier/auto-online.held ]]
}

@test "online --convert --force with kmem not loaded and the kernel onlining: held off before kmem loads, every block movable" {
    # unbound from kmem (its blocks are offline: kmem removes them)
    echo "$D" > /sys/bus/dax/drivers/kmem/unbind
    [[ ! -e /sys/bus/dax/devices/$D/driver ]]
    rmmod kmem 2>/dev/null || skip "kmem cannot be unloaded here (built in, or another device holds it)"
    AUTO=$(cat $MEMSYS/auto_online_blocks)
    echo online > $MEMSYS/auto_online_blocks
    run --separate-stderr cxltier online "$D" --convert --force -j
    [[ -d /sys/module/kmem ]] || modprobe kmem
    echo "$stderr" >&3
    assert_success
    [[ $stderr == *"loaded the kmem module"* ]]
    [[ $(basename "$(readlink /sys/bus/dax/devices/$D/driver)") == kmem ]]
    for b in $(vm_blocks_of "$D"); do
        assert_equal "$b $(cat $MEMSYS/$b/state) $(cat $MEMSYS/$b/valid_zones)" "$b online Movable"
    done
    assert_equal "$(cat $MEMSYS/auto_online_blocks)" online
    ! dmesg | grep -q "cannot be hotremoved"
}

@test "udev: the dax device's kmem bind is tagged for cxltier hotplug (systemd not asked); its memory blocks are not" {
    command -v udevadm >/dev/null || fail "no udevadm in the guest"
    [[ -f /usr/lib/udev/rules.d/90-cxltier.rules ]] || fail "the rule is not installed in the guest"
    dev=$(readlink -f "/sys/bus/dax/devices/$D"); dev=${dev#/sys}
    run udevadm test --action=bind "$dev"
    assert_success
    assert_output --regexp "TAGS=.*:cxltier:"
    refute_output --regexp "SYSTEMD_WANTS=|CURRENT_TAGS=.*:systemd:"
    rules_parsed_clean 90-cxltier.rules   # (a complaint is "FILE:LINE ...", with status 0)
    run udevadm test --action=add "$dev"            # coldplug: bound already
    assert_success
    assert_output --regexp "TAGS=.*:cxltier:"
    for b in $(vm_blocks_of "$D"); do           # offline, as hot-added
        run udevadm test --action=add "/devices/system/memory/$b"
        refute_output --regexp 'SYSTEMD_WANTS=.*cxltier-hotplug'
        refute_output --regexp 'TAGS=.*:cxltier:'
    done
}

@test "a busy block (pinned pages): --rollback undoes the rest (exit 1); without it the others go offline (exit 64)" {
    # last in this file: migrating pages off the emulated CXL memory is slow
    vm_online_movable "$D"
    node=$(cat /sys/bus/dax/devices/$D/target_node)
    start_pinner "$node"
    run --separate-stderr cxltier offline "$R" --timeout 4 --rollback -j
    rb_status=$status rb_out=$output
    start=$(date +%s)
    run --separate-stderr cxltier offline "$R" --timeout 4 -j
    kill "$PIN_PID"; wait "$PIN_PID" 2>/dev/null || true
    # with --rollback: nothing changed in the end
    assert_equal "$rb_status" 1
    [[ $(jq '[.blocks[] | select(.result == "rolled_back")] | length' <<<"$rb_out") -ge 1 ]]
    # without: the busy block named, the others offline
    assert_failure 64
    (( $(date +%s) - start < 30 ))
    [[ $(jq '[.blocks[] | select(.result == "failed")] | length' <<<"$output") -ge 1 ]]
    [[ $(jq '[.blocks[] | select(.result == "done")] | length' <<<"$output") -ge 1 ]]
    [[ $stderr == *"still busy when its time ran out (--timeout)"* ]]
    [[ $stderr == *"memory left partly offlined"* ]]
}

@test "a rollback that cannot return a block: rollback_failed, named, exit 64, never 'nothing changed'" {
    # blocks A1 A2 go offline, then cxltier is stopped while the kernel tries
    # the pinned block P (its write ends with EINTR); meanwhile someone onlines
    # A1 into ZONE_NORMAL. The rollback returns A2, and cannot return A1.
    vm_online_movable "$D"
    node=$(cat /sys/bus/dax/devices/$D/target_node)
    start_pinner "$node"
    P=${PINNED%% *}
    [[ $P == memory* ]] || fail "pin-pages could not tell its blocks: $PINNED"
    free=()
    for b in $(vm_blocks_of "$D"); do [[ " $PINNED " == *" $b "* ]] || free+=("$b"); done
    A1=${free[0]} A2=${free[1]}
    cxltier offline "$A1" "$A2" "$P" --rollback --timeout 60 -j > /tmp/rb.json 2> /tmp/rb.err 3>&- &
    pid=$!
    wait_for 120 "$P going-offline (cxltier inside its write)" grep -qx going-offline "$MEMSYS/$P/state"
    kill -STOP $pid
    wait_for 60 "cxltier stopped and $P back online" \
        bash -c "[[ \$(awk '{print \$3}' /proc/$pid/stat) == T && \$(cat $MEMSYS/$P/state) == online ]]"
    echo online_kernel > "$MEMSYS/$A1/state"
    kill -CONT $pid
    rc=0; wait $pid || rc=$?
    kill "$PIN_PID"; wait "$PIN_PID" 2>/dev/null || true
    cat /tmp/rb.err >&3
    echo offline > "$MEMSYS/$A1/state" || true
    assert_equal "$rc" 64
    assert_equal "$(jq -r --arg b "$A1" '.blocks[] | select(.block == $b) | .result' /tmp/rb.json)" rollback_failed
    assert_equal "$(jq -r --arg b "$A2" '.blocks[] | select(.block == $b) | .result' /tmp/rb.json)" rolled_back
    grep -q "$A1 ($D): rollback_failed: changed, then the rollback to online_movable failed" /tmp/rb.err
    grep -q "rolled back 1 of the 2 that had changed" /tmp/rb.err
    ! grep -q "nothing changed" /tmp/rb.err
}
