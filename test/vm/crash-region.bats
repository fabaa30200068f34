#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: two-devices
# vm-boot-group: crash
# vm-build: crash-points -- CXLTIER_CRASH_AT kills cxltier at its Nth kernel write (meson -Dcrash_points=true)
# vm-test-timeout: 1200 -- every kill point of a command walked, each with its recovery, under TCG on a loaded host
# Crash tests of one memdev's region: `cxltier region destroy --offline`
# of a region over mem0 whose memory is online (on the two-device machine,
# mem1 idle: the boot is shared with crash-region-two-devices.bats), killed at each of its kernel writes,
# the user's recovery run, the machine checked (crash.bash says how): its
# offlines are kill points too, and its region steps are those of a destroy
# of offline memory (which the two-device file walks). A create is walked
# there too, over two memdevs: its steps are a one-memdev create's, with a
# second target and decoder (a one-memdev create walk was the same points
# again, a minute of every CI run on each kernel). And `online --policy mem0`
# creating the region and onlining it (the hot-add path of the udev unit),
# its rerun the recovery.
load crash

@test "online --policy of a memdev with no region (create-region = yes, the hot-add path) killed at every kernel write: the unit's rerun ends with a region onlined movable" {
    crash_walk_policy mem0
}

@test "region destroy --offline of a region with its memory online killed at every kernel write, offlining included: a rerun takes it away" {
    crash_walk_destroy --online mem0
}
