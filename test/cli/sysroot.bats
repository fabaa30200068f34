#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# --sysroot confines: a captured tree is data, and nothing in it -- an
# absolute symlink, a "..", a link planted as an attribute or as the lock
# file -- may make cxltier read or write outside it. The trees are the lab
# fixture with hostile links planted by each test; OUT is a directory beside
# the tree, standing for the rest of the system.
load helper

MEM=sys/devices/system/memory

setup() {
    T=$BATS_TEST_TMPDIR/tree OUT=$BATS_TEST_TMPDIR/outside
    mkdir -p "$T" "$OUT"
    tar -xzf "$FIXTURES/lab-region-offline.tar.gz" -C "$T"
}

# an outside copy of memory34 whose state would take the write
outside_block() {
    mkdir -p "$OUT/memory34"
    cp -a "$T/$MEM/memory34/." "$OUT/memory34/"
    echo offline > "$OUT/memory34/state"
}

@test "an attribute that is an absolute symlink out of the tree: online writes nothing outside" {
    echo offline > "$OUT/state"
    ln -sfn "$OUT/state" "$T/$MEM/memory34/state"
    run --separate-stderr cxltier --sysroot "$T" online memory34-34
    assert_failure 1
    assert_equal "$(cat "$OUT/state")" offline
}

@test "an attribute linking out through '..': online writes nothing outside" {
    echo offline > "$OUT/state"
    # memory34 is six levels below the tree: a seventh '..' would leave it
    ln -sfn ../../../../../../outside/state "$T/$MEM/memory34/state"
    run --separate-stderr cxltier --sysroot "$T" online memory34-34
    assert_failure 1
    assert_equal "$(cat "$OUT/state")" offline
}

@test "a block directory that is an absolute symlink out of the tree: online writes nothing outside" {
    outside_block
    rm -rf "$T/$MEM/memory34"
    ln -s "$OUT/memory34" "$T/$MEM/memory34"
    run --separate-stderr cxltier --sysroot "$T" online memory34-34
    assert_failure 1
    assert_equal "$(cat "$OUT/memory34/state")" offline
}

@test "the memory directory linking out through '..': nothing outside is listed or written" {
    mkdir -p "$BATS_TEST_TMPDIR/sys/devices/system"
    mv "$T/$MEM" "$BATS_TEST_TMPDIR/sys/devices/system/memory"
    # from sys/devices/system, three '..' reach the tree's top, a fourth leaves it
    ln -s ../../../../sys/devices/system/memory "$T/$MEM"
    run --separate-stderr cxltier --sysroot "$T" online all
    # inside the tree the link leads back to itself: refused as what it is (a
    # loop, the path named), not taken for a kernel without memory hotplug (77)
    assert_failure 1
    assert_equal "$stderr" "cxltier online: error: cannot read $T/sys/devices/system/memory/block_size_bytes: Too many levels of symbolic links"
    assert_equal "$(cat "$BATS_TEST_TMPDIR/sys/devices/system/memory/memory34/state")" offline
}

@test "a memdev attribute linking out of the tree is not read" {
    printf '0xdead\n' > "$OUT/serial"
    real=$(cd "$T/sys/bus/cxl/devices/mem0" && pwd -P)
    ln -sfn "$OUT/serial" "$real/serial"
    run --separate-stderr cxltier --sysroot "$T" list -j
    assert_success
    refute_output --partial 57005
}

@test "the lock file planted as a symlink out of the tree: nothing outside is truncated" {
    echo precious > "$OUT/victim"
    mkdir -p -m 0700 "$T/run/cxltier"
    ln -s "$OUT/victim" "$T/run/cxltier/memory-blocks.lock"
    run --separate-stderr cxltier --sysroot "$T" online memory34-34
    assert_failure 1
    assert_equal "$(cat "$OUT/victim")" precious
    [[ $stderr == *"memory-blocks.lock"*"refusing it"* ]]
}

@test "the lock directory linking out of the tree: nothing is created outside" {
    ln -s "$OUT" "$T/run"
    run --separate-stderr cxltier --sysroot "$T" online memory34-34
    assert_failure 1
    [[ ! -e $OUT/cxltier && ! -e $OUT/lock ]]
    [[ $stderr == *"run"*"refusing it"* ]]
}

@test "legitimate links inside the tree still resolve: relative, absolute and '..' at the top" {
    before=$(cxltier --sysroot "$T" list -j)
    # a memdev link made absolute: read inside the tree, as on the live system
    rel=$(readlink "$T/sys/bus/cxl/devices/mem0")
    ln -sfn "/sys/bus/cxl/devices/$rel" "$T/sys/bus/cxl/devices/mem0"
    # extra '..' at the top stay at the top, as '/..' does ("../../../" is
    # /sys from sys/bus/dax/devices: six of them, then sys/ again)
    rel=$(readlink "$T/sys/bus/dax/devices/dax0.0")
    ln -sfn "../../../../../../sys/${rel#../../../}" "$T/sys/bus/dax/devices/dax0.0"
    run --separate-stderr cxltier --sysroot "$T" list -j
    assert_success
    assert_equal "$output" "$before"
    run --separate-stderr cxltier --sysroot "$T" online memory34-34
    # written inside the tree; a captured tree is no kernel: the state reads
    # back as written, not as "online", and the block counts as failed
    assert_failure 1
    [[ $stderr == *"memory34 (dax0.0): failed: the kernel took the write, but the block reads unknown"* ]]
    assert_equal "$(cat "$T/$MEM/memory34/state")" online_movable
}
