#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: two-devices
# vm-boot-group: crash
# vm-build: crash-points -- CXLTIER_CRASH_AT kills cxltier at its Nth kernel write (meson -Dcrash_points=true)
# vm-test-timeout: 1200 -- every kill point of a command walked, each with its recovery, under TCG on a loaded host
# Crash tests of a 2-way region over two memdevs: `cxltier region create
# mem0 mem1` and `cxltier region destroy` killed at each of their kernel
# writes, the user's recovery run, the machine checked (crash.bash says how).
# And `online --policy mem0 mem1`, two cards the watch hands one run
# (cxltier-hotplug(1)): a region over each made one after the other, then
# both dax devices waited for and their blocks onlined, killed at the seams
# of that batch (crash.bash: batch_points), on 7.x.
load crash

@test "region create mem0 mem1 killed at every kernel write: a rerun then destroy leaves no capacity held and no region uncommitted" {
    crash_walk_create mem0 mem1
}

@test "region destroy of a 2-way region killed at every kernel write: a rerun with --offline takes the region away and frees its capacity" {
    crash_walk_destroy mem0 mem1
}

@test "online --policy mem0 mem1 (two cards in one run, create-region = yes) killed at the seams of the batch: the rerun ends with a region over each, onlined movable" {
    [[ $(uname -r) != 6.12* ]] ||
        skip "6.12 binds the dax device to kmem within the region's bind write: a batch there is one memdev's steps twice (crash-region.bats walks them)"
    crash_walk_policy mem0 mem1
}
