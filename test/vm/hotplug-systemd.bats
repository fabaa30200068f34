#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: hotplug
# vm-args: --append cxltier.init=systemd
# vm-kernels: 6.12 7.x
# vm-test-timeout: 600 -- a hot-add, region creation and onlining of 512 MiB of emulated CXL memory under TCG
# vm-userland: trixie -- the udev rule and units under Debian 13's systemd 257 and udev
# The whole chain as a machine runs it: Debian's systemd is PID 1, its
# journald and udevd run under it, cxltier's udev rule and unit are installed
# as the package installs them. A Type-3 device hot-added over QMP ends as
# movable memory with nothing done by the test but the hot-add:
# udev (90-cxltier.rules) -> systemd (cxltier-online@memN.service) -> cxltier.
# Then the remove path (`offline memN --remove`, QMP device_del), a serial
# the policy leaves offline, and the first serial again on a kernel that
# onlines new memory itself. hotplug.bats tests each link alone in detail.
load helper

SERIAL=0x9ac0 OFFLINE_SERIAL=0x9ac1
SIZE=$((512 << 20))

setup_file() {
    [[ $(cat /proc/1/comm) == systemd ]] || return 0
    mkdir -p /etc
    printf '%s\n' '[defaults]' 'create-region = yes' '' \
        "[device serial=$OFFLINE_SERIAL]" 'online = no' > /etc/cxltier.conf
    cat $MEMSYS/auto_online_blocks > "$BATS_FILE_TMPDIR/auto"
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

# udev has handled every event, and systemd runs and has queued no cxltier unit
settled() {
    udevadm settle --timeout=0 || return 1
    [[ -z $(systemctl list-jobs --no-legend 'cxltier-online@*' 2>/dev/null) ]] || return 1
    [[ -z $(systemctl list-units --no-legend --state=activating,deactivating 'cxltier-online@*' 2>/dev/null) ]]
}

# systemd ran cxltier-online@$1.service to its end, successfully
unit_ran() {
    [[ $(systemctl show -P ExecMainStartTimestampMonotonic "cxltier-online@$1.service") != 0 &&
       $(systemctl show -P ActiveState "cxltier-online@$1.service") == inactive ]]
}
# how many times systemd started cxltier-online@$1.service (the journal
# keeps it after systemd forgets the unit of a device that left)
unit_starts() {
    journalctl --no-pager -o cat -u "cxltier-online@$1.service" | grep -c '^Starting cxltier-online@'
}
unit_result() {
    systemctl show -P Result "cxltier-online@$1.service"
    systemctl show -P ExecMainStatus "cxltier-online@$1.service"
}
show_journal() {
    echo "# journal of cxltier-online@$1.service:" >&3
    journalctl --no-pager -o cat -u "cxltier-online@$1.service" | sed 's/^/#   /' >&3
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

@test "systemd is PID 1: journald and udevd run under it, cxltier's rule and unit installed" {
    systemctl is-active systemd-journald.service systemd-udevd.service
    [[ -f /usr/lib/udev/rules.d/90-cxltier.rules ]]
    run systemctl cat cxltier-online@mem9.service
    assert_success
    assert_output --regexp $'\nExecStart=/[^ ]*/cxltier online --policy --timeout 60 %i'
    exe=$(systemctl show -P ExecStart cxltier-online@mem9.service | sed -n 's/.*path=\([^ ;]*\).*/\1/p')
    [[ -x $exe ]] || fail "the unit's ExecStart names $exe, not installed"
}

@test "hot-add: udev -> systemd -> cxltier-online@memN makes a region and onlines it movable, nothing done by hand" {
    m=$(vm_hot_add_type3 cxl-sd1 $SERIAL $SIZE)
    echo "$m" > "$BATS_FILE_TMPDIR/memdev"
    wait_for 300 "cxltier-online@$m.service to put $m's memory online in ZONE_MOVABLE" memdev_movable "$m"
    wait_for 120 "udev and systemd to settle after $m's hot-add" settled
    unit_ran "$m" || fail "cxltier-online@$m.service did not run: $(systemctl status --no-pager "cxltier-online@$m.service" 2>&1)"
    show_journal "$m"
    assert_equal "$(unit_result "$m" | tr '\n' ' ')" "success 0 "
    r=$(region_of "$m")
    echo "$r" > "$BATS_FILE_TMPDIR/region"
    [[ $(cat $CXL/$r/commit) == 1 && $(( $(cat $CXL/$r/size) )) == "$SIZE" ]]
    # the region's dax device bound to kmem is an event too: its unit ran
    # after (serialized by cxltier's lock) and found nothing left to do
    d=$(vm_dax_of "$r")
    if unit_ran "$d"; then
        show_journal "$d"
        assert_equal "$(unit_result "$d" | tr '\n' ' ')" "success 0 "
    fi
    memdev_movable "$m"
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

@test "hot-remove: offline --remove, then device_del completes; no unit started by the removal" {
    m=$(cat "$BATS_FILE_TMPDIR/memdev") r=$(cat "$BATS_FILE_TMPDIR/region")
    before=$(unit_starts "$m")
    remove_device "$m" cxl-sd1
    assert_equal "$(unit_starts "$m")" "$before"
    [[ ! -e $CXL/$r ]]
}

@test "a serial the policy leaves offline: the unit runs and leaves it offline, no region" {
    m=$(vm_hot_add_type3 cxl-sd2 $OFFLINE_SERIAL $SIZE)
    wait_for 300 "cxltier-online@$m.service to run" unit_ran "$m"
    wait_for 120 "udev and systemd to settle after $m's hot-add" settled
    show_journal "$m"
    assert_equal "$(unit_result "$m" | tr '\n' ' ')" "success 0 "
    run region_of "$m"
    assert_failure
    journalctl --no-pager -o cat -u "cxltier-online@$m.service" | grep -q "$m.*leave it offline"
    remove_device "$m" cxl-sd2
}

@test "the first serial again, on a kernel that onlines new memory itself: movable all the same" {
    echo online > $MEMSYS/auto_online_blocks
    m=$(vm_hot_add_type3 cxl-sd3 $SERIAL $SIZE)
    wait_for 300 "cxltier-online@$m.service to put $m's memory online in ZONE_MOVABLE" memdev_movable "$m"
    wait_for 120 "udev and systemd to settle after $m's hot-add" settled
    show_journal "$m"
    assert_equal "$(unit_result "$m" | tr '\n' ' ')" "success 0 "
    assert_equal "$(cat $MEMSYS/auto_online_blocks)" online
    memdev_movable "$m"
    remove_device "$m" cxl-sd3
}
