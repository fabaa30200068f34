#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier doctor` on what differs between kernels: 6.12's CXL latency, 7.x's
# auto-online build default and DAMON_STAT (the chain checks: online.bats).
load helper

@test "6.12: the link latency counted in ps as ns, from the figures against CDAT, with what to do" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-online)" doctor -j
    assert_success
    run jq -c '.findings[] | select(.check == "latency") | [.object, .status]' <<<"$output"
    assert_output '["region0","info"]'
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-online)" doctor -j
    assert_success
    [[ $(jq -r '.findings[] | select(.check == "latency") | .finding' <<<"$output") == \
       "access0 read latency 17300 ns where CDAT says 150 ns: kernel 6.12.95+deb12-amd64 adds the PCIe link latency in picoseconds"* ]]
    [[ $(jq -r '.findings[] | select(.check == "latency") | .fix' <<<"$output") == *"trust the CDAT latency"*"Linux 7.x"* ]]
}

@test "6.12 without CDAT: the bug by its excess over any CXL path, and how to check it" {
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/t"
    rm "$BATS_TEST_TMPDIR"/t/sys/devices/platform/ACPI0017:00/root0/port1/endpoint2/CDAT
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" doctor -j
    assert_success
    [[ $(jq -r '.findings[] | select(.check == "latency") | .finding' <<<"$output") == *"(judged by its excess over any CXL path: CDAT not readable)" ]]
    [[ $(jq -r '.findings[] | select(.check == "latency") | .fix' <<<"$output") == "run as root"* ]]
}

@test "7.x: plausible figures pass (--all), DAMON_STAT is named with how to stop it" {
    run --separate-stderr cxltier --sysroot "$(fixture k7-region-online)" doctor --all -j
    assert_success
    json=$output
    [[ $(jq -c '.findings[] | select(.check == "latency") | [.object, .status]' <<<"$json") == '["region0","ok"]' ]]
    [[ $(jq -r '.findings[] | select(.check == "damon") | .finding' <<<"$json") == "DAMON_STAT runs (kdamond pid 56; "* ]]
    [[ $(jq -r '.findings[] | select(.check == "damon") | [.status, .fix] | join(" ")' <<<"$json") == \
       "info echo N > /sys/module/damon_stat/parameters/enabled"* ]]
    [[ $(jq -r '.findings[] | select(.check == "kernel") | .object' <<<"$json") == 7.3.4+deb13-amd64 ]]
}

@test "7.x default auto-online (no memhp_default_state): a problem naming the build option" {
    cp -a "$(fixture k7-region-online)" "$BATS_TEST_TMPDIR/t"
    echo online > "$BATS_TEST_TMPDIR/t/sys/devices/system/memory/auto_online_blocks"
    echo 'console=ttyS0,115200 panic=-1' > "$BATS_TEST_TMPDIR/t/proc/cmdline"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" doctor -j
    assert_failure 1
    [[ $(jq -r '.findings[] | select(.check == "auto-online") | .finding' <<<"$output") == \
       "'online' (this kernel's build default: CONFIG_MHP_DEFAULT_ONLINE_TYPE_ONLINE_AUTO): the kernel onlines hot-added CXL memory itself, into ZONE_NORMAL, before cxltier can choose movable" ]]
    [[ $(jq -c '[.findings[] | select(.check == "cmdline")]' <<<"$output") == '[]' ]]
}

@test "6.12 default auto-online: the older boolean option is named" {
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/t"
    echo online > "$BATS_TEST_TMPDIR/t/sys/devices/system/memory/auto_online_blocks"
    echo 'console=ttyS0,115200' > "$BATS_TEST_TMPDIR/t/proc/cmdline"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" doctor -j
    assert_failure 1
    [[ $(jq -r '.findings[] | select(.check == "auto-online") | .finding' <<<"$output") == \
       "'online' (this kernel's build default: CONFIG_MEMORY_HOTPLUG_DEFAULT_ONLINE=y): "* ]]
}

@test "auto-movable online policy: the finding says how much stays movable" {
    cp -a "$(fixture k7-region-online)" "$BATS_TEST_TMPDIR/t"
    echo online > "$BATS_TEST_TMPDIR/t/sys/devices/system/memory/auto_online_blocks"
    echo auto-movable > "$BATS_TEST_TMPDIR/t/sys/module/memory_hotplug/parameters/online_policy"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" doctor -j
    assert_failure 1
    [[ $(jq -r '.findings[] | select(.check == "auto-online") | .finding' <<<"$output") == *"beyond what online_policy auto-movable's ratio allows as movable"* ]]
}

@test "DAMON_STAT off, another DAMON user's kdamond: named as such" {
    cp -a "$(fixture k7-region-online)" "$BATS_TEST_TMPDIR/t"
    echo N > "$BATS_TEST_TMPDIR/t/sys/module/damon_stat/parameters/enabled"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" doctor -j
    assert_success
    [[ $(jq -c '[.findings[] | select(.check == "damon") | [.object, .finding]]' <<<"$output") == \
       '[["kdamond","1 kdamond thread runs for another DAMON user (a DAMON sysfs context or damo): cxltier migrate --hot/--cold will not touch it"]]' ]]
}

@test "6.12 trees have no DAMON_STAT: nothing said" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-online)" doctor --all -j
    assert_success
    [[ $(jq -c '[.findings[] | select(.check == "damon")]' <<<"$output") == '[]' ]]
}

@test "idle memdevs: cxltier's own region create, one command for the idle set, before any ndctl" {
    run --separate-stderr cxltier doctor -j --sysroot "$(fixture lab-two-devices-idle)"
    assert_failure 1    # problems found
    assert_equal "$(jq -r '[.findings[] | select(.check == "memdev" and .status == "problem") | "\(.object): \(.fix)"] | join("; ")' <<<"$output")" \
        "mem0: cxltier region create mem0 mem1; mem1: cxltier region create mem0 mem1"
    refute_output --partial 'cxl create-region'
    # and the command it names does what it says on that tree
    run --separate-stderr cxltier region create mem0 mem1 --dry-run --sysroot "$(fixture lab-two-devices-idle)"
    assert_success
    # a memdev in a region is not named
    run --separate-stderr cxltier doctor -j --sysroot "$(fixture lab-two-devices)"
    assert_success
    refute_output --partial 'region create'
}

# --- the kernel's own tiering against the memory it has ---

# tiering_findings TREE: the demotion, promotion and weights findings of
# doctor -j, one "check object fix" a line
tiering_findings() {
    cxltier --sysroot "$1" doctor -j |
        jq -r '.findings[] | select(.check == "demotion" or .check == "promotion" or .check == "weights") |
               "\(.check) \(.object) \(.fix)"'
}

@test "tiering: CXL memory online with demotion off, no promotion: said with the tiering command that fixes each" {
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/t"
    t=$BATS_TEST_TMPDIR/t
    run tiering_findings "$t"
    assert_output "demotion node1 cxltier tiering --demotion on
promotion node1 cxltier tiering --balancing tiering"
    run --separate-stderr cxltier --sysroot "$t" doctor -j
    assert_success
    [[ $(jq -r '.findings[] | select(.check == "demotion") | .finding' <<<"$output") == \
       "CXL or lower-tier memory is online on node1, but demotion is off"* ]]
    # normal balancing on: the fix keeps it
    echo 1 > "$t/proc/sys/kernel/numa_balancing"
    run tiering_findings "$t"
    assert_line "promotion node1 cxltier tiering --balancing normal+tiering"
    # demotion on, tiering on: neither said
    cxltier --sysroot "$t" tiering --demotion on --balancing normal+tiering >/dev/null
    run tiering_findings "$t"
    assert_output ""
    # the rate limit at 0: promotion cannot happen all the same
    echo 0 > "$t/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps"
    run tiering_findings "$t"
    assert_output "promotion node1 cxltier tiering --promote-rate 65536"
}

@test "tiering: no CXL memory online and one tier: nothing said of demotion or promotion" {
    run tiering_findings "$(fixture lab-region-offline)"
    assert_output ""
    run tiering_findings "$(fixture host-nocxl)"
    assert_output ""
}

@test "tiering: weights all 1 over nodes of different bandwidth: said; weighted, auto, or no interface: not" {
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/t"
    t=$BATS_TEST_TMPDIR/t
    echo 1 > "$t/sys/kernel/mm/numa/demotion_enabled"; echo 2 > "$t/proc/sys/kernel/numa_balancing"
    run tiering_findings "$t"
    assert_output ""        # a kernel without weighted interleave
    w=$t/sys/kernel/mm/mempolicy/weighted_interleave
    mkdir -p "$w"; echo 1 > "$w/node0"; echo 1 > "$w/node1"
    run tiering_findings "$t"
    assert_output "weights /sys/kernel/mm/mempolicy/weighted_interleave cxltier weights --set"
    run --separate-stderr cxltier --sysroot "$t" doctor -j
    assert_success
    [[ $(jq -r '.findings[] | select(.check == "weights") | .finding' <<<"$output") == \
       "the weighted-interleave weights are all 1, the kernel's default, while node0 reads and writes at 40960 MB/s and node1 at 32000 MB/s: a process under weighted interleave puts as much on node1 as on node0" ]]
    echo 4 > "$w/node0"; echo 3 > "$w/node1"
    run tiering_findings "$t"
    assert_output ""
    echo 1 > "$w/node0"; echo 1 > "$w/node1"; echo true > "$w/auto"
    run tiering_findings "$t"
    assert_output ""
    # bandwidths within a quarter of each other: 1:1 is what the kernel
    # would give (node0 down to 18000 a way, node1 at 16000)
    echo false > "$w/auto"
    for f in "$t"/sys/devices/system/node/node0/access*/initiators/*_bandwidth; do echo 18000 > "$f"; done
    run tiering_findings "$t"
    assert_output ""
}
