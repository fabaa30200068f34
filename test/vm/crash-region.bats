#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-build: crash-points -- CXLTIER_CRASH_AT kills cxltier at its Nth kernel write (meson -Dcrash_points=true)
# vm-test-timeout: 1200 -- every kill point of a command walked, each with its recovery, under TCG and ASan
# Crash tests of one memdev's region: `cxltier region create mem0` and
# `cxltier region destroy` killed at each of their kernel writes, the user's
# recovery run, the machine checked (crash.bash says how). The destroy is
# walked with the region's memory online: its offlines are kill points too,
# and its region steps are those of a destroy of offline memory (which the
# two-device file walks).
load crash

@test "region create mem0 killed at every kernel write: a rerun then destroy leaves no capacity held and no region uncommitted" {
    crash_walk_create mem0
}

@test "region destroy --offline of a region with its memory online killed at every kernel write, offlining included: a rerun takes it away" {
    crash_walk_destroy --online mem0
}
