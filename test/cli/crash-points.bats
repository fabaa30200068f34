#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The test-only crash points (meson -Dcrash_points=true, lib/core/crash-point.h)
# on a captured tree: in a build with them, CXLTIER_CRASH_AT=N kills the run
# on entering its Nth write, before it is written, and CXLTIER_CRASH_LOG lists
# the writes; in a build without them (the package's), neither is read.
load helper

built_with_crash_points() { grep -qx '#define CXLTIER_CRASH_POINTS 1' "$CXLTIER_BUILD/config.h"; }

@test "crash points: the config says whether the build has them, and the binary agrees" {
    [[ -f $CXLTIER_BUILD/config.h ]] || fail "no $CXLTIER_BUILD/config.h"
    grep -qE '^#define CXLTIER_CRASH_POINTS [01]$' "$CXLTIER_BUILD/config.h" ||
        fail "config.h does not say CXLTIER_CRASH_POINTS 0 or 1"
    if built_with_crash_points; then
        grep -qa CXLTIER_CRASH_AT "$CXLTIER" || fail "built with crash points, yet $CXLTIER never reads CXLTIER_CRASH_AT"
    else
        # compiled to nothing: the binary does not even name the variable
        ! grep -qa CXLTIER_CRASH_AT "$CXLTIER" || fail "built without crash points, yet $CXLTIER names CXLTIER_CRASH_AT"
    fi
}

@test "crash points: CXLTIER_CRASH_AT=N kills region create on entering its Nth write, unwritten, the log naming each; without them neither is read" {
    local t log=$BATS_TEST_TMPDIR/crash.log full n line path val
    t=$(fake_region_tree --bound)
    run --separate-stderr env CXLTIER_CRASH_LOG="$log" "$CXLTIER" --sysroot "$t" region create mem0 mem1
    assert_success
    if ! built_with_crash_points; then
        [[ ! -e $log ]] || fail "a build without crash points wrote $log: $(cat "$log")"
        t=$(fake_region_tree --bound)
        run --separate-stderr env CXLTIER_CRASH_AT=1 "$CXLTIER" --sysroot "$t" region create mem0 mem1
        assert_success
        return
    fi
    # every write of the run, numbered: create_ram_region first, bind last
    full=$(cat "$log")
    (( $(wc -l <<<"$full") >= 8 )) || fail "a 2-way create logged fewer than 8 writes: $full"
    assert_equal "$(sed -n 1p <<<"$full")" "1 /sys/bus/cxl/devices/decoder0.0/create_ram_region = region0"
    assert_equal "$(tail -1 <<<"$full" | cut -d' ' -f2-)" "/sys/bus/cxl/drivers/cxl_region/bind = region0"
    # killed at the region's size: the writes before it done, it not
    line=$(grep -m1 '^[0-9]* /sys/bus/cxl/devices/region0/size = ' <<<"$full") || fail "no size write: $full"
    n=${line%% *} path=${line#* }; path=${path%% = *} val=${line##* = }
    t=$(fake_region_tree --bound)
    rm -f "$log"
    run --separate-stderr env CXLTIER_CRASH_AT="$n" CXLTIER_CRASH_LOG="$log" "$CXLTIER" --sysroot "$t" region create mem0 mem1
    assert_equal "$status" 137
    assert_equal "$(cat "$log")" "$(head -n "$n" <<<"$full")"
    assert_equal "$(cat "$t/sys/bus/cxl/devices/region0/interleave_ways")" 2   # (written before it)
    [[ $(cat "$t$path") != "$val" ]] || fail "$path holds $val: the write the run was killed at was made"
}

# the catchable signals a run gets from outside (HUP: the ssh session or the
# terminal gone; QUIT; TERM: a unit stopped; INT), delivered between a
# --reonline's two halves: the block was offlined, and is onlined movable
# before the run stops (uncaught, HUP and QUIT left it offline, its memory
# lost to the system)
@test "crash points: HUP, QUIT, TERM or INT between --reonline's offline and online halves: the online half is made, the run stops saying so" {
    built_with_crash_points || skip "no crash points in this build (the ASan/UBSan tier's build has them)"
    local t sig log
    for sig in HUP QUIT TERM INT; do
        t=$BATS_TEST_TMPDIR/t-$sig log=$BATS_TEST_TMPDIR/crash-$sig.log
        cp -a "$(fixture lab-region-online)" "$t"
        echo Normal > "$t/sys/devices/system/memory/memory36/valid_zones"
        run --separate-stderr env CXLTIER_CRASH_AT=2 CXLTIER_CRASH_SIGNAL=$sig CXLTIER_CRASH_LOG="$log" \
            "$CXLTIER" --sysroot "$t" online memory36 --reonline -j
        # (the tree's zone does not move: the block reads back in Normal, failed)
        assert_failure 1
        assert_equal "$(cut -d' ' -f2- "$log")" "/sys/devices/system/memory/memory36/state = offline
/sys/devices/system/memory/memory36/state = online_movable"
        assert_equal "$(cat "$t/sys/devices/system/memory/memory36/state")" online_movable
        [[ $stderr == *"stopped by a signal"* ]] || fail "SIG$sig: not said: $stderr"
    done
}

# SIGKILL (which no handler sees) between --reonline's two halves: the
# block is left offline with the run's record, and the next changing run
# onlines it movable (lib/change/region-recover.c)
@test "crash points: --reonline killed at each of its writes: the record left when the block was offlined, and the next run onlines it movable" {
    built_with_crash_points || skip "no crash points in this build (the ASan/UBSan tier's build has them)"
    local t m n
    for n in 1 2; do
        t=$BATS_TEST_TMPDIR/t-$n m=$BATS_TEST_TMPDIR/t-$n/sys/devices/system/memory
        cp -a "$(fixture lab-region-online)" "$t"
        echo Normal > "$m/memory36/valid_zones"
        run --separate-stderr env CXLTIER_CRASH_AT=$n "$CXLTIER" --sysroot "$t" online memory36 --reonline -j
        assert_failure 137
        if (( n == 1 )); then
            # killed before the offline was written: the block as it was, and
            # the record (written first) says a block that is online: left
            assert_equal "$(cat "$m/memory36/state")" online
        else
            assert_equal "$(cat "$m/memory36/state")" offline
        fi
        ls "$t/run/cxltier/" | grep -qx 'region-change\.[0-9]*' || fail "N=$n: no record left"
        grep -qx 'command reonline' "$t"/run/cxltier/region-change.* || fail "N=$n: not a reonline's record"
        run --separate-stderr "$CXLTIER" --sysroot "$t" online memory37 -j
        assert_success
        if (( n == 1 )); then
            assert_equal "$(jq -r '.recovered[0] | [.block, .outcome] | join(" ")' <<<"$output")" "memory36 left"
            assert_equal "$(cat "$m/memory36/state")" online
        else
            assert_equal "$(jq -r '.recovered[0] | [.block, .outcome, .done] | join(" ")' <<<"$output")" \
                "memory36 finished memory36 onlined movable"
            assert_equal "$(cat "$m/memory36/state")" online_movable
        fi
        ! ls "$t/run/cxltier/" | grep -q 'region-change' || fail "N=$n: the record is still there"
    done
}
