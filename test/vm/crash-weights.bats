#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-args: --ram-node 512M
# vm-build: crash-points -- CXLTIER_CRASH_AT kills cxltier at its Nth kernel write (meson -Dcrash_points=true)
# `cxltier weights --set` killed (SIGKILL) on entering each of its node
# writes in turn; after each, the next run finds the record, says it, and
# the kernel holds the old set or the new one, never a mix.
load helper

WI=/sys/kernel/mm/mempolicy/weighted_interleave

ram_node() {
    local n
    for n in /sys/devices/system/node/node*; do
        [[ -z $(cat $n/cpulist) ]] && grep -q 'MemTotal: *[1-9]' $n/meminfo && { basename $n | sed 's/node//'; return; }
    done
}

setup() {
    N=$(ram_node)
    [[ -n $N ]] || fail "no cpu-less RAM node (vm-args --ram-node)"
}

teardown() { rm -rf /run/cxltier; }

pair() { echo "$(cat $WI/node0) $(cat $WI/node$N)"; }

@test "weights --set killed at each node write: the next run puts the old set back and says it" {
    local k log=$BATS_TEST_TMPDIR/crash.log bad=
    for k in 1 2; do
        cxltier weights --set "0=3,$N=1" > /dev/null
        rm -f "$log"
        run --separate-stderr env CXLTIER_CRASH_AT=$k CXLTIER_CRASH_LOG="$log" cxltier weights --set "0=5,$N=2"
        assert_failure 137
        echo "# killed at write $k: $(tail -1 "$log" | cut -d' ' -f2-); the kernel then: $(pair)" >&3
        (( k == 1 )) && assert_equal "$(pair)" "3 1"
        (( k == 2 )) && assert_equal "$(pair)" "5 1"   # the mix a kill leaves
        [[ -n $(compgen -G "/run/cxltier/weights-change.*") ]] || fail "write $k: no record left"
        run --separate-stderr cxltier weights --set "$N=1"
        assert_success
        echo "#   next run: $stderr" >&3
        [[ $stderr == *"(pid "*"): its old set put back"* ]] || bad+=" $k"
        assert_equal "$(pair)" "3 1"
        [[ -z $(compgen -G "/run/cxltier/weights-change.*") ]] || fail "write $k: the record is left"
    done
    [[ -z $bad ]] || fail "not said after the kill at:$bad"
    # killed after its last write: nothing to put back, the new set whole
    run env CXLTIER_CRASH_AT=3 cxltier weights --set "0=5,$N=2"
    assert_success
    assert_equal "$(pair)" "5 2"
}
