#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: hotplug4
# vm-args: --append cxltier.init=systemd
# vm-kernels: 6.12 7.x
# vm-test-timeout: 1200 -- four hot-adds at once, four regions made and 2 GiB of emulated CXL memory onlined one run after another under TCG
# Four Type-3 devices hot-added at once (one QMP request list, four
# device_adds into the free root ports cxl_rp_hp0..3) end as movable memory
# with nothing done by the test but the hot-add, through the chain a machine
# runs: udev (90-cxltier.rules: tagged) -> systemd (cxltier-hotplug.service,
# started by the first card's tag) -> `cxltier online --policy`, one run at
# a time, each taking every device that came while the one before it ran.
# No run may fail or give up its turn on the lock, the watch may not be
# started again, and the device there at boot is left as it was.
# hotplug-systemd.bats is the one-card version (and the remove path).
load helper
load hotplug-watch

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

# the runs that did not end well: exit N or killed (lib/jobs/hotplug-service.c's words)
failed_runs() { runs_journal | grep -E '^cxltier hotplug: (error: )?online --policy .*: (exit [0-9]+|killed by signal)' || :; }
# the service's journal on the monotonic clock
units_journal() { journalctl --no-pager -o short-monotonic -u $HOTPLUG_UNIT; }

# the chain has ended: the four memdevs there, a run over each ended, and
# nothing more queued or running
chain_ended() {
    local sn m
    settled || return 1
    for sn in "${SERIALS[@]}"; do
        m=$(vm_memdev_by_serial "$sn") && run_ended "$m" || return 1
    done
}

# watch_units FILE: every second until killed, systemd asked (in the
# background: systemctl and journalctl wait while the machine is busy
# onlining 2 GiB, tens of seconds under TCG, and the poll below must not);
# FILE then says "failed" once a run failed, "ended" once the chain ended
watch_units() {
    local st
    while sleep 1; do
        st=
        if [[ -n $(failed_runs) ]]; then st=failed
        elif chain_ended; then st=ended; fi
        [[ -z $st ]] || { echo "$st" > "$1.tmp" && mv "$1.tmp" "$1"; }
    done
}

# the wait: every memory block hot-added since the batch online in
# ZONE_MOVABLE, as many as the four devices have; or a run failed, or the chain ended without it (watch_units; then the assertions
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
    # (this guest boots without udev's coldplug: the first card's tag starts
    # the watch, as on a machine whose first CXL device is hot-added)
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
    run systemctl cat $HOTPLUG_UNIT
    assert_success
    assert_output --regexp $'\nExecStart=/[^ ]*/cxltier hotplug --timeout 60\n'
    assert_equal "$(cd $CXL && echo mem[0-9]*)" "$(cat "$BATS_FILE_TMPDIR/boot-memdev")"
    run failed_runs
    assert_output ""
    echo "# at boot: $(cat "$BATS_FILE_TMPDIR/boot-state")" >&3
}

@test "four devices hot-added at once: every block of each online movable through udev -> cxltier-hotplug.service -> online --policy, no run failed or gave up its turn" {
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
    wait_for 900 "every block of the four hot-added devices online in ZONE_MOVABLE (or a run failed, or the chain ended)" \
        four_movable_or_failed || { show_journal; fail "not every block movable: $(for sn in "${SERIALS[@]}"; do m=$(vm_memdev_by_serial "$sn") && memdev_state "$m" || echo "no memdev $sn"; done)"; }
    t_last=$(printf '%s\n' "${SEEN_MS[@]}" | sort -n | tail -1)
    kill "$WATCH"; wait "$WATCH" || :; WATCH=
    wait_for 300 "udev and systemd to settle after the four hot-adds" settled || { show_journal; fail "not settled"; }

    # no run gave up its turn on the memory-blocks lock (lib/core/lock.c's words)
    ! units_journal | grep -E 'another cxltier .* is changing memory blocks; waited|without the line moving' ||
        { show_journal; fail "a run gave up waiting for the memory-blocks lock"; }
    # nor failed otherwise: the runs' ends, systemd's state, the journal
    run failed_runs
    [[ -z $output ]] || { show_journal; fail "failed runs: $output"; }
    run bash -c "systemctl --failed --no-legend --plain | grep cxltier"
    [[ -z $output ]] || { show_journal; fail "systemctl --failed: $output"; }
    ! units_journal | grep -E 'Failed with result|status=[1-9]|Scheduled restart' ||
        { show_journal; fail "cxltier-hotplug.service failed or was started again (journal)"; }
    assert_equal "$(systemctl is-active $HOTPLUG_UNIT)" active

    # the four memdevs, each in a run that ended well, every block movable
    local mems=() line=
    for sn in "${SERIALS[@]}"; do
        m=$(vm_memdev_by_serial "$sn") || fail "no memdev with serial $sn"
        mems+=("$m")
        run_ended "$m" || { show_journal; fail "no run over $m ended"; }
        assert_run_done "$m"
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
    # the same as the runs' journal tells it: its last line of a block
    # onlined movable, on the monotonic clock /proc/uptime read at the batch
    j=$(journalctl --no-pager -o json -u $HOTPLUG_UNIT |
        jq -r 'select((.MESSAGE | type) == "string" and (.MESSAGE | test("online_movable +done"))) | .__MONOTONIC_TIMESTAMP' |
        sort -n | tail -1)
    [[ -z $j ]] || echo "# per the runs' journal, the last block onlined movable $(( j / 1000 - 10#${up0/./}0 )) ms after the batch" >&3
    echo "# $(runs_journal | grep -cE '^cxltier hotplug: online --policy .*: started') runs: $(runs_journal | sed -n 's/^cxltier hotplug: online --policy \(.*\): started .*/[\1]/p' | tr '\n' ' ')" >&3

    # the device there at boot is as it was
    assert_equal "$(memdev_state "$(cat "$BATS_FILE_TMPDIR/boot-memdev")")" "$(cat "$BATS_FILE_TMPDIR/boot-state")"
}
