#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: hotplug
# vm-args: --append cxltier.init=systemd
# vm-kernels: 6.12 7.x
# vm-test-timeout: 600 -- a hot-add, region creation and onlining of 512 MiB of emulated CXL memory under TCG
# vm-userland: trixie -- the udev rule and units under Debian 13's systemd 257 and udev
# The whole chain as a machine runs it: Debian's systemd is PID 1, its
# journald and udevd run under it, cxltier's udev rule and units are
# installed as the package installs them. A Type-3 device hot-added over QMP
# ends as movable memory with nothing done by the test but the hot-add:
# udev (90-cxltier.rules: tagged) -> systemd (cxltier-hotplug.service,
# started by the boot device's tag, resident) -> `cxltier online --policy`.
# Then the remove path (`offline memN --remove`, QMP device_del), a serial
# the policy leaves offline (its run caught while it waits, to read its
# sandbox), and the first serial again on a kernel that onlines new memory
# itself, hot-added while the watch is down (SIGKILL: systemd starts it
# again, and it takes what was tagged meanwhile). hotplug.bats tests each
# link alone in detail.
load helper
load hotplug-watch

SERIAL=0x9ac0 OFFLINE_SERIAL=0x9ac1
SIZE=$((512 << 20))

# (the policy file is written by the first test, after the boot device's
# coldplug: the default policy makes it no region)
setup_file() {
    [[ $(cat /proc/1/comm) == systemd ]] || return 0
    rm -f /etc/cxltier.conf
    cat $MEMSYS/auto_online_blocks > "$BATS_FILE_TMPDIR/auto"
}
coldplug_done() { [[ $(systemctl is-active $HOTPLUG_UNIT) == active ]] && run_ended mem0 && settled; }
write_policy() {
    mkdir -p /etc
    printf '%s\n' '[defaults]' 'create-region = yes' '' \
        "[device serial=$OFFLINE_SERIAL]" 'online = no' > /etc/cxltier.conf
}

teardown_file() {
    rm -f /etc/cxltier.conf
    [[ ! -f $BATS_FILE_TMPDIR/auto ]] || cat "$BATS_FILE_TMPDIR/auto" > $MEMSYS/auto_online_blocks
}

setup() {
    [[ $(cat /proc/1/comm) == systemd ]] ||
        fail "PID 1 is $(cat /proc/1/comm), not systemd: the boot did not take cxltier.init=systemd (guest/init)"
}

# the region over memdev $1 (its endpoint's decoder is a region's target)
region_of() {
    local ep r
    ep=$(vm_endpoint_of "$1") || return 1
    for r in $CXL/region[0-9]*; do
        [[ -e $r/target0 && $(cat "$r/target0") == decoder${ep#endpoint}.* ]] && { basename "$r"; return 0; }
    done
    return 1
}

# every block of memdev $1's region online in ZONE_MOVABLE
memdev_movable() {
    local r d b
    r=$(region_of "$1") && vm_has_dax "$r" || return 1
    d=$(vm_dax_of "$r")
    [[ -n $(vm_blocks_of "$d") ]] || return 1
    for b in $(vm_blocks_of "$d"); do
        [[ $(cat $MEMSYS/$b/state) == online && $(cat $MEMSYS/$b/valid_zones) == Movable ]] || return 1
    done
}

# the remove path: cxltier offline MEMDEV --remove, then QMP device_del ID;
# the kernel lets the memdev and its PCI device go and QEMU finishes
remove_device() {
    local m=$1 id=$2
    run --separate-stderr cxltier offline "$m" --remove -j
    echo "$stderr" >&3
    assert_success
    [[ $(jq -r '.memdevs[0].safe_to_remove' <<<"$output") == true ]]
    unplug "$m" "$id"
    wait_for 120 "udev and systemd to settle after $m left" settled
}

@test "systemd is PID 1: journald and udevd run under it, cxltier's rule installed, the watch started by the boot device's tag at coldplug" {
    systemctl is-active systemd-journald.service systemd-udevd.service
    [[ -f /usr/lib/udev/rules.d/90-cxltier.rules ]]
    run systemctl cat $HOTPLUG_UNIT
    assert_success
    assert_output --regexp $'\nExecStart=/[^ ]*/cxltier hotplug --timeout 60\n'
    exe=$(systemctl show -P ExecStart $HOTPLUG_UNIT | sed -n 's/.*path=\([^ ;]*\).*/\1/p')
    [[ -x $exe ]] || fail "the unit's ExecStart names $exe, not installed"
    assert_equal "$(systemctl is-active $HOTPLUG_UNIT || :)" inactive
    # nothing enabled it: udev's coldplug (what systemd-udev-trigger.service
    # does at boot; this guest boots without it) tags the memdev there at
    # boot, which wants it; ready once that device's run was done (the
    # default policy: no region made)
    udevadm trigger --action=add --subsystem-match=cxl --subsystem-match=dax
    wait_for 120 "cxltier-hotplug.service started by the coldplug, its run over mem0 ended" coldplug_done
    assert_equal "$(systemctl is-active $HOTPLUG_UNIT)" active
    assert_equal "$(systemctl is-enabled $HOTPLUG_UNIT 2>&1 || :)" static
    udevadm info --query=property /sys/bus/cxl/devices/mem0 | grep -qx 'CURRENT_TAGS=.*:cxltier:.*' ||
        fail "mem0 is not tagged: $(udevadm info --query=property /sys/bus/cxl/devices/mem0)"
    assert_run_done mem0
    run region_of mem0
    assert_failure
    systemctl show -P MainPID $HOTPLUG_UNIT > "$BATS_FILE_TMPDIR/watch-pid"
    # its mark, that udev need not start it at each memdev now
    assert_equal "$(stat -c '%U %a' /run/cxltier/hotplug.watch) $(cat /run/cxltier/hotplug.watch)" \
        "root 600 $(cat "$BATS_FILE_TMPDIR/watch-pid")"
    write_policy
}

@test "hot-add: udev -> cxltier-hotplug.service -> online --policy makes a region and onlines it movable, nothing done by hand" {
    m=$(vm_hot_add_type3 cxl-sd1 $SERIAL $SIZE)
    echo "$m" > "$BATS_FILE_TMPDIR/memdev"
    wait_for 300 "cxltier-hotplug.service's run to put $m's memory online in ZONE_MOVABLE" memdev_movable "$m"
    wait_for 120 "udev and systemd to settle after $m's hot-add" settled
    show_journal
    assert_run_done "$m"
    assert_equal "$(run_starts "$m")" 1
    # a watch listened: the memdev's event was tagged for it alone, systemd
    # not asked to track the device (no work of PID 1's beside the run)
    tags=$(udevadm info --query=property "$CXL/$m" | sed -n 's/^CURRENT_TAGS=//p')
    [[ $tags == *:cxltier:* && $tags != *:systemd:* ]] || fail "$m's tags: $tags"
    r=$(region_of "$m")
    echo "$r" > "$BATS_FILE_TMPDIR/region"
    [[ $(cat $CXL/$r/commit) == 1 && $(( $(cat $CXL/$r/size) )) == "$SIZE" ]]
    # the region's dax device bound to kmem is an event too, which came
    # while the run onlined it: the watch, at it after the run, found
    # nothing left to do and started no run over it
    d=$(vm_dax_of "$r")
    wait_for 60 "the watch to drop $d" dropped "$d" || { show_journal; false; }
    assert_equal "$(run_starts "$d")" 0
    memdev_movable "$m"
    # the same watch all along: one sandboxed start, not one per device
    assert_equal "$(systemctl show -P MainPID $HOTPLUG_UNIT)" "$(cat "$BATS_FILE_TMPDIR/watch-pid")"
}

# the tracefs instance cxltier-events.service's follower made (named after
# its pid), recording: printed
events_instance() {
    local pid i
    pid=$(systemctl show -P MainPID cxltier-events.service)
    [[ $pid != 0 ]] || return 1
    for i in /sys/kernel/tracing/instances/cxltier-follow-"$pid"-*; do
        [[ -d $i && $(cat "$i/tracing_on") == 1 ]] && { echo "$i"; return 0; }
    done
    return 1
}
events_recording() { events_instance > /dev/null; }
events_restarted() { # old pid
    local pid
    pid=$(systemctl show -P MainPID cxltier-events.service)
    [[ $pid != 0 && $pid != "$1" ]] && events_recording
}
events_journal() { journalctl --no-pager -o cat -u cxltier-events.service; }
no_follow_instance() { ! compgen -G '/sys/kernel/tracing/instances/cxltier-follow-*' > /dev/null; }

@test "cxltier-events.service, sandboxed: records in a tracefs instance of its own, started again after it ends, removes it when stopped" {
    run systemctl start cxltier-events.service
    assert_success
    wait_for 30 "cxltier-events.service's tracefs instance, recording" events_recording ||
        fail "$(events_journal; grep tracefs /proc/mounts)"
    systemctl is-active cxltier-events.service
    # a follower that ends with status 0 (its signal) is started again
    pid=$(systemctl show -P MainPID cxltier-events.service)
    kill -TERM "$pid"
    wait_for 30 "cxltier-events.service started again (Restart=always), recording" events_restarted "$pid" ||
        fail "$(events_journal)"
    run systemctl stop cxltier-events.service
    assert_success
    wait_for 30 "the follower's tracefs instance removed" no_follow_instance
    events_journal | sed 's/^/#   /' >&3
    assert_equal "$(systemctl show -P Result cxltier-events.service)" success
}

# lines of the follower's journal that say TEXT
journal_count() { events_journal | grep -c "$1" || true; }   # (grep -c: status 1 when it counts 0)
journal_more() { (( $(journal_count "$1") > $2 )); }
DRAINED='records that arrived while no follower ran' CANNOT='page retirement is on (retire-pages = yes), and'
DROPIN=/etc/systemd/system/cxltier-events.service.d/retire.conf

@test "cxltier-events.service with page retirement on: the sandbox's follower says it cannot retire; with the drop-in it can" {
    printf '\n[events]\nretire-pages = yes\n' >> /etc/cxltier.conf
    d0=$(journal_count "$DRAINED") c0=$(journal_count "$CANNOT")
    run systemctl start cxltier-events.service
    assert_success
    wait_for 30 "the follower to drain the shared instance (after its start checks)" journal_more "$DRAINED" "$d0"
    assert_equal "$(journal_count "$CANNOT")" $((c0 + 1))
    events_journal | grep "$CANNOT" | grep -q 'CAP_SYS_ADMIN' || fail "$(events_journal | grep "$CANNOT")"
    run systemctl stop cxltier-events.service
    assert_success
    # the drop-in the package ships as an example
    mkdir -p "${DROPIN%/*}"
    cp /usr/share/doc/cxltier/examples/cxltier-events-retire.conf "$DROPIN"
    systemctl daemon-reload
    d0=$(journal_count "$DRAINED")
    run systemctl start cxltier-events.service
    assert_success
    wait_for 30 "the follower to drain the shared instance (after its start checks)" journal_more "$DRAINED" "$d0"
    assert_equal "$(journal_count "$CANNOT")" $((c0 + 1))
    assert_equal "$(systemctl show -P CapabilityBoundingSet cxltier-events.service)" cap_sys_admin
    run systemctl stop cxltier-events.service
    assert_success
    rm "$DROPIN"
    systemctl daemon-reload
    sed -i '/^\[events\]$/,$d' /etc/cxltier.conf
}

# (QEMU's device has no Get Health Info: the run opens its mailbox, /dev/cxl/memN,
# asks which commands it has and writes no health, said only with -v; a
# mailbox it could not open would be a warning and a failed run)
@test "cxltier-metrics.service, sandboxed: writes node_exporter's textfile, the memdev's mailbox opened" {
    m=$(cat "$BATS_FILE_TMPDIR/memdev")
    f=/var/lib/prometheus/node-exporter/cxltier.prom
    mkdir -p "${f%/*}"
    rm -f "$f"
    run systemctl start cxltier-metrics.service
    journalctl --no-pager -o cat -u cxltier-metrics.service | sed 's/^/#   /' >&3
    assert_success
    assert_equal "$(systemctl show -P Result cxltier-metrics.service)" success
    [[ -s $f ]] || fail "cxltier-metrics.service wrote no $f"
    grep -q "^cxltier_memdev_info{memdev=\"$m\"" "$f" || fail "no $m in $f: $(cat "$f")"
    ! grep -q 'collector="health"} 0' "$f" || fail "health could not be read: $(grep health "$f")"
    ! journalctl --no-pager -o cat -u cxltier-metrics.service | grep -q 'warning' ||
        fail "cxltier-metrics.service warned"
    rm -r "${f%/*}"
}

@test "hot-remove: offline --remove, then device_del completes; no run started by the removal" {
    m=$(cat "$BATS_FILE_TMPDIR/memdev") r=$(cat "$BATS_FILE_TMPDIR/region")
    before=$(run_starts "$m")
    remove_device "$m" cxl-sd1
    assert_equal "$(run_starts "$m")" "$before"
    [[ ! -e $CXL/$r ]]
}

# the test holds the memory-blocks lock (as another cxltier would): a run
# then waits for it, where its process can be read
hold_lock() {
    lock=/run/cxltier/memory-blocks.lock
    ( exec 9<>$lock 3>&-; flock 9; printf '%11d\n' 4242 >&9; echo held > /tmp/held; exec sleep 300 ) &
    HOLDER=$!
    wait_for 10 "the test's flock on $lock" test -s /tmp/held
}
release_lock() { kill "$HOLDER"; wait "$HOLDER" 2>/dev/null || :; rm -f /tmp/held; }
waiting_run() { run_pid > /dev/null; }
stop_said() { runs_journal | grep -q "^cxltier hotplug: stopping (signal 15)" && run_ended "$1" "$2"; }

@test "a serial the policy leaves offline: its run, waiting on the lock, carries the service's sandbox; a stop ends it, a start takes the device again and leaves it offline, no region" {
    hold_lock
    # (memdev names come back: the runs over this one are counted from here)
    lines0=$(journal_lines)
    m=$(vm_hot_add_type3 cxl-sd2 $OFFLINE_SERIAL $SIZE)
    wait_for 300 "cxltier-hotplug.service's run over $m, waiting for the lock" waiting_run || { release_lock; false; }
    pid=$(run_pid)
    st=$(cat /proc/$pid/status) cmd=$(tr '\0' ' ' < /proc/$pid/cmdline)
    mnt=$(readlink /proc/$pid/ns/mnt) mnt1=$(readlink /proc/1/ns/mnt)
    # stopped meanwhile: systemd signals the run and the watch; the run
    # leaves its wait, the watch ends after it, cleanly
    run systemctl stop $HOTPLUG_UNIT
    release_lock
    assert_success
    assert_equal "$(systemctl is-active $HOTPLUG_UNIT || :) $(systemctl show -P Result $HOTPLUG_UNIT)" "inactive success"
    [[ ! -e /proc/$pid ]] || fail "the run (pid $pid) outlived the service"
    [[ ! -e /run/cxltier/hotplug.watch ]] || fail "the watch's mark outlived it"
    # (the watch may read the signal before or after the run's end: the
    # line's tail says which; the journal takes the lines a moment later)
    wait_for 30 "the watch's line that it stops, and the run's end, in the journal" stop_said "$m" "$lines0" || { show_journal; false; }
    # started again (as the next memdev's event would): the device tagged
    # meanwhile is taken first, before the start returns (Type=notify)
    run systemctl start $HOTPLUG_UNIT
    assert_success
    [[ $(run_starts "$m" "$lines0") == 2 ]] || { show_journal; fail "runs over $m since it came: $(run_starts "$m" "$lines0")"; }
    systemctl show -P MainPID $HOTPLUG_UNIT > "$BATS_FILE_TMPDIR/watch-pid"
    echo "# the run: $cmd" >&3
    [[ $cmd == *"online --policy --timeout 60 -- $m "* ]] || fail "the run is: $cmd"
    # inherited from the one sandboxed start: no new privileges, a seccomp
    # filter, CAP_SYS_ADMIN, CAP_SYS_PTRACE and CAP_SYS_MODULE alone, and a
    # mount namespace of its own (ProtectSystem=strict and the rest)
    grep -qx $'NoNewPrivs:\t1' <<<"$st" || fail "$st"
    grep -qx $'Seccomp:\t2' <<<"$st" || fail "$st"
    grep -qx $'CapBnd:\t0000000000290000' <<<"$st" || fail "$(grep ^Cap <<<"$st")"
    [[ $mnt != "$mnt1" ]] || fail "the run shares PID 1's mount namespace ($mnt)"
    wait_for 300 "the run over $m to end" run_ended "$m"
    wait_for 120 "udev and systemd to settle after $m's hot-add" settled
    show_journal
    assert_run_done "$m"
    run region_of "$m"
    assert_failure
    runs_journal | grep -q "$m.*leave it offline"
    remove_device "$m" cxl-sd2
}

@test "the first serial again, hot-added while the watch is down (SIGKILL), on a kernel that onlines new memory itself: movable all the same" {
    echo online > $MEMSYS/auto_online_blocks
    main=$(systemctl show -P MainPID $HOTPLUG_UNIT)
    kill -KILL "$main"
    # systemd starts it again (Restart=on-failure) whenever the device
    # comes: before it, its listing of the tagged devices takes it; after
    # it, udev's event does
    m=$(vm_hot_add_type3 cxl-sd3 $SERIAL $SIZE)
    wait_for 300 "cxltier-hotplug.service, started again, to put $m's memory online in ZONE_MOVABLE" memdev_movable "$m"
    wait_for 120 "udev and systemd to settle after $m's hot-add" settled
    show_journal
    [[ $(systemctl show -P MainPID $HOTPLUG_UNIT) != "$main" ]]
    assert_equal "$(systemctl is-active $HOTPLUG_UNIT)" active
    # the killed watch's mark went with it (ExecStopPost=); the new one's
    assert_equal "$(cat /run/cxltier/hotplug.watch)" "$(systemctl show -P MainPID $HOTPLUG_UNIT)"
    assert_run_done "$m"
    assert_equal "$(cat $MEMSYS/auto_online_blocks)" online
    memdev_movable "$m"
    remove_device "$m" cxl-sd3
}
