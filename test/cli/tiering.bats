#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier tiering` on captured trees: the kernel's tiering switches shown,
# set (each file written as the kernel takes it), refused, and a change that
# fails or was killed midway set back (the real kernel: test/vm/tiering.bats).
load helper

DEM=sys/kernel/mm/numa/demotion_enabled
BAL=proc/sys/kernel/numa_balancing
RATE=proc/sys/kernel/numa_balancing_promote_rate_limit_MBps

# t= a copy of the onlined lab tree (demotion false, balancing 0, rate 65536)
tree() {
    t=$BATS_TEST_TMPDIR/t
    cp -a "$(fixture lab-region-online)" "$t"
}

switches() { echo "$(cat "$t/$DEM") $(cat "$t/$BAL") $(cat "$t/$RATE")"; }

@test "tiering: the three switches shown as the kernel's files hold them, table and JSON" {
    tree
    run --separate-stderr cxltier --sysroot "$t" tiering
    assert_success
    assert_line --index 0 --regexp '^SWITCH +VALUE +KERNEL$'
    assert_line --index 1 --regexp '^demotion +off +0$'
    assert_line --index 2 --regexp '^balancing +off +0$'
    assert_line --index 3 --regexp '^promote-rate +65536 MB/s +65536$'
    echo 1 > "$t/$DEM"; echo 3 > "$t/$BAL"
    run --separate-stderr cxltier --sysroot "$t" tiering -j
    assert_success
    assert_equal "$(jq -c '[.switches[] | [.name, .value, .kernel_value]]' <<<"$output")" \
        '[["demotion","on",1],["balancing","normal+tiering",3],["promote-rate","65536 MB/s",65536]]'
    assert_equal "$(jq -r '.switches[1].file' <<<"$output")" /proc/sys/kernel/numa_balancing
}

@test "tiering: each switch set, written as the kernel takes it, read back; no record left" {
    tree
    run --separate-stderr cxltier --sysroot "$t" tiering --demotion on --balancing tiering --promote-rate 1G/s -j
    assert_success
    assert_equal "$(switches)" "1 2 1024"
    assert_equal "$(jq -c '[.switches[] | [.name, .was, .asked, .value, .result]]' <<<"$output")" \
        '[["demotion","off","on","on","changed"],["balancing","off","tiering","tiering","changed"],["promote-rate","65536 MB/s","1024 MB/s","1024 MB/s","changed"]]'
    [[ -f $t/run/cxltier/memory-blocks.lock ]]
    assert_equal "$(ls "$t/run/cxltier")" memory-blocks.lock
    run --separate-stderr cxltier --sysroot "$t" tiering --balancing normal+tiering --demotion off --promote-rate 0
    assert_success
    assert_equal "$(switches)" "0 3 0"
    assert_line --index 0 --regexp '^SWITCH +WAS +ASKED +VALUE +RESULT$'
    assert_line --index 2 --regexp '^balancing +tiering +normal\+tiering +normal\+tiering +changed$'
}

@test "tiering: a switch already as asked is unchanged and not written" {
    tree
    echo 2 > "$t/$BAL"
    run --separate-stderr cxltier --sysroot "$t" tiering --balancing tiering --demotion off -j
    assert_success
    assert_equal "$(jq -r '[.switches[].result] | join(",")' <<<"$output")" unchanged,unchanged
    # nothing to change: no record, no write (false stays false, not 0)
    assert_equal "$(cat "$t/$DEM")" false
}

@test "tiering --dry-run: says each write, writes nothing, takes no lock" {
    tree
    before=$(switches)
    run --separate-stderr cxltier --sysroot "$t" tiering --demotion on --balancing normal+tiering --promote-rate 512M --dry-run -j
    assert_success
    assert_equal "$(switches)" "$before"
    [[ ! -e $t/run/cxltier ]]
    assert_equal "$(jq -r '[.switches[].result] | join(",")' <<<"$output")" planned,planned,planned
    [[ $stderr == *"would write 1 to $t/$DEM (now 0)"* ]] || fail "$stderr"
    [[ $stderr == *"would write 3 to $t/$BAL (now 0)"* ]] || fail "$stderr"
    [[ $stderr == *"would write 512 to $t/$RATE (now 65536)"* ]] || fail "$stderr"
    [[ $stderr == *"nothing was changed"* ]]
}

@test "tiering: values the kernel would refuse are refused before anything is read or written" {
    tree
    before=$(switches)
    for bad in "--balancing 4" "--balancing tier" "--demotion yes" "--promote-rate -1" \
               "--promote-rate 2147483648" "--promote-rate 1GB" "--promote-rate 1.5" "--promote-rate /s" "--dry-run"; do
        # shellcheck disable=SC2086
        run --separate-stderr cxltier --sysroot "$t" tiering $bad
        assert_failure 2
        [[ -n $stderr ]] || fail "$bad: nothing said"
    done
    assert_equal "$(switches)" "$before"
    run --separate-stderr cxltier --sysroot "$t" tiering --promote-rate 2147483647 --dry-run -j
    assert_success
    assert_equal "$(jq -r '.switches[0].asked' <<<"$output")" "2147483647 MB/s"
    # an unknown column: refused before anything is written
    run --separate-stderr cxltier --sysroot "$t" tiering --demotion on -o SWITCH,FOO
    assert_failure 2
    assert_equal "$(switches)" "$before"
    run --separate-stderr cxltier --sysroot "$t" tiering --promote-rate 1GB
    assert_failure 2
    [[ $stderr == *"--promote-rate 1GB: not a rate"*"whole MiB"* ]] || fail "$stderr"
}

@test "tiering: a kernel without a switch's file is unsupported (77), naming the file and what it lacks; nothing written" {
    tree
    rm "$t/$BAL"
    run --separate-stderr cxltier --sysroot "$t" tiering --demotion on --balancing tiering
    assert_failure 77
    [[ $stderr == *"--balancing: $t/$BAL is not there: this kernel has no NUMA balancing (CONFIG_NUMA_BALANCING)"* ]] || fail "$stderr"
    assert_equal "$(cat "$t/$DEM")" false
    rm "$t/$RATE" "$t/$DEM"
    run --separate-stderr cxltier --sysroot "$t" tiering --promote-rate 10 --demotion off
    assert_failure 77
    [[ $stderr == *"numa_balancing_promote_rate_limit_MBps is not there: this kernel has no promotion rate limit (Linux 6.0"* ]] || fail "$stderr"
    [[ $stderr == *"demotion_enabled is not there: this kernel has no demotion switch"* ]] || fail "$stderr"
    # shown as unsupported, not as a failure
    run --separate-stderr cxltier --sysroot "$t" tiering -j
    assert_success
    assert_equal "$(jq -c '[.switches[] | [.value, has("kernel_value")]]' <<<"$output")" \
        '[["unsupported",false],["unsupported",false],["unsupported",false]]'
}

@test "tiering: a write that fails sets back what was written before it; exit 1, the file named" {
    tree
    # a symlink is read (inside the root) but never written (O_NOFOLLOW):
    # the third write fails after the first two were done
    mv "$t/$RATE" "$t/rate.real"
    ln -s ../../../rate.real "$t/$RATE"
    run --separate-stderr cxltier --sysroot "$t" tiering --demotion on --balancing tiering --promote-rate 100 -j
    assert_failure 1
    [[ $stderr == *"numa_balancing_promote_rate_limit_MBps: it is a symbolic link"*"what was written before it was set back"* ]] || fail "$stderr"
    assert_equal "$(jq -c '[.switches[] | [.name, .result, .value]]' <<<"$output")" \
        '[["demotion","rolled back","off"],["balancing","rolled back","off"],["promote-rate","failed","65536 MB/s"]]'
    assert_equal "$(cat "$t/$DEM") $(cat "$t/$BAL") $(cat "$t/rate.real")" "0 0 65536"
    assert_equal "$(ls "$t/run/cxltier")" memory-blocks.lock
}

@test "tiering: a switch that cannot be read is not written (its old value could not be set back)" {
    tree
    rm "$t/$BAL"; mkdir "$t/$BAL"
    run --separate-stderr cxltier --sysroot "$t" tiering --demotion on --balancing tiering
    assert_failure 1
    [[ $stderr == *"--balancing: $t/$BAL cannot be read"*"nothing was changed"* ]] || fail "$stderr"
    assert_equal "$(cat "$t/$DEM")" false
}

@test "tiering: a run killed between two writes is found by the next run, said, and set back" {
    tree
    # as a run killed after its first write leaves it: demotion written,
    # balancing not yet, its record naming both (its pid gone)
    mkdir -p -m 0700 "$t/run/cxltier"
    printf 'pid 999999\nstart 0\ncommand tiering\ndemotion 0 1\nbalancing 0 2\n' > "$t/run/cxltier/region-change.999999"
    echo 1 > "$t/$DEM"
    run --separate-stderr cxltier --sysroot "$t" doctor -j
    assert_failure 1
    assert_equal "$(jq -r '[.findings[] | select(.check == "tiering-change") | .object] | join(",")' <<<"$output")" tiering
    run --separate-stderr cxltier --sysroot "$t" tiering --promote-rate 100 -j
    assert_success
    [[ $stderr == *"a change of the tiering switches (pid 999999) was killed midway: undone: balancing was still 0, demotion set back to 0"* ]] || fail "$stderr"
    assert_equal "$(jq -c '.recovered[0] | [.pid, .command, .outcome]' <<<"$output")" '[999999,"tiering","undone"]'
    assert_equal "$(switches)" "0 0 100"
    [[ ! -e $t/run/cxltier/region-change.999999 ]]
    run --separate-stderr cxltier --sysroot "$t" doctor -j
    assert_success
    assert_equal "$(jq '[.findings[] | select(.check == "tiering-change")] | length' <<<"$output")" 0
}

@test "tiering: a killed run's switch set to a third value since is left; online sets back the rest too" {
    tree
    mkdir -p -m 0700 "$t/run/cxltier"
    printf 'pid 999999\nstart 0\ncommand tiering\ndemotion 0 1\nbalancing 0 2\n' > "$t/run/cxltier/region-change.999999"
    echo 1 > "$t/$DEM"; echo 3 > "$t/$BAL"
    run --separate-stderr cxltier --sysroot "$t" online all
    assert_success
    [[ $stderr == *"undone: balancing is 3, set since: left as it is, demotion set back to 0"* ]] || fail "$stderr"
    assert_equal "$(switches)" "0 3 65536"
}

@test "tiering: a record that is not one as cxltier writes it is refused, named" {
    tree
    mkdir -p -m 0700 "$t/run/cxltier"
    printf 'pid 999999\nstart 0\ncommand tiering\ndemotion 0 1\ndemotion 0 1\n' > "$t/run/cxltier/region-change.999999"
    run --separate-stderr cxltier --sysroot "$t" tiering --demotion on
    assert_failure 1
    [[ $stderr == *"region-change.999999 is not a record"* ]] || fail "$stderr"
    assert_equal "$(cat "$t/$DEM")" false
}

@test "tiering: not root: permission said as permission; --dry-run still says what it would do" {
    LOCKTMP=$(mktemp -d "${TMPDIR:-/tmp}/cxltier-tiering.XXXXXX")
    chmod 755 "$LOCKTMP"
    cp -a "$(fixture lab-region-online)" "$LOCKTMP/t"
    chmod 755 "$LOCKTMP/t"
    t=$LOCKTMP/t
    run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$CXLTIER" --sysroot "$t" tiering --demotion on
    rm_tmp=$LOCKTMP
    assert_failure 1
    [[ $stderr == *"permission denied"*"run it as root"* ]] || fail "$stderr"
    run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$CXLTIER" --sysroot "$t" tiering --demotion on --dry-run
    assert_success
    assert_equal "$(cat "$t/$DEM")" false
    rm -rf "$rm_tmp"
}
