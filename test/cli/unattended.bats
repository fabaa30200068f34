#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# cxltier runs as root from udev and systemd with nobody watching: what it
# writes goes only where it was told (no symlink on the way, no directory
# another user owns), what a killed run left behind is cleaned up by the
# next one, and an error while planning a change is never taken for
# "nothing to do".
load helper

prom() { # DIR: a metrics run writing DIR/cxltier.prom (run by the tests, which assert its status)
    cxltier metrics --sysroot "$(fixture lab-region-online)" --output-file "$1/cxltier.prom"
}

@test "metrics --output-file: a symbolic link to a directory, last on the path: refused, nothing written where it points" {
    mkdir -m 0755 "$BATS_TEST_TMPDIR/real"
    ln -s "$BATS_TEST_TMPDIR/real" "$BATS_TEST_TMPDIR/link"
    run --separate-stderr prom "$BATS_TEST_TMPDIR/link"
    assert_failure 1
    [[ $stderr == *"$BATS_TEST_TMPDIR/link"*"symbolic link"* ]] || fail "$stderr"
    assert_equal "$(ls -A "$BATS_TEST_TMPDIR/real")" ''
}

@test "metrics --output-file: a symbolic link earlier on the path: refused, nothing written where it points" {
    mkdir -p -m 0755 "$BATS_TEST_TMPDIR/real/node-exporter"
    ln -s "$BATS_TEST_TMPDIR/real" "$BATS_TEST_TMPDIR/link"
    run --separate-stderr prom "$BATS_TEST_TMPDIR/link/node-exporter"
    assert_failure 1
    [[ $stderr == *"symbolic link"*"give the real path"* ]] || fail "$stderr"
    assert_equal "$(ls -A "$BATS_TEST_TMPDIR/real/node-exporter")" ''
}

@test "metrics --output-file: a directory owned by another user is refused, naming the owner and what to do" {
    mkdir -m 0755 "$BATS_TEST_TMPDIR/theirs"
    chown 65534 "$BATS_TEST_TMPDIR/theirs"
    run --separate-stderr prom "$BATS_TEST_TMPDIR/theirs"
    assert_failure 1
    [[ $stderr == *"$BATS_TEST_TMPDIR/theirs is owned by uid 65534"*"chown root"* ]] || fail "$stderr"
    assert_equal "$(ls -A "$BATS_TEST_TMPDIR/theirs")" ''
}

@test "metrics --output-file: a directory of root's, on a path of real directories, is written as before" {
    mkdir -p -m 0755 "$BATS_TEST_TMPDIR/var/lib/node-exporter"
    chown 65534 "$BATS_TEST_TMPDIR/var/lib"	# as Debian's /var/lib/prometheus: not on the path's end
    run --separate-stderr prom "$BATS_TEST_TMPDIR/var/lib/node-exporter"
    assert_success
    assert_equal "$(ls -A "$BATS_TEST_TMPDIR/var/lib/node-exporter")" cxltier.prom
    assert_equal "$(stat -c %a "$BATS_TEST_TMPDIR/var/lib/node-exporter/cxltier.prom")" 644
}

# a `flock` holding FILE in the background, as a run that is writing it
# (it waits for the lock: the check below holds it for a moment too)
hold_lock() { # FILE
    flock "$1" sleep 60 3>&- &
    HOLDER=$!
    local tries=0
    while flock -n "$1" true; do
        (( ++tries < 6000 )) || fail "flock never took $1"
        sleep 0.01
    done
}

teardown() {
    [[ -z ${HOLDER:-} ]] || kill "$HOLDER" 2>/dev/null || true
}

@test "metrics --output-file: a killed run's temporary file is removed by the next run; a running one's and others' stay" {
    local dir=$BATS_TEST_TMPDIR/out
    mkdir -m 0755 "$dir"
    echo partial > "$dir/.cxltier.prom.0123456789abcdef"		# a killed run's
    echo writing > "$dir/.cxltier.prom.fedcba9876543210"		# a running one's
    hold_lock "$dir/.cxltier.prom.fedcba9876543210"
    # not ours to remove: another name, another pattern, a link, a
    # directory, another user's file
    echo a > "$dir/.other.prom.0123456789abcdef"
    echo b > "$dir/.cxltier.prom.0123"
    echo c > "$dir/.cxltier.prom.0123456789abcdeX"
    echo d > "$dir/.cxltier.prom.0123456789abcdef0"
    echo e > "$dir/cxltier.prom.0123456789abcdef"
    echo f > "$BATS_TEST_TMPDIR/target"
    ln -s "$BATS_TEST_TMPDIR/target" "$dir/.cxltier.prom.1111111111111111"
    mkdir "$dir/.cxltier.prom.2222222222222222"
    echo g > "$dir/.cxltier.prom.3333333333333333"
    chown 65534 "$dir/.cxltier.prom.3333333333333333"
    before=$(ls -A "$dir" | grep -v '^\.cxltier\.prom\.0123456789abcdef$' | sort)
    run --separate-stderr prom "$dir"
    assert_success
    [[ ! -e $dir/.cxltier.prom.0123456789abcdef ]] || fail "the killed run's temporary file is still there"
    assert_equal "$(cat "$dir/.cxltier.prom.fedcba9876543210")" writing
    assert_equal "$(ls -A "$dir" | grep -v '^cxltier\.prom$' | sort)" "$before"
    assert_equal "$(cat "$BATS_TEST_TMPDIR/target")" f
    [[ -L $dir/.cxltier.prom.1111111111111111 && -d $dir/.cxltier.prom.2222222222222222 ]]
}

@test "online --policy: a block of the device whose state cannot be read fails the run, naming it" {
    # (read when the topology is loaded, before the policy plans; a state
    # that goes bad between the two is test/unit/test-policy-plan.c's)
    cp -a "$(fixture lab-region-offline)" "$BATS_TEST_TMPDIR/t"
    local state=$BATS_TEST_TMPDIR/t/sys/devices/system/memory/memory36/state
    rm "$state"
    mkdir "$state"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" online --policy --config /dev/null dax0.0 --dry-run
    assert_failure 1
    [[ $stderr == *"memory36/state"* ]] || fail "$stderr"
}
