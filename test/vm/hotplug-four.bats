#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: hotplug4
# vm-args: --append cxltier.init=systemd
# vm-kernels: 6.12 7.x
# vm-test-timeout: 1200 -- four hot-adds at once, four regions made and 2 GiB of emulated CXL memory onlined one run after another under TCG
# Four Type-3 devices hot-added at once (one QMP request list, four
# device_adds into the free root ports cxl_rp_hp0..3) end as movable memory
# with nothing done by the test but the hot-add, through the chain a machine
# runs: udev (90-cxltier.rules) -> systemd (cxltier-online@memN.service and
# @daxN.M.service, eight units at once) -> cxltier, one at a time on its
# memory-blocks lock. No unit may fail or give up its turn on the lock, and
# the device there at boot is left as it was. hotplug-systemd.bats is the
# one-card version (and the remove path).
load helper

SERIALS=(0x9bc0 0x9bc1 0x9bc2 0x9bc3)
SIZE=$((512 << 20))
BOOT_SERIAL=0x1234

# the region over memdev $1 (its endpoint's decoder is a region's target)
region_of() {
    local ep r
    ep=$(vm_endpoint_of "$1" 2>/dev/null) || return 1
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
    [[ -e /sys/bus/dax/devices/$d/resource && -n $(vm_blocks_of "$d") ]] || return 1
    for b in $(vm_blocks_of "$d"); do
        [[ $(cat $MEMSYS/$b/state) == online && $(cat $MEMSYS/$b/valid_zones) == Movable ]] || return 1
    done
}

# what memdev $1 is: its region and the state and zone of each of its blocks
memdev_state() {
    local r
    if r=$(region_of "$1"); then
        if vm_has_dax "$r"; then echo "$1 $r $(vm_dax_of "$r") $(blocks_state "$(vm_dax_of "$r")")"
        else echo "$1 $r no-dax"; fi
    else
        echo "$1 no-region"
    fi
}

# udev has handled every event, and systemd runs and has queued no cxltier unit
settled() {
    udevadm settle --timeout=0 || return 1
    [[ -z $(systemctl list-jobs --no-legend 'cxltier-online@*' 2>/dev/null) ]] || return 1
    [[ -z $(systemctl list-units --no-legend --state=activating,deactivating 'cxltier-online@*' 2>/dev/null) ]]
}

# the cxltier-online units systemd holds as failed
failed_units() { systemctl list-units --all --no-legend --plain --state=failed 'cxltier-online@*' | awk '{print $1}'; }

# systemd ran cxltier-online@$1.service to its end
unit_ran() {
    [[ $(systemctl show -P ExecMainStartTimestampMonotonic "cxltier-online@$1.service") != 0 &&
       $(systemctl show -P ActiveState "cxltier-online@$1.service") != activating ]]
}
unit_result() {
    systemctl show -P Result "cxltier-online@$1.service"
    systemctl show -P ExecMainStatus "cxltier-online@$1.service"
}
units_journal() { journalctl --no-pager -o short-monotonic -u 'cxltier-online@*'; }
show_journal() {
    echo "# journal of the cxltier-online units:" >&3
    units_journal | sed 's/^/#   /' >&3
}

# the wait: every block of the four devices online movable, or a
# cxltier-online unit failed (then the assertions say which). Notes in
# DONE_MS[serial] the ms from the device_add batch to the poll that first
# found that device's blocks all online movable.
declare -gA DONE_MS=()
four_movable_or_failed() {
    local sn m left=0 now
    [[ -z $(failed_units) ]] || return 0
    now=${EPOCHREALTIME/./}
    for sn in "${SERIALS[@]}"; do
        [[ -z ${DONE_MS[$sn]:-} ]] || continue
        if m=$(vm_memdev_by_serial "$sn") && memdev_movable "$m"; then
            DONE_MS[$sn]=$(( (now - T0) / 1000 ))
        else
            left=1
        fi
    done
    (( left == 0 ))
}

setup_file() {
    [[ $(cat /proc/1/comm) == systemd ]] || return 0
    # the boot's own units (the device there at boot, coldplugged) done first
    wait_for 300 "udev and systemd to settle after the boot" settled
    mkdir -p /etc
    printf '%s\n' '[defaults]' 'create-region = yes' > /etc/cxltier.conf
    m=$(vm_memdev_by_serial $BOOT_SERIAL)
    echo "$m" > "$BATS_FILE_TMPDIR/boot-memdev"
    memdev_state "$m" > "$BATS_FILE_TMPDIR/boot-state"
}

teardown_file() {
    rm -f /etc/cxltier.conf
}

setup() {
    [[ $(cat /proc/1/comm) == systemd ]] ||
        fail "PID 1 is $(cat /proc/1/comm), not systemd: the boot did not take cxltier.init=systemd (guest/init)"
}

@test "systemd is PID 1, cxltier's rule and unit installed, four free root ports, one memdev at boot" {
    systemctl is-active systemd-journald.service systemd-udevd.service
    [[ -f /usr/lib/udev/rules.d/90-cxltier.rules ]]
    run systemctl cat cxltier-online@mem9.service
    assert_success
    assert_output --regexp $'\nExecStart=/[^ ]*/cxltier online --policy --timeout 60 %i'
    assert_equal "$(cd $CXL && echo mem[0-9]*)" "$(cat "$BATS_FILE_TMPDIR/boot-memdev")"
    run failed_units
    assert_output ""
    echo "# at boot: $(cat "$BATS_FILE_TMPDIR/boot-state")" >&3
}

@test "four devices hot-added at once: every block of each online movable through udev -> systemd -> cxltier, no unit failed or gave up its turn" {
    local sn m i reqs=() adds=() id
    for i in 0 1 2 3; do
        id=cxl-four$i sn=${SERIALS[$i]}
        adds+=("{\"execute\":\"object-add\",\"arguments\":{\"qom-type\":\"memory-backend-ram\",\"id\":\"$id-mem\",\"size\":$SIZE,\"share\":true}}")
        reqs+=("{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"cxl-type3\",\"bus\":\"cxl_rp_hp$i\",\"volatile-memdev\":\"$id-mem\",\"id\":\"$id\",\"sn\":$((sn))}}")
    done
    # the backends first (untimed), then the four device_adds as one list
    run host_qmp "[$(IFS=,; echo "${adds[*]}")]"
    assert_success
    T0=${EPOCHREALTIME/./}
    run host_qmp "[$(IFS=,; echo "${reqs[*]}")]"
    assert_success
    wait_for 900 "every block of the four hot-added devices online in ZONE_MOVABLE (or a cxltier-online unit failed)" \
        four_movable_or_failed || { show_journal; fail "not every block movable: $(for sn in "${SERIALS[@]}"; do m=$(vm_memdev_by_serial "$sn") && memdev_state "$m" || echo "no memdev $sn"; done)"; }
    t_last=$(( (${EPOCHREALTIME/./} - T0) / 1000 ))
    wait_for 300 "udev and systemd to settle after the four hot-adds" settled || { show_journal; fail "not settled"; }

    # no cxltier-online unit failed: in systemd's state, nor in the journal
    run failed_units
    [[ -z $output ]] || { show_journal; fail "failed units: $output"; }
    run systemctl --failed --no-legend --plain 'cxltier*'
    [[ -z $output ]] || { show_journal; fail "systemctl --failed: $output"; }
    ! units_journal | grep -E 'Failed with result|status=[1-9]' ||
        { show_journal; fail "a cxltier-online unit failed (journal)"; }
    # nor gave up its turn on the memory-blocks lock (lib/core/lock.c's words)
    ! units_journal | grep -E 'another cxltier .* is changing memory blocks; waited|without the line moving' ||
        { show_journal; fail "a cxltier-online unit gave up waiting for the memory-blocks lock"; }

    # the four memdevs, each onlined by its own unit, every block movable
    local mems=() line=
    for sn in "${SERIALS[@]}"; do
        m=$(vm_memdev_by_serial "$sn") || fail "no memdev with serial $sn"
        mems+=("$m")
        unit_ran "$m" || { show_journal; fail "cxltier-online@$m.service did not run"; }
        assert_equal "$(unit_result "$m" | tr '\n' ' ')" "success 0 "
        memdev_movable "$m" || { show_journal; fail "$m ($sn): not every block online movable: $(memdev_state "$m")"; }
        r=$(region_of "$m")
        assert_equal "$(( $(cat $CXL/$r/size) ))" "$SIZE"
        # each block where the zone says: online, in ZONE_MOVABLE
        for b in $(vm_blocks_of "$(vm_dax_of "$r")"); do
            assert_equal "$b $(cat $MEMSYS/$b/state) $(cat $MEMSYS/$b/valid_zones)" "$b online Movable"
        done
        line+=" $m=${DONE_MS[$sn]:-?}ms"
    done
    assert_equal "$(printf '%s\n' "${mems[@]}" | sort -u | wc -l)" 4
    echo "# device_add of four to the last block movable: ${t_last} ms (each device:$line)" >&3
    echo "# $(units_journal | grep -c 'Starting cxltier-online@') cxltier-online units started" >&3

    # the device there at boot is as it was
    assert_equal "$(memdev_state "$(cat "$BATS_FILE_TMPDIR/boot-memdev")")" "$(cat "$BATS_FILE_TMPDIR/boot-state")"
}
