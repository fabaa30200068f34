#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: two-devices
# vm-boot-group: two-devices
# Two Type-3 devices on two root ports of one host bridge: `cxltier region
# create mem0 mem1` makes a working 2-way region and destroy undoes it;
# `offline --remove` of a memdev with two regions, and of one whose devdax
# device a process maps. Events of the two devices of a 2-way region.
load helper
load events

teardown() {
    local p
    for p in ${MAP_PID:-} ${HOLD_PID:-}; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    # the events test's shared instance and store, when it failed half way
    cxltier events --stop >/dev/null 2>&1 || true
    rm -f /run/cxltier/events.kept
    # the last created first: an endpoint gives its capacity back in reverse
    for r in $(ls $CXL | grep '^region[0-9]' | sort -t n -k 2 -rn); do
        cxltier region destroy "$r" --offline >/dev/null 2>&1 || true
    done
    # capacity a test left held for no region (a destroy cut short on purpose)
    for d in $(ls $CXL | grep '^decoder[0-9]*\.[0-9]*$' | sort -t . -k 2 -rn); do
        [[ -f $CXL/$d/dpa_size && -z $(cat $CXL/$d/region 2>/dev/null) ]] || continue
        [[ $(( $(cat $CXL/$d/dpa_size) )) == 0 ]] || echo 0 > $CXL/$d/dpa_size || true
    done
}

teardown_file() {
    vm_forget_dax_ids
}

# the memdevs in root-port order (the host bridge's dport ids)
port_order() {
    local m ep pd d
    for m in mem0 mem1; do
        ep=$(vm_endpoint_of $m); pd=$(readlink -f $CXL/$ep/parent_dport)
        for d in $(dirname "$(readlink -f $CXL/$ep)")/dport*; do
            [[ $(readlink -f "$d") == "$pd" ]] && echo "${d##*dport} $m"
        done
    done | sort -n | awk '{print $2}' | tr '\n' ' '
}

@test "create mem1 mem0: one 2-way region, size the sum, both memdevs in port order" {
    run --separate-stderr timeout 120 cxltier region create mem1 mem0 -j
    assert_success
    r=$(jq -r '.regions[0].name' <<<"$output")
    assert_equal "$(cat $CXL/$r/interleave_ways)" 2
    assert_equal "$(( $(cat $CXL/$r/size) ))" "$(( $(cat $CXL/mem0/ram/size) + $(cat $CXL/mem1/ram/size) ))"
    order=$(port_order)
    i=0
    for m in $order; do
        dec=$(cat $CXL/$r/target$i)
        assert_equal "$(basename "$(readlink -f $CXL/$(basename "$(dirname "$(readlink -f $CXL/$dec)")")/uport)")" "$m"
        i=$((i + 1))
    done
    assert_equal "$(jq -r '[.regions[0].targets[].memdev] | join(" ")' <<<"$output") " "$order"
    assert_equal "$(cat $CXL/$r/commit)" 1
    [[ -e $CXL/$r/driver ]]
}

@test "a destroy cut short after target0 was cleared: the rerun frees target1's capacity too; the decoder left holding capacity is named by doctor" {
    r=$(cxltier region create mem0 mem1 -j | jq -r '.regions[0].name')
    d0=$(cat $CXL/$r/target0) d1=$(cat $CXL/$r/target1)
    m0=$(basename "$(readlink -f "$CXL/$(basename "$(dirname "$(readlink -f $CXL/$d0)")")/uport")")
    # the steps a destroy had done when it was killed: unbound, decommitted, target0 cleared
    echo "$r" > /sys/bus/cxl/drivers/cxl_region/unbind
    echo 0 > $CXL/$r/commit
    echo "" > $CXL/$r/target0
    assert_equal "$(cat $CXL/$d0/region)" ""
    [[ $(( $(cat $CXL/$d0/dpa_size) )) -gt 0 ]]
    # list: the position still set, and no empty one
    assert_equal "$(cxltier list -j | jq -c --arg r "$r" '[.regions[] | select(.name == $r) | .targets[] | [.position, .decoder]]')" "[[1,\"$d1\"]]"
    run --separate-stderr timeout 120 cxltier region destroy "$r"
    assert_success
    [[ ! -e $CXL/$r ]]
    assert_equal "$(( $(cat $CXL/$d1/dpa_size) ))" 0
    # the decoder the cut-short run left: named, with the command that frees it
    run --separate-stderr cxltier doctor -j
    assert_failure 1
    assert_equal "$(jq -r --arg d "$d0" '.findings[] | select(.check == "capacity" and .object == $d) | .fix' <<<"$output")" \
        "cxl free-dpa $m0 -d $d0 (ndctl)"
    echo 0 > $CXL/$d0/dpa_size
    run --separate-stderr cxltier doctor -j
    assert_equal "$(jq '[.findings[] | select(.check == "capacity")] | length' <<<"$output")" 0
}

@test "a memdev backing only a region never committed: online --policy names it and fails, never 'nothing to do'" {
    r=$(cxltier region create mem0 -j | jq -r '.regions[0].name')
    # a create cut short after its target step: set up, not committed
    echo "$r" > /sys/bus/cxl/drivers/cxl_region/unbind
    echo 0 > $CXL/$r/commit
    printf '[defaults]\ncreate-region = yes\n' > "$BATS_TEST_TMPDIR/conf"
    run --separate-stderr cxltier online --policy --config "$BATS_TEST_TMPDIR/conf" mem0
    assert_equal "$status" 1
    [[ $stderr == *"mem0 backs $r, not committed"*"'cxltier region destroy $r'"* ]] || fail "not named: $stderr"
    run --separate-stderr cxltier doctor -j
    assert_failure 1
    [[ $(jq -r --arg r "$r" '.findings[] | select(.check == "region" and .object == $r) | .fix' <<<"$output") == "take it apart: cxltier region destroy $r"* ]]
    run timeout 120 cxltier region destroy "$r"
    assert_success
}

@test "list shows the region once, with both targets; both backends agree" {
    cxltier region create mem0 mem1 >/dev/null
    json=$(cxltier list -j)
    assert_equal "$(jq '.regions | length' <<<"$json")" 1
    assert_equal "$(jq -c '[.regions[0].targets[].position]' <<<"$json")" '[0,1]'
    assert_equal "$(jq -c '[.memdevs[].regions[]]' <<<"$json")" '["region0","region0"]'
    a=$(CXLTIER_BACKEND=libcxl cxltier list -j)
    b=$(CXLTIER_BACKEND=sysfs cxltier list -j)
    assert_equal "$a" "$b"
}

@test "its dax device onlines movable, then destroy --offline takes it apart" {
    r=$(cxltier region create mem0 mem1 -j | jq -r '.regions[0].name')
    d=$(vm_dax_of "$r")
    decs="$(cat $CXL/$r/target0) $(cat $CXL/$r/target1)"
    run timeout 600 cxltier online "$r"
    assert_success
    for b in $(vm_blocks_of "$d"); do assert_equal "$(cat $MEMSYS/$b/valid_zones)" Movable; done
    assert_equal "$(cxltier list -j | jq '.regions[0].dax_devices[0].memory_blocks | .total == .movable')" true
    run timeout 600 cxltier region destroy "$r" --offline
    assert_success
    [[ ! -e $CXL/$r ]]
    for dec in $decs; do assert_equal "$(( $(cat $CXL/$dec/dpa_size) ))" 0; done
    [[ ! -e /sys/bus/dax/devices/$d ]]
}

@test "one memdev each: two 1-way regions side by side, destroyed in any order" {
    run --separate-stderr cxltier region create mem1 -j
    assert_success
    r1=$(jq -r '.regions[0].name' <<<"$output")
    run --separate-stderr cxltier region create 0 -j
    assert_success
    r0=$(jq -r '.regions[0].name' <<<"$output")
    assert_equal "$(cxltier list -j | jq -c '[.regions[] | [.interleave_ways, .targets[0].memdev]] | sort')" '[[1,"mem0"],[1,"mem1"]]'
    run cxltier region destroy "$r1" "$r0"
    assert_success
    run cxltier list -j
    assert_equal "$(jq '.regions | length' <<<"$output")" 0
}

@test "offline mem0 mem1 --remove --whole-region: the region goes once, both memdevs are safe to remove" {
    r=$(cxltier region create mem0 mem1 -j | jq -r '.regions[0].name')
    run timeout 600 cxltier online "$r"
    assert_success
    run --separate-stderr timeout 600 cxltier offline mem0 mem1 --remove --whole-region -j
    # put the memdevs back for what follows, whatever the run did
    for m in mem0 mem1; do
        [[ -e $CXL/$m/driver ]] || echo "$m" > /sys/bus/cxl/drivers/cxl_mem/bind
    done
    assert_success
    [[ $(jq -c '[.memdevs[] | [.name, .safe_to_remove]]' <<<"$output") == '[["mem0",true],["mem1",true]]' ]] ||
        fail "$output $stderr"
    [[ ! -e $CXL/$r ]]
}

@test "offline mem0 --remove, two regions on mem0: the one allocated last goes first, both destroyed, exit 0" {
    half=$(( $(cat $CXL/mem0/ram/size) / 2 ))
    ra=$(cxltier region create mem0 --size "$half" -j | jq -re '.regions[0].name')
    rb=$(cxltier region create mem0 --size "$half" -j | jq -re '.regions[0].name')
    [[ $ra != "$rb" ]]
    run timeout 600 cxltier online "$ra" "$rb"
    assert_success
    run --separate-stderr timeout 600 cxltier offline mem0 --remove -j
    echo "$stderr" >&3
    [[ -e $CXL/mem0/driver ]] || echo mem0 > /sys/bus/cxl/drivers/cxl_mem/bind
    assert_success
    [[ $(jq -c '.memdevs[0] | [[.regions[] | .name + " " + .state], .safe_to_remove]' <<<"$output") == \
        "[[\"$rb destroyed\",\"$ra destroyed\"],true]" ]] || fail "$output"
    [[ ! -e $CXL/$ra && ! -e $CXL/$rb ]]
}

# the driver a dax device is bound to
dax_driver() { basename "$(readlink "/sys/bus/dax/devices/$1/driver")"; }
# is process $1 named $2 (a subshell that opened its files, then exec'd it)?
is_comm() { [[ $(cat "/proc/$1/comm" 2>/dev/null) == "$2" ]]; }

@test "a devdax device a process maps or holds open: online --convert and offline --remove refuse, naming the processes; nothing changes" {
    r=$(cxltier region create mem1 -j | jq -re '.regions[0].name')
    d=$(vm_dax_of "$r")
    if [[ $(dax_driver "$d") != device_dax ]]; then
        offline_all "$d"
        vm_to_devdax "$d"
    fi
    assert_equal "$(dax_driver "$d")" device_dax
    # mapped through a node of another name: found by its device number
    IFS=: read -r maj min < "/sys/bus/dax/devices/$d/dev"
    rm -f /tmp/other-dax; mknod /tmp/other-dax c "$maj" "$min"
    coproc MAP { exec map-dax /tmp/other-dax 3>&-; }
    read -r line <&"${MAP[0]}"
    assert_equal "$line" ready
    # and open only (no mapping) in another
    ( exec 5<"/dev/$d"; exec sleep 3600 ) 3>&- &
    HOLD_PID=$!
    wait_for 30 "process $HOLD_PID to hold /dev/$d open" is_comm "$HOLD_PID" sleep
    run --separate-stderr cxltier online "$d" --convert -j
    echo "$stderr" >&3
    assert_failure 1
    [[ $stderr == *"$d is in use: process $MAP_PID (map-dax) has 2 MiB of it mapped, process $HOLD_PID (sleep) has it open;"* ]] ||
        fail "$stderr"
    [[ $stderr == *"switching it to system-ram would take the device from them"*"SIGBUS"* ]]
    assert_equal "$(dax_driver "$d")" device_dax
    run --separate-stderr cxltier offline mem1 --remove -j
    echo "$stderr" >&3
    assert_failure 1
    [[ $(jq -c '.memdevs[0] | [.regions[0].name, .regions[0].state, .disabled, .safe_to_remove]' <<<"$output") == \
        "[\"$r\",\"failed\",false,false]" ]] || fail "$output"
    [[ $(jq -r '.memdevs[0].regions[0].error' <<<"$output") == *"process $MAP_PID (map-dax)"*"destroying $r would"* ]]
    [[ $stderr == *"$d is in use: process $MAP_PID (map-dax)"* ]]
    # nothing was taken from them
    [[ -e $CXL/$r && -e $CXL/mem1/driver ]]
    assert_equal "$(dax_driver "$d")" device_dax
    kill -0 "$MAP_PID"
    # gone, the device can go
    kill "$MAP_PID" "$HOLD_PID"; wait "$MAP_PID" "$HOLD_PID" 2>/dev/null || true
    MAP_PID= HOLD_PID=
    run --separate-stderr cxltier offline mem1 --remove -j
    [[ -e $CXL/mem1/driver ]] || echo mem1 > /sys/bus/cxl/drivers/cxl_mem/bind
    assert_success
    [[ ! -e $CXL/$r ]]
}

# the shared instance holds N General Media records (read without consuming)
holds_general_media() { (( $(grep -c 'cxl_general_media:' /sys/kernel/tracing/instances/cxltier/trace) >= $1 )); }

@test "events of a 2-way region: each names its memdev, the region and its own HPA; a memdev filter keeps the other's" {
    cxltier events --drain >/dev/null 2>&1    # collecting from now on
    r=$(cxltier region create mem0 mem1 -j | jq -r '.regions[0].name')
    for i in 0 1; do
        inject cxl-inject-general-media-event "{\"path\":\"/machine/peripheral/cxl-mem$i\",\"log\":\"warning\",\"flags\":1,\"dpa\":8192,\"descriptor\":0,\"type\":0,\"transaction-type\":1}"
    done
    wait_for 120 "both injected records in the shared instance" holds_general_media 2
    run --separate-stderr cxltier events --drain -j mem0
    assert_success
    assert_equal "$(jq -c '[.events[] | select(.dpa == 8192) | [.memdev, .region]]' <<<"$output")" "[[\"mem0\",\"$r\"]]"
    hpa0=$(jq '[.events[] | select(.dpa == 8192)][0].hpa' <<<"$output")
    [[ -f /run/cxltier/events.kept ]] || fail "mem1's record was not kept"
    run --separate-stderr cxltier events --drain -j mem1
    assert_success
    assert_equal "$(jq -c '[.events[] | select(.dpa == 8192) | [.memdev, .region]]' <<<"$output")" "[[\"mem1\",\"$r\"]]"
    hpa1=$(jq '[.events[] | select(.dpa == 8192)][0].hpa' <<<"$output")
    # the same DPA on the two devices of a 2-way region: two HPAs, both in it
    start=$(( $(cat $CXL/$r/resource) )); size=$(cat $CXL/$r/size)
    [[ $hpa0 != "$hpa1" ]] || fail "the same HPA $hpa0 for both devices"
    for h in $hpa0 $hpa1; do
        (( h >= start && h < start + size )) || fail "HPA $h outside $r ($start + $size)"
    done
    [[ ! -e /run/cxltier/events.kept ]]
    cxltier events --stop >/dev/null
}
