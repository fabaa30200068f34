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

# what memdev $1 is: its endpoint's decoders (mode and DPA size), its
# region and the state and zone of each of its blocks
memdev_state() {
    local r ep d decs=
    ep=$(vm_endpoint_of "$1") || { echo "$1 no-endpoint"; return 0; }
    for d in "$CXL/$ep"/decoder[0-9]*; do
        decs+=" ${d##*/}=$(cat "$d/mode"):$(cat "$d/dpa_size")"
    done
    if r=$(region_of "$1"); then
        if vm_has_dax "$r"; then echo "$1$decs $r $(vm_dax_of "$r") $(blocks_state "$(vm_dax_of "$r")")"
        else echo "$1$decs $r no-dax"; fi
    else
        echo "$1$decs no-region"
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

# the chain has ended: the four memdevs there, each one's unit run, and
# nothing more queued or running
chain_ended() {
    local sn m
    settled || return 1
    for sn in "${SERIALS[@]}"; do
        m=$(vm_memdev_by_serial "$sn") && unit_ran "$m" || return 1
    done
}

# watch_units FILE: every second until killed, systemd asked (in the
# background: systemctl waits while PID 1 is busy starting eight sandboxed
# units, tens of seconds under TCG, and the poll below must not); FILE then
# says "failed" once a cxltier-online unit failed, "ended" once the chain
# ended
watch_units() {
    local st
    while sleep 1; do
        st=
        if [[ -n $(failed_units) ]]; then st=failed
        elif chain_ended; then st=ended; fi
        [[ -z $st ]] || { echo "$st" > "$1.tmp" && mv "$1.tmp" "$1"; }
    done
}

# the wait: every memory block hot-added since the batch online in
# ZONE_MOVABLE, as many as the four devices have; or a cxltier-online unit
# failed, or the chain ended without it (watch_units; then the assertions
# say what is wrong). SEEN_MS[memoryN]: the ms from the device_add batch to
# the poll that first found that block online movable. Polled: bash's
# builtins and the memory blocks' own files only (a fork costs tens of ms
# under TCG on a busy host, and a CXL region's or dax device's attributes
# wait on the kernel's locks while another region is made: the poll would
# time itself).
declare -gA SEEN_MS=() BEFORE=()
POLLS=0
four_movable_or_failed() {
    local b s
    POLLS=$((POLLS + 1))
    for b in $MEMSYS/memory[0-9]*; do
        b=${b##*/}
        [[ -z ${BEFORE[$b]:-} && -z ${SEEN_MS[$b]:-} ]] || continue
        read -r s < "$MEMSYS/$b/state" && [[ $s == online ]] || continue
        read -r s < "$MEMSYS/$b/valid_zones" && [[ $s == Movable ]] || continue
        SEEN_MS[$b]=$(( (${EPOCHREALTIME/./} - T0) / 1000 ))
    done
    (( ${#SEEN_MS[@]} == 4 * SIZE / BS )) || [[ -e $WATCHED ]]
}

setup_file() {
    [[ $(cat /proc/1/comm) == systemd ]] || return 0
    # the boot's own units (the device there at boot, coldplugged) done first
    wait_for 300 "udev and systemd to settle after the boot" settled
    mkdir -p /etc
    read -r bs < $MEMSYS/block_size_bytes
    echo $((16#$bs)) > "$BATS_FILE_TMPDIR/block-size"
    printf '%s\n' '[defaults]' 'create-region = yes' > /etc/cxltier.conf
    m=$(vm_memdev_by_serial $BOOT_SERIAL)
    echo "$m" > "$BATS_FILE_TMPDIR/boot-memdev"
    memdev_state "$m" > "$BATS_FILE_TMPDIR/boot-state"
}

teardown_file() {
    rm -f /etc/cxltier.conf
}

teardown() {
    [[ -z ${WATCH:-} ]] || { kill "$WATCH" 2>/dev/null; wait "$WATCH" 2>/dev/null; } || :
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
    BS=$(cat "$BATS_FILE_TMPDIR/block-size")
    for i in 0 1 2 3; do
        id=cxl-four$i sn=${SERIALS[$i]}
        adds+=("{\"execute\":\"object-add\",\"arguments\":{\"qom-type\":\"memory-backend-ram\",\"id\":\"$id-mem\",\"size\":$SIZE,\"share\":true}}")
        reqs+=("{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"cxl-type3\",\"bus\":\"cxl_rp_hp$i\",\"volatile-memdev\":\"$id-mem\",\"id\":\"$id\",\"sn\":$((sn))}}")
    done
    # the backends first (untimed), then the four device_adds as one list
    run host_qmp "[$(IFS=,; echo "${adds[*]}")]"
    assert_success
    for b in $MEMSYS/memory[0-9]*; do BEFORE[${b##*/}]=1; done
    T0=${EPOCHREALTIME/./}
    read -r up0 _ < /proc/uptime
    run host_qmp "[$(IFS=,; echo "${reqs[*]}")]"
    assert_success
    WATCHED=$BATS_FILE_TMPDIR/units
    watch_units "$WATCHED" > /dev/null 2>&1 3>&- &
    WATCH=$!
    wait_for 900 "every block of the four hot-added devices online in ZONE_MOVABLE (or a cxltier-online unit failed, or the chain ended)" \
        four_movable_or_failed || { show_journal; fail "not every block movable: $(for sn in "${SERIALS[@]}"; do m=$(vm_memdev_by_serial "$sn") && memdev_state "$m" || echo "no memdev $sn"; done)"; }
    t_last=$(printf '%s\n' "${SEEN_MS[@]}" | sort -n | tail -1)
    kill "$WATCH"; wait "$WATCH" || :; WATCH=
    wait_for 300 "udev and systemd to settle after the four hot-adds" settled || { show_journal; fail "not settled"; }

    # no cxltier-online unit gave up its turn on the memory-blocks lock (lib/core/lock.c's words)
    ! units_journal | grep -E 'another cxltier .* is changing memory blocks; waited|without the line moving' ||
        { show_journal; fail "a cxltier-online unit gave up waiting for the memory-blocks lock"; }
    # nor failed otherwise: in systemd's state, nor in the journal
    run failed_units
    [[ -z $output ]] || { show_journal; fail "failed units: $output"; }
    run bash -c "systemctl --failed --no-legend --plain | grep cxltier"
    [[ -z $output ]] || { show_journal; fail "systemctl --failed: $output"; }
    ! units_journal | grep -E 'Failed with result|status=[1-9]' ||
        { show_journal; fail "a cxltier-online unit failed (journal)"; }

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
        # each block where the zone says: online, in ZONE_MOVABLE; the
        # device's time is its last block's
        t=0
        for b in $(vm_blocks_of "$(vm_dax_of "$r")"); do
            assert_equal "$b $(cat $MEMSYS/$b/state) $(cat $MEMSYS/$b/valid_zones)" "$b online Movable"
            (( ${SEEN_MS[$b]:-0} <= t )) || t=${SEEN_MS[$b]}
        done
        line+=" $m=${t}ms"
    done
    assert_equal "$(printf '%s\n' "${mems[@]}" | sort -u | wc -l)" 4
    echo "# device_add of four to the last block movable: ${t_last} ms (each device:$line; $POLLS polls)" >&3
    # the same as the units' journal tells it: its last line of a block
    # onlined movable, on the monotonic clock /proc/uptime read at the batch
    j=$(journalctl --no-pager -o json -u 'cxltier-online@*' |
        jq -r 'select((.MESSAGE | type) == "string" and (.MESSAGE | test("online_movable +done"))) | .__MONOTONIC_TIMESTAMP' |
        sort -n | tail -1)
    [[ -z $j ]] || echo "# per the units' journal, the last block onlined movable $(( j / 1000 - 10#${up0/./}0 )) ms after the batch" >&3
    echo "# $(units_journal | grep -c 'Starting cxltier-online@') cxltier-online units started" >&3

    # the device there at boot is as it was
    assert_equal "$(memdev_state "$(cat "$BATS_FILE_TMPDIR/boot-memdev")")" "$(cat "$BATS_FILE_TMPDIR/boot-state")"
}
