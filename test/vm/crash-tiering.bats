#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-build: crash-points -- CXLTIER_CRASH_AT kills cxltier at its Nth kernel write (meson -Dcrash_points=true)
# vm-boot-group: crash-blocks
# `cxltier tiering` killed at each of its kernel writes (before the first,
# between two): its record stays, doctor says it, and the next run that
# takes the lock sets the switches it wrote back, so that the kernel ends
# with the old settings; then that run's own change is made.
load crash

@test "tiering killed before its first write and between its writes: the record stays, doctor says it, the next run sets the switches back to the old settings" {
    local dem=/sys/kernel/mm/numa/demotion_enabled bal=/proc/sys/kernel/numa_balancing
    local rate=/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps n log saved
    saved="$(cat $dem) $(cat $bal) $(cat $rate)"
    for n in 1 2 3; do
        echo 0 > $dem; echo 0 > $bal; echo 65536 > $rate
        log=$BATS_TEST_TMPDIR/tiering-$n.log
        CXLTIER_CRASH_AT=$n CXLTIER_CRASH_LOG=$log run cxltier tiering --demotion on --balancing tiering --promote-rate 1000
        assert_equal "$status" 137
        # its writes in order, the Nth killed before it was written
        assert_equal "$(cut -d' ' -f2- "$log" | tr '\n' ';')" \
            "$(printf '%s;' "$dem = 1" "$bal = 2" "$rate = 1000" | cut -d';' -f1-$n);"
        assert_equal "$(cat $dem) $(cat $bal) $(cat $rate)" \
            "$(case $n in 1) echo "false 0 65536" ;; 2) echo "true 0 65536" ;; 3) echo "true 2 65536" ;; esac)"
        ls /run/cxltier/region-change.* > /dev/null
        run --separate-stderr cxltier doctor -j
        assert_equal "$(jq -r '[.findings[] | select(.check == "tiering-change") | .status] | join(",")' <<<"$output")" problem
        # another change: the killed one set back first (the old settings),
        # then its own
        run --separate-stderr cxltier tiering --promote-rate 2000
        assert_success
        [[ $stderr == *"a change of the tiering switches (pid "*") was killed midway: undone: "* ]] || fail "N=$n: $stderr"
        assert_equal "$(cat $dem) $(cat $bal) $(cat $rate)" "false 0 2000"
        ! ls /run/cxltier/region-change.* 2>/dev/null
        echo "# N=$n ($(killed_at "$log")): $(one_line "$stderr")" >&3
    done
    read -r d b r <<<"$saved"
    echo "$d" > $dem; echo "$b" > $bal; echo "$r" > $rate
}
