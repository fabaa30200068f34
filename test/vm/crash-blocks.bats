#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-build: crash-points -- CXLTIER_CRASH_AT kills cxltier at its Nth kernel write (meson -Dcrash_points=true)
# vm-boot-group: crash-blocks
# vm-test-timeout: 900 -- every kill point of a command walked, each with its recovery, under TCG on a loaded host
# Crash tests of the changes on memory blocks and dax devices (one memdev;
# the region steps are walked in crash-region*.bats): `online --reonline`
# (each block offlined, then onlined movable: recorded in between),
# `online --convert` (the kernel's own onlining held off, the dax device
# unbound from device_dax and bound to kmem through libdaxctl, then its
# blocks onlined) and `offline memN --remove` (every block offline, the
# region destroyed, the memdev disabled), each killed at its kernel writes
# (crash.bash: crash_walk), the same command run again as the recovery, the
# outcome and the machine checked.
load crash

# the region over mem0, made when there is none (R, and its dax device D)
region_of_mem0() {
    R=$(region_over mem0)
    [[ -n $R ]] || R=$(cxltier region create mem0 -j | jq -r '.regions[0].name')
    [[ -n $R && $R != null ]] || fail "no region over mem0 could be made"
    D=$(vm_dax_of "$R")
}

@test "online --reonline of blocks in ZONE_NORMAL killed at every kernel write (before a block's offline, between its offline and its online): the rerun ends with every block online movable" {
    WALK_KEEPS_REGIONS=1
    walk_setup() {
        local b first=1
        region_of_mem0
        offline_all "$D"
        # the first block movable (the node's first memory never in
        # ZONE_NORMAL: online.bats says why), the others in ZONE_NORMAL
        for b in $(vm_blocks_of "$D"); do
            if (( first )); then echo online_movable > $MEMSYS/$b/state; first=0
            else echo online_kernel > $MEMSYS/$b/state; fi
        done
    }
    walk_run() { cxltier online "$R" --reonline; }
    walk_problems() { blocks_not_movable "$D"; }
    # (the rerun would online an offline block anyway: that the killed
    # run's record is what it went by shows in what it says)
    WALK_RECOVERY_SAYS='warning: a --reonline \(pid [0-9]+, memory[0-9]+\) was killed midway: (left|finished): memory[0-9]+ (is online already|onlined movable)'

    crash_walk "online --reonline" '/memory[0-9]+/state = (offline|online_movable)$'
}

@test "online --convert of a devdax device, the kernel onlining new memory itself, killed at every kernel write: the rerun ends in system-ram, every block online movable, auto_online_blocks as it was" {
    WALK_KEEPS_REGIONS=1
    walk_setup() {
        echo offline > $MEMSYS/auto_online_blocks
        region_of_mem0
        offline_all "$D"
        [[ $(dax_driver "$D") == device_dax ]] || vm_to_devdax "$D"
        assert_equal "$(dax_driver "$D")" device_dax
        echo online > $MEMSYS/auto_online_blocks
        AUTO_ONLINE=online
    }
    walk_run() { cxltier online "$D" --convert --force; }
    walk_problems() {
        local drv
        drv=$(dax_driver "$D")
        [[ $drv == kmem ]] || { echo "$D is bound to '${drv:-no driver}', not kmem"; return; }
        blocks_not_movable "$D"
    }
    crash_walk "online --convert (auto_online_blocks = online)" '/memory[0-9]+/state = online_movable$'
}

@test "offline mem0 --remove of a region online killed at every kernel write: the rerun ends with no region, no capacity held, mem0 disabled" {
    walk_setup() {
        region_of_mem0
        run cxltier online "$R"
        assert_success
    }
    walk_run() { cxltier offline mem0 --remove; }
    walk_problems() {
        [[ -z $(regions) ]] || echo "regions left: $(regions_left)"
        [[ ! -e $CXL/mem0/driver ]] || echo "mem0 is still bound to cxl_mem"
    }
    crash_walk "offline mem0 --remove" '/memory[0-9]+/state = offline$'
}

