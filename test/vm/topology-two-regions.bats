#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: two-regions
# Two Type-3 devices and two fixed memory windows: a region in each window,
# both created and onlined, side by side.
load topology

@test "two memdevs, two RAM windows over the same host bridge" {
    assert_equal "$(topo_memdevs)" "mem0 mem1"
    topo_endpoints_ready mem0 mem1
    hb=$(vm_host_bridge_id "$(vm_host_bridge_of mem0)")
    for d in decoder0.0 decoder0.1; do
        assert_equal "$(cat $CXL/$d/target_list)" "$hb"
        assert_equal "$(cat $CXL/$d/cap_ram)" 1
    done
}

@test "a region in each window, both committed and onlined movable" {
    r0=$(vm_create_ram_region -r decoder0.0 mem0)
    r1=$(vm_create_ram_region -r decoder0.1 mem1)
    echo "$r0 $r1" > "$BATS_FILE_TMPDIR/regions"
    [[ $r0 != "$r1" ]]
    [[ -e $CXL/decoder0.0/$r0 ]]
    [[ -e $CXL/decoder0.1/$r1 ]]
    topo_region_online "$r0" mem0
    topo_region_online "$r1" mem1
    n0=$(cat /sys/bus/dax/devices/$(vm_dax_of "$r0")/target_node)
    n1=$(cat /sys/bus/dax/devices/$(vm_dax_of "$r1")/target_node)
    echo "# $r0 on node $n0, $r1 on node $n1" >&3
}

@test "cxltier list shows each region under its own memdev" {
    read -r r0 r1 < "$BATS_FILE_TMPDIR/regions"
    topo_list_shows "$r0" mem0
    topo_list_shows "$r1" mem1
}

@test "ndctl 81 agrees: the memdevs and each region in its own window" {
    topo_oracle
}

# A memory block's state write waits while another writer holds the
# kernel's device_hotplug_lock: lock_device_hotplug_sysfs() answers with
# restart_syscall(), a restart no signal handler stops. The other writer here
# offlines a pinned block of the other region (it holds the lock until it is
# killed); cxltier offlines a pinned block of the first (offline_pages then
# migrates until a signal is pending).
teardown() {
    local p
    for p in ${CX_PID:-}; do kill -KILL "$p" 2>/dev/null || true; done
    for p in ${W_PID:-} ${P0_PID:-} ${P1_PID:-} ${CX_PID:-}; do
        kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true
    done
}

teardown_file() {
    vm_forget_dax_ids
}

# has file $1 at least $2 lines?
has_lines() { (( $(wc -l < "$1") >= $2 )); }

# pin NODE NAME: pin-pages bound to NODE in the background (in the test's
# own shell: teardown ends it); its pid in ${NAME}_PID, once it pinned its
# pages the first block they are in in ${NAME}_BLOCK
pin() {
    local f=$BATS_TEST_TMPDIR/$2 b
    numactl --membind="$1" pin-pages > "$f" 3>&- &
    printf -v "${2}_PID" %s $!
    wait_for 60 "pin-pages on node $1 to pin its pages" has_lines "$f" 2
    b=$(sed -n 2p "$f")
    printf -v "${2}_BLOCK" %s "${b%% *}"
}

# is process $1 in the write system call (x86_64: 1)?
in_write() { [[ $(cut -d' ' -f1 "/proc/$1/syscall" 2>/dev/null) == 1 ]]; }
# has process $1 ended (gone, or a zombie waiting for us)?
ended() { [[ ! -e /proc/$1 || $(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) == Z ]]; }
# no signal waits for process $1 to take it
no_signal_pending() { grep -Eq '^ShdPnd:[[:space:]]*0+$' "/proc/$1/status" && grep -Eq '^SigPnd:[[:space:]]*0+$' "/proc/$1/status"; }
# seconds since the test began
elapsed() { echo $(( (${EPOCHREALTIME/./} - ${T0/./}) / 1000000 )); }
going_offline() { [[ $(cat $MEMSYS/$1/state) == going-offline ]]; }
# more than $2 seconds since bash's clock read $1
past() { (( ${EPOCHREALTIME/./} - ${1/./} > $2 * 1000000 )); }

# lock_held: a pinned block of each region; W_PID's offline write of the
# second region's (B1) holds the hotplug lock; B0: the first region's
lock_held() {
    local r0 r1 n0 n1
    T0=$EPOCHREALTIME
    read -r r0 r1 < "$BATS_FILE_TMPDIR/regions"
    n0=$(cat /sys/bus/dax/devices/$(vm_dax_of "$r0")/target_node)
    n1=$(cat /sys/bus/dax/devices/$(vm_dax_of "$r1")/target_node)
    [[ $n0 != "$n1" ]] || fail "both regions on node $n0"
    pin "$n0" P0; B0=$P0_BLOCK
    pin "$n1" P1; B1=$P1_BLOCK
    echo "# pinned $B0 (node $n0, pid $P0_PID), $B1 (node $n1, pid $P1_PID)" >&3
    [[ $B0 == memory* && $B1 == memory* ]] || fail "pinned blocks: '$B0' '$B1'"
    ( exec bash -c "echo offline > $MEMSYS/$B1/state" ) 2>/dev/null 3>&- &
    W_PID=$!
    wait_for 60 "the other writer to hold the hotplug lock (offlining $B1)" going_offline "$B1"
    echo "# $(elapsed) s: the other writer holds the lock" >&3
}

@test "offline --timeout while another writer holds the hotplug lock: the run still ends when its time is up" {
    lock_held
    cxltier offline "$B0" --timeout 2 -j > "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err" 3>&- &
    CX_PID=$!
    wait_for 60 "cxltier to write $B0's state" in_write "$CX_PID"
    t=$EPOCHREALTIME
    echo "# $(elapsed) s: cxltier in its write" >&3
    # its deadline passes while the kernel restarts the write
    wait_for 30 "the run's 2 s to pass" past "$t" 3
    ! ended "$CX_PID" || fail "cxltier ended while the lock was held: $(cat "$BATS_TEST_TMPDIR/err")"
    # the other writer goes: cxltier's write gets the lock and migrates
    kill "$W_PID"; wait "$W_PID" 2>/dev/null || true
    W_PID=
    wait_for 30 "cxltier to end once it has the lock, its time being up" ended "$CX_PID"
    echo "# $(elapsed) s: cxltier ended" >&3
    rc=0; wait "$CX_PID" || rc=$?
    CX_PID=
    cat "$BATS_TEST_TMPDIR/err" >&3
    assert_equal "$rc" 1
    [[ $(jq -r '.blocks[0] | .block + " " + .result' "$BATS_TEST_TMPDIR/out") == "$B0 failed" ]]
    [[ $(jq -r '.blocks[0].note' "$BATS_TEST_TMPDIR/out") == *"--timeout"* ]]
    assert_equal "$(cat $MEMSYS/$B0/state)" online
}

@test "offline, SIGINT while another writer holds the hotplug lock, then SIGINT again: the second one ends the run" {
    lock_held
    cxltier offline "$B0" --timeout 60 > "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err" 3>&- &
    CX_PID=$!
    wait_for 60 "cxltier to write $B0's state" in_write "$CX_PID"
    kill -INT "$CX_PID"
    wait_for 10 "cxltier to take the first SIGINT" no_signal_pending "$CX_PID"
    kill -INT "$CX_PID"
    wait_for 10 "cxltier to end on the second SIGINT" ended "$CX_PID"
    echo "# $(elapsed) s: cxltier ended on the second SIGINT" >&3
    rc=0; wait "$CX_PID" || rc=$?
    CX_PID=
    assert_equal "$rc" 130
    # the other writer still holds the lock: ended all the same
    going_offline "$B1"
    kill "$W_PID"; wait "$W_PID" 2>/dev/null || true
    W_PID=
    assert_equal "$(cat $MEMSYS/$B0/state)" online
}

@test "online --convert over two devices, the second failing after the first was switched: the first is onlined, exit 64" {
    read -r r0 r1 < "$BATS_FILE_TMPDIR/regions"
    d0=$(vm_dax_of "$r0"); d1=$(vm_dax_of "$r1")
    for d in $d0 $d1; do
        for b in $(vm_blocks_of "$d"); do echo offline > $MEMSYS/$b/state; done
        vm_to_devdax "$d"
        [[ $(basename "$(readlink /sys/bus/dax/devices/$d/driver)") == device_dax ]]
    done
    # the second one cannot go to system-ram: no memory left in it (and a
    # dax device of size 0 is no CXL memory to cxltier once it looks again)
    daxctl disable-device "$d1" >/dev/null 2>&1
    echo 0 > /sys/bus/dax/devices/$d1/size
    run --separate-stderr cxltier online "$d0" "$d1" --convert -j
    echo "$stderr" >&3
    assert_failure 64
    [[ $stderr == *"$d0 is now in system-ram mode"* ]]
    for b in $(vm_blocks_of "$d0"); do
        assert_equal "$b $(cat $MEMSYS/$b/state) $(cat $MEMSYS/$b/valid_zones)" "$b online Movable"
    done
}
