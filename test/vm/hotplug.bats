#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: hotplug
# vm-kernels: 6.12 7.x
# vm-test-timeout: 600 -- offlining and onlining 512 MiB of emulated CXL memory under TCG
# A Type-3 device hot-added over QMP on the free root port, end to end:
# udev's rule matches its memdev's cxl_mem bind (udevd runs in the guest);
# the unit's ExecStart (read from the installed unit) is run by the test, link
# by link, so each step is checked in detail (hotplug-systemd.bats boots with
# systemd as PID 1 and lets udev -> systemd -> cxltier run alone); that run
# creates the region per
# /etc/cxltier.conf and onlines it movable. Then `offline memN --remove`,
# QMP device_del, and the kernel lets the device go. The same serial again,
# and a pinned page named with the process that pins it.
load helper

SERIAL=0x9abc
SIZE=$((512 << 20))
UNIT=/usr/lib/systemd/system/cxltier-hotplug.service

setup_file() {
    mkdir -p /etc
    printf '%s\n' '[defaults]' 'create-region = yes' > /etc/cxltier.conf
}

teardown_file() {
    rm -f /etc/cxltier.conf
}

teardown() {
    local p
    [[ ! -f $BATS_FILE_TMPDIR/auto ]] || cat "$BATS_FILE_TMPDIR/auto" > $MEMSYS/auto_online_blocks
    for p in ${UDEVD_PID:-} ${MON_PID:-} ${PIN_PID:-} ${CX_PID:-}; do kill "$p" 2>/dev/null || true; done
    for p in ${UDEVD_PID:-} ${MON_PID:-} ${PIN_PID:-} ${CX_PID:-}; do wait "$p" 2>/dev/null || true; done
}

# the unit's command line, with the guest's cxltier
unit_command() {
    sed -n 's/^ExecStart=//p' "$UNIT" | sed "s#^[^ ]*cxltier#cxltier#"
}
# what a run of the watch over memdev $1 is (lib/jobs/hotplug-service.c), its options
# before the device
policy_run() { echo "cxltier online --policy --timeout 60 $1"; }
# the regions there
regions() { (cd $CXL && echo region[0-9]*); }

# every block of the region's dax device online in ZONE_MOVABLE
all_movable() {
    local d b
    d=$(vm_dax_of "$1") || return 1
    for b in $(vm_blocks_of "$d"); do
        [[ $(cat $MEMSYS/$b/state) == online && $(cat $MEMSYS/$b/valid_zones) == Movable ]] || return 1
    done
}

@test "udev: a hot-added memdev's cxl_mem bind is tagged for cxltier hotplug and wants its service (udevd in the guest, and udevadm test)" {
    # (the guest carries udevadm and the package's rule: without them this
    # file tests nothing of the hot-add path)
    command -v udevadm >/dev/null || fail "no udevadm in the guest"
    [[ -f /usr/lib/udev/rules.d/90-cxltier.rules ]] || fail "the rule is not installed in the guest"
    ln -sf "$(command -v udevadm)" /tmp/systemd-udevd   # one binary: it acts on its name
    /tmp/systemd-udevd --resolve-names=never > /tmp/udevd.log 2>&1 3>&- &
    UDEVD_PID=$!
    wait_for 60 "systemd-udevd to answer" udevadm control --ping
    udevadm monitor --udev --property > /tmp/udev-events.txt 2>&1 3>&- &
    MON_PID=$!
    wait_for 30 "udevadm monitor to listen" grep -q 'UDEV - the event which udev sends' /tmp/udev-events.txt
    m=$(vm_hot_add_type3 cxl-mem-hp $SERIAL $SIZE)
    echo "$m" > "$BATS_FILE_TMPDIR/memdev"
    # the event as udev processed it: tagged, with the service it wants
    wait_for 60 "udev's event for $m's bind to cxl_mem" \
        grep -qx "SYSTEMD_WANTS=cxltier-hotplug.service" /tmp/udev-events.txt
    # ... and that event (one paragraph of the monitor's output) is the
    # bind of $m, the one tagged cxltier
    run awk -v m="$m" 'BEGIN { RS = "" }
        { a = ""; dev = ""; tag = 0; n = split($0, l, "\n")
          for (i = 1; i <= n; i++) {
              if (l[i] ~ /^ACTION=/) a = l[i]
              if (l[i] ~ /^DEVPATH=/) { dev = l[i]; sub(/.*\//, "", dev) }
              if (l[i] ~ /^CURRENT_TAGS=.*:cxltier:/) tag = 1 }
          if (tag) print a " " dev }' /tmp/udev-events.txt
    assert_output "ACTION=bind $m"
    # the rule, tested alone: bind and the coldplug add tag it, a plain add does not
    dev=$(readlink -f "$CXL/$m"); dev=${dev#/sys}
    run udevadm test --action=bind "$dev"
    assert_output --regexp "SYSTEMD_WANTS=.*cxltier-hotplug\.service"
    assert_output --regexp "TAGS=.*:cxltier:"
    rules_parsed_clean 90-cxltier.rules   # (a complaint is "FILE:LINE ...", with status 0)
    run udevadm test --action=add "$dev"            # coldplug: bound already
    assert_output --regexp "TAGS=.*:cxltier:"
    assert_output --regexp "SYSTEMD_WANTS=.*cxltier-hotplug\.service"
    # while a watch listens (its mark in root's run directory), systemd is
    # not asked: the tag alone
    mkdir -p -m 0700 /run/cxltier
    echo 4242 > /run/cxltier/hotplug.watch
    run udevadm test --action=bind "$dev"
    rm /run/cxltier/hotplug.watch
    assert_success
    assert_output --regexp "TAGS=.*:cxltier:"
    # (TAGS keeps the tags of the device's earlier events: CURRENT_TAGS is this one's)
    refute_output --regexp "SYSTEMD_WANTS=|CURRENT_TAGS=.*:systemd:"
    kill "$UDEVD_PID" "$MON_PID"
    wait "$UDEVD_PID" "$MON_PID" 2>/dev/null || true
    UDEVD_PID= MON_PID=
    # the unit it wants runs the watch the next test runs once
    [[ -f $UNIT ]] || fail "the unit is not installed in the guest"
    assert_equal "$(unit_command)" "cxltier hotplug --timeout 60"
}

@test "the watch, once (cxltier hotplug --once): the tagged memdev from udev's database, a region over it, its memory online in ZONE_MOVABLE" {
    m=$(cat "$BATS_FILE_TMPDIR/memdev")
    auto=$(cat $MEMSYS/auto_online_blocks)
    echo "# auto_online_blocks: $auto" >&3
    before=$(regions)
    run --separate-stderr $(unit_command) --once
    echo "$stderr" >&3
    # (a kernel that onlines new memory itself is held off meanwhile: the
    # test "... held off, then put back" below)
    assert_success
    [[ $stderr == *"cxltier hotplug: online --policy $m: started (pid "* ]]
    [[ $stderr == *"cxltier hotplug: online --policy $m: done"* ]]
    [[ $stderr =~ "cxltier online: created "(region[0-9]+)" over $m under " ]] || fail "no region created: $stderr"
    r=${BASH_REMATCH[1]}
    [[ " $before " != *" $r "* ]]
    echo "$r" > "$BATS_FILE_TMPDIR/region"
    [[ $(cat $CXL/$r/commit) == 1 && $(cat $CXL/$r/interleave_ways) == 1 ]]
    [[ $(( $(cat $CXL/$r/size) )) == "$SIZE" ]]
    all_movable "$r" || fail "blocks of $r: $(blocks_state "$(vm_dax_of "$r")")"
    node=$(cat /sys/bus/dax/devices/$(vm_dax_of "$r")/target_node)
    [[ $(cat /sys/devices/system/node/node$node/meminfo | awk '/MemTotal/ {print $4}') -ge $(( SIZE / 1024 * 9 / 10 )) ]]
    # a second run (a second event, coldplug) changes nothing
    before=$(regions)
    run --separate-stderr $(unit_command) --once
    assert_success
    [[ $stderr == *"cxltier hotplug: online --policy $m: done"* ]]
    [[ $stderr == *"0 blocks changed"* ]] || fail "$stderr"
    assert_equal "$(regions)" "$before"
}

@test "offline memN --remove: blocks offline, region gone, memdev disabled, device_del completes" {
    m=$(cat "$BATS_FILE_TMPDIR/memdev") r=$(cat "$BATS_FILE_TMPDIR/region")
    run --separate-stderr cxltier offline "$m" --remove -j
    echo "$stderr" >&3
    assert_success
    [[ $(jq -c '.memdevs[0] | [.name, .regions[0].name, .regions[0].state, .disabled, .safe_to_remove]' <<<"$output") == "[\"$m\",\"$r\",\"destroyed\",true,true]" ]]
    [[ $stderr == *"$m: no region left, disabled: safe to remove the card"* ]]
    [[ ! -e $CXL/$r ]]
    [[ ! -e $CXL/$m/driver ]]
    unplug "$m" cxl-mem-hp
    assert_equal "$(ls $CXL | grep '^mem[0-9]' | tr '\n' ' ' | sed 's/ $//')" mem0
}

@test "the same serial again: region, movable; a pinned block named with its pinner; removed after" {
    m=$(vm_hot_add_type3 cxl-mem-hp2 $SERIAL $SIZE)
    run --separate-stderr $(policy_run "$m") -j
    echo "$stderr" >&3
    assert_success
    r=$(jq -r '.new_regions[0].region' <<<"$output")
    all_movable "$r" || fail "blocks of $r: $(blocks_state "$(vm_dax_of "$r")")"
    node=$(cat /sys/bus/dax/devices/$(vm_dax_of "$r")/target_node)
    start_pinner "$node"
    run --separate-stderr cxltier offline "$m" --remove --timeout 4 -j
    echo "$stderr" >&3
    assert_failure 64
    [[ $(jq -c '.memdevs[0] | [.regions[0].state, .disabled, .safe_to_remove]' <<<"$output") == '["busy",false,false]' ]]
    # the pinned block is named, with pin-pages among who has pages there
    b=$(jq -r '.busy_blocks[0].block' <<<"$output")
    [[ " $PINNED " == *" $b "* ]] || fail "busy $b, pinned $PINNED"
    [[ $(jq --argjson p "$PIN_PID" '[.busy_blocks[0].pinned_by[] | select(.pid == $p and .comm == "pin-pages")] | length' <<<"$output") == 1 ]]
    [[ $stderr == *"$b ($r, node $node) stays online"*"$PIN_PID (pin-pages"* ]]
    [[ $stderr == *"$m: NOT safe to remove"* ]]
    # nothing else half done: the region and the memdev are still there
    [[ -e $CXL/$r && -e $CXL/$m/driver ]]
    kill "$PIN_PID"; wait "$PIN_PID" 2>/dev/null || true
    PIN_PID=
    # a second run goes on from there
    run --separate-stderr cxltier offline "$m" --remove -j
    echo "$stderr" >&3
    assert_success
    [[ $(jq -r '.memdevs[0].safe_to_remove' <<<"$output") == true ]]
    unplug "$m" cxl-mem-hp2
}

# has process $1 ended (gone, or a zombie waiting for us)?
ended() { [[ ! -e /proc/$1 || $(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) == Z ]]; }
going_offline() { [[ $(cat $MEMSYS/$1/state) == going-offline ]]; }

@test "offline memN --remove stopped by SIGINT in a pinned block: it ends at once; the blocks not tried are not named busy" {
    m=$(vm_hot_add_type3 cxl-mem-hp5 0x9abf $SIZE)
    run --separate-stderr $(policy_run "$m") -j
    assert_success
    r=$(jq -r '.new_regions[0].region' <<<"$output")
    node=$(cat /sys/bus/dax/devices/$(vm_dax_of "$r")/target_node)
    start_pinner "$node"
    b=${PINNED%% *}
    [[ $b == memory* ]] || fail "pinned: $PINNED"
    cxltier offline "$m" --remove --timeout 120 -j > "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err" 3>&- &
    CX_PID=$!
    wait_for 120 "cxltier to be offlining the pinned $b" going_offline "$b"
    kill -INT "$CX_PID"
    wait_for 20 "cxltier to end after SIGINT" ended "$CX_PID"
    rc=0; wait "$CX_PID" || rc=$?
    CX_PID=
    cat "$BATS_TEST_TMPDIR/err" >&3
    [[ $rc == 1 || $rc == 64 ]] || fail "exit $rc"
    out=$(cat "$BATS_TEST_TMPDIR/out")
    [[ $(jq -c '.memdevs[0] | [.regions[0].state, .disabled, .safe_to_remove]' <<<"$out") == '["interrupted",false,false]' ]] ||
        fail "$out"
    # neither the block it was in nor those after it: no process walk for them
    assert_equal "$(jq '.busy_blocks | length' <<<"$out")" 0
    grep -q "$r: stopped by a signal" "$BATS_TEST_TMPDIR/err"
    [[ -e $CXL/$r && -e $CXL/$m/driver ]]
    kill "$PIN_PID"; wait "$PIN_PID" 2>/dev/null || true
    PIN_PID=
    run --separate-stderr cxltier offline "$m" --remove -j
    assert_success
    unplug "$m" cxl-mem-hp5
}

# every block of the region's dax device online, whatever the zone
all_online() {
    local d b
    d=$(vm_dax_of "$1") || return 1
    [[ -n $(vm_blocks_of "$d") ]] || return 1
    for b in $(vm_blocks_of "$d"); do
        [[ $(cat $MEMSYS/$b/state) == online ]] || return 1
    done
}

@test "a kernel that onlines new memory itself: the policy's region creation holds it off, then puts it back; a killed run's hold is undone by the next, unless written since" {
    cat $MEMSYS/auto_online_blocks > "$BATS_FILE_TMPDIR/auto"
    # a cxltier killed while it held auto-onlining off left this behind
    mkdir -p /run/cxltier; chmod 700 /run/cxltier
    printf 'pid 999999\nstart 5\nvalue online\n' > /run/cxltier/auto-online.held
    echo offline > $MEMSYS/auto_online_blocks
    m=$(vm_hot_add_type3 cxl-mem-hp4 0x9abe $SIZE)
    run --separate-stderr $(policy_run "$m") -j
    echo "$stderr" >&3
    assert_success
    [[ $stderr == *"killed while it held the kernel's own onlining off: auto_online_blocks set back to online"* ]]
    [[ $(jq -r '.new_regions[0].note' <<<"$output") == *"(auto_online_blocks=online) held off meanwhile"* ]]
    r=$(jq -r '.new_regions[0].region' <<<"$output")
    all_movable "$r" || fail "blocks of $r: $(blocks_state "$(vm_dax_of "$r")")"
    assert_equal "$(cat $MEMSYS/auto_online_blocks)" online
    [[ ! -e /run/cxltier/auto-online.held ]]
    # killed again: the record has the time the kernel gave the attribute
    # at that run's write of offline (GNU date: the guest's stat is
    # busybox's); nothing written since: put back
    echo offline > $MEMSYS/auto_online_blocks
    stamp=$(date -r $MEMSYS/auto_online_blocks +%s.%N)
    [[ $stamp =~ ^[0-9]+\.[0-9]{9}$ ]] || fail "no time of last write with nanoseconds: '$stamp'"
    printf 'pid 999999\nstart 5\nvalue online\nwritten %s\n' "$stamp" > /run/cxltier/auto-online.held
    run --separate-stderr cxltier online "$r" -j
    assert_success
    [[ $stderr == *"killed while it held the kernel's own onlining off: auto_online_blocks set back to online"* ]]
    assert_equal "$(cat $MEMSYS/auto_online_blocks)" online
    # killed again, and since then the administrator wrote offline (as
    # cxltier's warning advises): the same value, a later write
    echo offline > $MEMSYS/auto_online_blocks
    stamp=$(date -r $MEMSYS/auto_online_blocks +%s.%N)
    printf 'pid 999999\nstart 5\nvalue online\nwritten %s\n' "$stamp" > /run/cxltier/auto-online.held
    wait_for 10 "a write of offline to get another time than $stamp" rewritten_since "$stamp"
    run --separate-stderr cxltier -v offline "$m" --remove -j
    echo "$stderr" >&3
    assert_success
    [[ $stderr == *"auto_online_blocks has been set since: left as it is"* ]]
    assert_equal "$(cat $MEMSYS/auto_online_blocks)" offline
    [[ ! -e /run/cxltier/auto-online.held ]]
    unplug "$m" cxl-mem-hp4
}

# writes offline to auto_online_blocks; true once its time is not $1
rewritten_since() {
    echo offline > $MEMSYS/auto_online_blocks
    [[ $(date -r $MEMSYS/auto_online_blocks +%s.%N) != "$1" ]]
}

# last in the file: a block the kernel onlined into ZONE_NORMAL can take
# unmovable pages at once (seen on 7.3), and then never leaves
# the kernel's weight of every node cxltier weights shows equals the one it computed
weights_as_computed() {
    jq -e '[.nodes[] | .kernel_weight == .computed_weight] | all' <<<"$(cxltier weights -j)" >/dev/null
}

@test "interleave-weights = yes: a hot-added card's node gets its weight from bandwidth in the same run" {
    local conf=/etc/cxltier.conf saved=$BATS_TEST_TMPDIR/conf node wi=/sys/kernel/mm/mempolicy/weighted_interleave
    cp "$conf" "$saved"
    printf '%s\n' '[defaults]' 'create-region = yes' 'interleave-weights = yes' > "$conf"
    m=$(vm_hot_add_type3 cxl-mem-hp6 0x9ac0 $SIZE)
    run --separate-stderr $(policy_run "$m") -j
    cp "$saved" "$conf"
    echo "$stderr" >&3
    assert_success
    r=$(jq -r '.new_regions[0].region' <<<"$output")
    node=$(cat /sys/bus/dax/devices/$(vm_dax_of "$r")/target_node)
    [[ $stderr == *"interleave weights from bandwidth (the policy): "*"node$node "* ]] || fail "$stderr"
    [[ -e $wi/node$node ]] || fail "no $wi/node$node"
    weights_as_computed || fail "$(cxltier weights -v)"
    cxltier weights -v | sed 's/^/# /' >&3
    run --separate-stderr cxltier offline "$m" --remove -j
    assert_success
    unplug "$m" cxl-mem-hp6
}

@test "the kernel onlining a new device into ZONE_NORMAL itself: each block named (exit 1: nothing changed); --reonline moves it or names what stays" {
    # what 7.x builds with CONFIG_MHP_DEFAULT_ONLINE_TYPE_ONLINE_AUTO do by
    # default (the lab's 7.x kernel boots with offline): set here, restored
    # in teardown; the region made outside the policy (cxltier region
    # create holds nothing off), so the kernel onlines it first
    cat $MEMSYS/auto_online_blocks > "$BATS_FILE_TMPDIR/auto"
    echo online > $MEMSYS/auto_online_blocks
    m=$(vm_hot_add_type3 cxl-mem-hp3 0x9abd $SIZE)
    r=$(cxltier region create "$m" -j | jq -re '.regions[0].name')
    wait_for 120 "the kernel to online $r's blocks itself" all_online "$r"
    run --separate-stderr $(policy_run "$m") -j
    echo "$stderr" >&3
    assert_failure 1     # every block refused, nothing changed
    [[ $stderr == *"auto_online_blocks=online"* ]]
    [[ $stderr == *"refused: online in ZONE_NORMAL"* ]]
    [[ $(jq -r '[.blocks[].action] | unique | join(",")' <<<"$output") == refuse ]]
    # (--timeout 10 after the unit's 60: a block the kernel put unmovable
    # pages in (7.x) is waited for to the end; a block just onlined holds
    # next to nothing, 10 s is ample for the others)
    run --separate-stderr $(policy_run "$m") --reonline --timeout 10 -j
    echo "$stderr" >&3
    [[ $(jq -r '[.blocks[].action] | unique | join(",")' <<<"$output") == reonline_movable ]]
    if (( status == 0 )); then
        all_movable "$r" || fail "blocks of $r: $(blocks_state "$(vm_dax_of "$r")")"
        run --separate-stderr cxltier offline "$m" --remove -j
        assert_success
        unplug "$m" cxl-mem-hp3
    else
        # the kernel put pages it cannot move there: each such block is
        # named, the others are movable, and --remove says it is not safe
        assert_failure 64
        echo "# $(jq -r '[.blocks[] | select(.result != "done") | .block] | join(" ")' <<<"$output") stayed in ZONE_NORMAL" >&3
        [[ $(jq -r '[.blocks[] | select(.result != "done") | .note] | unique | join(";")' <<<"$output") == *"unmovable"* ]]
        run --separate-stderr cxltier offline "$m" --remove --timeout 4 -j
        echo "$stderr" >&3
        assert_failure 64
        [[ $(jq -r '.memdevs[0].safe_to_remove' <<<"$output") == false ]]
        [[ $(jq '.busy_blocks | length' <<<"$output") -ge 1 ]]
    fi
}
