#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: ram-node
# vm-args: --ram-node 512M
# `cxltier tiering` against the real kernel: each switch set and read back
# from the kernel's own files, --dry-run changing nothing, a user without
# the right refused as such (the doctor's findings: doctor.bats, where a
# region is online; a kill between two writes: crash-blocks.bats).
load helper

DEM=/sys/kernel/mm/numa/demotion_enabled
BAL=/proc/sys/kernel/numa_balancing
RATE=/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps

setup_file() {
    echo "$(cat $DEM) $(cat $BAL) $(cat $RATE)" > "$BATS_FILE_TMPDIR/switches"
}

# the kernel's settings as the boot had them, whatever a test did
teardown() {
    local d b r
    read -r d b r < "$BATS_FILE_TMPDIR/switches"
    echo "$d" > $DEM; echo "$b" > $BAL; echo "$r" > $RATE
    rm -rf /run/cxltier
}

@test "tiering shows the switches as the kernel holds them" {
    echo 0 > $DEM; echo 1 > $BAL; echo 4096 > $RATE
    run --separate-stderr cxltier tiering -j
    assert_success
    assert_equal "$(jq -c '[.switches[] | [.name, .value, .kernel_value]]' <<<"$output")" \
        '[["demotion","off",0],["balancing","normal",1],["promote-rate","4096 MB/s",4096]]'
}

@test "each switch set and read back by the kernel: demotion, every balancing mode, the rate" {
    echo 0 > $DEM; echo 0 > $BAL; echo 65536 > $RATE
    run --separate-stderr cxltier tiering --demotion on -j
    assert_success
    assert_equal "$(cat $DEM)" true
    assert_equal "$(jq -r '.switches[0] | "\(.was) \(.value) \(.result)"' <<<"$output")" "off on changed"
    run --separate-stderr cxltier tiering --demotion off
    assert_success
    assert_equal "$(cat $DEM)" false
    local mode n=0
    for mode in normal tiering normal+tiering off; do
        n=$(( n + 1 )); [[ $mode == off ]] && n=0
        run --separate-stderr cxltier tiering --balancing "$mode" -j
        assert_success
        assert_equal "$(cat $BAL) $(jq -r '.switches[0].value' <<<"$output")" "$n $mode"
    done
    run --separate-stderr cxltier tiering --promote-rate 1G/s --balancing tiering --demotion on
    assert_success
    assert_equal "$(cat $DEM) $(cat $BAL) $(cat $RATE)" "true 2 1024"
    run --separate-stderr cxltier tiering --promote-rate 0
    assert_success
    assert_equal "$(cat $RATE)" 0
    # no record is left behind
    assert_equal "$(ls /run/cxltier | grep -c region-change || true)" 0
}

@test "tiering --dry-run says each write and changes nothing in the kernel" {
    echo 0 > $DEM; echo 1 > $BAL; echo 65536 > $RATE
    run --separate-stderr cxltier tiering --demotion on --balancing normal+tiering --promote-rate 100 --dry-run -j
    assert_success
    assert_equal "$(cat $DEM) $(cat $BAL) $(cat $RATE)" "false 1 65536"
    assert_equal "$(jq -r '[.switches[].result] | join(",")' <<<"$output")" planned,planned,planned
    [[ $stderr == *"would write 3 to /proc/sys/kernel/numa_balancing (now 1)"* ]] || fail "$stderr"
}

@test "a user without the right is refused as such, nothing written; root's same run goes" {
    echo 0 > $DEM
    run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups cxltier tiering --demotion on
    assert_failure 1
    [[ $stderr == *"permission denied"*"run it as root"* ]] || fail "$stderr"
    assert_equal "$(cat $DEM)" false
    run --separate-stderr cxltier tiering --demotion on
    assert_success
    assert_equal "$(cat $DEM)" true
}
