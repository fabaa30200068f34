#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier online` / `offline` / `doctor` planning on captured trees (the
# real changes are tested against the kernel in test/vm/online.bats).
load helper

@test "online --dry-run on the offline lab tree: 8 blocks, online_movable each" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-offline)" online region0 --dry-run -j
    assert_success
    [[ $(jq -c '[.blocks[] | [.block, .from_state, .action, .result, .device, .node]] | .[0]' <<<"$output") == \
       '["memory34","offline","online_movable","planned","dax0.0",1]' ]]
    [[ $(jq '.blocks | length' <<<"$output") == 8 ]]
    [[ $stderr == *"8 of 8 blocks would change; nothing was changed"* ]]
}

@test "--dry-run writes nothing to the tree" {
    root=$(fixture lab-region-offline)
    before=$(cat "$root"/sys/devices/system/memory/memory3[4-9]/state | md5sum)
    cxltier --sysroot "$root" online all --dry-run >/dev/null 2>&1
    [[ $(cat "$root"/sys/devices/system/memory/memory3[4-9]/state | md5sum) == "$before" ]]
}

@test "offline --dry-run on the onlined tree; online there changes nothing" {
    root=$(fixture lab-region-online)
    run --separate-stderr cxltier --sysroot "$root" offline dax0.0 --dry-run -j
    assert_success
    [[ $(jq -r '[.blocks[].action] | unique | join(",")' <<<"$output") == offline ]]
    run --separate-stderr cxltier --sysroot "$root" online dax0.0 --dry-run -j
    assert_success
    [[ $(jq -r '[.blocks[].action] | unique | join(",")' <<<"$output") == none ]]
}

@test "a block in ZONE_NORMAL is refused, named, with what to do" {
    root=$(fixture lab-region-online)
    cp -a "$root" "$BATS_TEST_TMPDIR/t"
    echo Normal > "$BATS_TEST_TMPDIR/t/sys/devices/system/memory/memory36/valid_zones"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" online region0 --dry-run
    assert_failure 1
    [[ $stderr == *"memory36 (dax0.0): refused: online in ZONE_NORMAL, not movable"*"--reonline"* ]]
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" online region0 --dry-run --reonline -j
    assert_success
    [[ $(jq -r '.blocks[] | select(.block == "memory36") | .action' <<<"$output") == reonline_movable ]]
}

@test "a block the kernel offers no Movable for is refused" {
    root=$(fixture lab-region-offline)
    cp -a "$root" "$BATS_TEST_TMPDIR/t"
    echo Normal > "$BATS_TEST_TMPDIR/t/sys/devices/system/memory/memory40/valid_zones"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" online dax0.0 --dry-run
    assert_failure 64
    [[ $stderr == *"memory40"*"does not offer ZONE_MOVABLE"* ]]
}

@test "targets: range, node, memdev and all give the same blocks" {
    root=$(fixture lab-region-offline)
    for t in memory34-41 node1 mem0 all dax0.0; do
        run --separate-stderr cxltier --sysroot "$root" online "$t" --dry-run -j
        assert_success
        [[ $(jq -c '[.blocks[].id]' <<<"$output") == '[34,35,36,37,38,39,40,41]' ]] || fail "$t: $output"
    done
}

@test "bad targets: usage or failure, each named" {
    root=$(fixture lab-region-offline)
    run cxltier --sysroot "$root" online frob
    assert_failure 2
    assert_output --partial "'frob' is not a target"
    run cxltier --sysroot "$root" online region4
    assert_failure 1
    assert_output --partial "no region 'region4'"
    run cxltier --sysroot "$root" online memory41-34
    assert_failure 2
    # backwards, where the unsigned difference is small: still backwards
    run cxltier --sysroot "$root" online memory18446744073709551615-5
    assert_failure 2
    assert_output --partial "is not a block name or range"
    run cxltier --sysroot "$root" online memory900
    assert_failure 1
    assert_output --partial "memory900 does not exist"
    run cxltier --sysroot "$root" online
    assert_failure 2
}

@test "a devdax device: says to use --convert" {
    root=$(fixture lab-region-offline)
    cp -a "$root" "$BATS_TEST_TMPDIR/t"
    ln -sfn ../../../../../../../../bus/dax/drivers/device_dax \
        "$BATS_TEST_TMPDIR/t/sys/devices/platform/ACPI0017:00/root0/decoder0.0/region0/dax_region0/dax0.0/driver"
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" online dax0.0
    assert_failure 1
    assert_output --partial "dax0.0 is in devdax mode"
    assert_output --partial "--convert"
}

@test "--zone normal without --force is refused" {
    run cxltier --sysroot "$(fixture lab-region-offline)" online region0 --zone normal
    assert_failure 2
    assert_output --partial "--force"
    run cxltier --sysroot "$(fixture lab-region-offline)" online region0 --zone fast
    assert_failure 2
}

@test "auto_online_blocks=online is warned about" {
    root=$(fixture lab-region-offline)
    cp -a "$root" "$BATS_TEST_TMPDIR/t"
    echo online > "$BATS_TEST_TMPDIR/t/sys/devices/system/memory/auto_online_blocks"
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" online region0 --dry-run
    assert_success
    assert_output --partial "auto_online_blocks=online"
}

@test "--policy: a serial the policy leaves offline is left alone" {
    printf '[device serial=0x1234]\nonline = no\n' > "$BATS_TEST_TMPDIR/p.conf"
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-offline)" online --policy --config "$BATS_TEST_TMPDIR/p.conf" --dry-run -j
    assert_success
    [[ $stderr == *"dax0.0: the policy (a [device] section) says leave it offline"* ]]
}

@test "--policy: matched by host, by region, default movable" {
    root=$(fixture lab-region-offline)
    printf '[device host=0000:0d:00.0]\nzone = movable\n' > "$BATS_TEST_TMPDIR/p.conf"
    run --separate-stderr cxltier --sysroot "$root" online --policy --config "$BATS_TEST_TMPDIR/p.conf" memory36 --dry-run -j
    assert_success
    [[ $(jq -r '[.blocks[].action] | unique | join(",")' <<<"$output") == online_movable ]]
    printf '[device region=region0]\nonline = no\n[device any]\nonline = yes\n' > "$BATS_TEST_TMPDIR/p.conf"
    run --separate-stderr cxltier --sysroot "$root" online --policy --config "$BATS_TEST_TMPDIR/p.conf" --dry-run -j
    assert_success
    [[ $(jq '.blocks | length' <<<"$output") == 0 ]]
}

@test "--policy: a memory block that is not CXL memory is left alone, exit 0" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-offline)" online --policy --config /dev/null memory3 --dry-run -j
    assert_success
    [[ $(jq '.blocks | length' <<<"$output") == 0 ]]
}

@test "--policy: a malformed policy names file and line, exit 1" {
    printf '[defaults]\nzone = fastest\n' > "$BATS_TEST_TMPDIR/p.conf"
    run cxltier --sysroot "$(fixture lab-region-offline)" online --policy --config "$BATS_TEST_TMPDIR/p.conf"
    assert_failure 1
    assert_output --partial "p.conf:2:8: zone = fastest: expected movable or normal"
}

# the policy never fails open: what it does not understand stops the run
policy_refused() { # FILE EXPECTED-MESSAGE
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-offline)" online --policy --config "$1" --dry-run -j
    assert_failure 1
    [[ $stderr == *"$2"* ]] || fail "stderr: $stderr"
    [[ -z $output || $(jq '.blocks | length' <<<"$output") == 0 ]]
}

@test "--policy: text after ']' is an error, not dropped ('[defaults] online = no' never onlines)" {
    printf '[defaults] online = no\n' > "$BATS_TEST_TMPDIR/p.conf"
    policy_refused "$BATS_TEST_TMPDIR/p.conf" "p.conf:1:12: unexpected text after ']'"
}

@test "--policy: a file past the 64 KiB limit is an error, not cut" {
    { for i in $(seq 2000); do echo "# padding padding padding padding padding"; done
      printf '[defaults]\nonline = no\n'; } > "$BATS_TEST_TMPDIR/p.conf"
    (( $(stat -c %s "$BATS_TEST_TMPDIR/p.conf") > 65536 ))
    policy_refused "$BATS_TEST_TMPDIR/p.conf" "is larger than 65536 bytes, the limit for a policy file"
}

@test "--policy: a NUL byte is an error, not the end of the file" {
    printf '[defaults]\n\0\nonline = no\n' > "$BATS_TEST_TMPDIR/p.conf"
    policy_refused "$BATS_TEST_TMPDIR/p.conf" "p.conf:2:1: a NUL byte"
}

@test "doctor: offline blocks are a problem with the fix; exit 1" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-offline)" doctor -j
    assert_failure 1
    [[ $(jq -c '.findings[] | select(.check == "blocks") | [.object, .status, .fix]' <<<"$output") == '["dax0.0","problem","cxltier online dax0.0"]' ]]
}

@test "doctor: the onlined lab tree is healthy; --all lists what passed" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-online)" doctor --all -j
    assert_success
    [[ $(jq -r '.findings[] | select(.check == "dax") | .finding' <<<"$output") == "8 blocks online movable on node 1" ]]
}

@test "doctor: devdax mode, ZONE_NORMAL blocks, auto-online, a memdev in no region" {
    root=$(fixture lab-region-online)
    cp -a "$root" "$BATS_TEST_TMPDIR/t"
    echo Normal > "$BATS_TEST_TMPDIR/t/sys/devices/system/memory/memory35/valid_zones"
    echo online > "$BATS_TEST_TMPDIR/t/sys/devices/system/memory/auto_online_blocks"
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" doctor -j
    assert_failure 1
    [[ $(jq -r '.findings[] | select(.check == "zone") | .fix' <<<"$output") == "cxltier online dax0.0 --reonline" ]]
    [[ $(jq -r '.findings[] | select(.check == "auto-online") | .status' <<<"$output") == problem ]]
    ln -sfn ../../../../../../../../bus/dax/drivers/device_dax \
        "$BATS_TEST_TMPDIR/t/sys/devices/platform/ACPI0017:00/root0/decoder0.0/region0/dax_region0/dax0.0/driver"
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" doctor -j
    assert_failure 1
    [[ $(jq -r '.findings[] | select(.check == "dax") | .fix' <<<"$output") == "cxltier online dax0.0 --convert" ]]
    rm -rf "$BATS_TEST_TMPDIR/t/sys/bus/cxl/devices/region0"
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" doctor -j
    assert_failure 1
    [[ $(jq -r '.findings[] | select(.check == "memdev") | .finding' <<<"$output") == *"in no region"* ]]
}

@test "doctor without CXL: says the bus is missing and how to load it" {
    run cxltier --sysroot "$(fixture host-nocxl)" doctor -j
    assert_failure 1
    [[ $(jq -r '.findings[0].fix' <<<"$output") == "modprobe cxl_acpi" ]]
}

# --- the lock: a private directory no other user can plant in, open or lock ---

# lock_tree: t= a copy of the onlined lab tree every user can reach (for
# setpriv), under LOCKTMP, which teardown removes (set in the test's own
# shell: a $(...) would lose it and leave the copy behind)
lock_tree() {
    LOCKTMP=$(mktemp -d "${TMPDIR:-/tmp}/cxltier-lock.XXXXXX")
    chmod 755 "$LOCKTMP"
    cp -a "$(fixture lab-region-online)" "$LOCKTMP/t"
    chmod 755 "$LOCKTMP/t"
    t=$LOCKTMP/t
}

teardown() {
    [[ -z ${LOCKTMP:-} ]] || rm -rf "$LOCKTMP"
}

@test "lock: a user's symlink in /run/lock never makes root truncate or write the file it points to" {
    lock_tree
    echo precious > "$BATS_TEST_TMPDIR/victim"
    mkdir -p "$t/run/lock"; chmod 1777 "$t/run/lock"
    ln -s "$BATS_TEST_TMPDIR/victim" "$t/run/lock/cxltier.lock"
    run cxltier --sysroot "$t" offline all --timeout 2
    assert_success
    assert_equal "$(cat "$BATS_TEST_TMPDIR/victim")" precious
}

@test "lock: no other user can open or flock it (a user cannot keep hot-added memory offline)" {
    lock_tree
    cxltier --sysroot "$t" offline all >/dev/null 2>&1
    locks=$(find "$t/run" -type f)
    [[ -n $locks ]]
    for f in $locks; do
        run setpriv --reuid=65534 --regid=65534 --clear-groups flock -n -s "$f" true
        # 66: flock cannot even open it (EX_NOINPUT)
        assert_failure 66
    done
    # root's next run takes it at once
    run cxltier --sysroot "$t" online all --timeout 1
    assert_success
    refute_output --partial "another cxltier"
}

@test "lock: the directory is root's, 0700, the file 0600 with one link" {
    lock_tree
    cxltier --sysroot "$t" offline all >/dev/null 2>&1
    assert_equal "$(stat -c '%U %a %F' "$t/run/cxltier")" "root 700 directory"
    [[ -f $t/run/cxltier/memory-blocks.lock && ! -L $t/run/cxltier/memory-blocks.lock ]]
    assert_equal "$(stat -c '%U %a %h' "$t/run/cxltier/memory-blocks.lock")" "root 600 1"
}

@test "lock: a symlinked, foreign or open directory is refused, never used" {
    lock_tree
    mkdir "$BATS_TEST_TMPDIR/elsewhere"
    mkdir -p "$t/run"
    ln -s "$BATS_TEST_TMPDIR/elsewhere" "$t/run/cxltier"
    run cxltier --sysroot "$t" offline all
    assert_failure 1
    assert_output --partial "run/cxltier is not a directory (a symlink?)"
    [[ -z $(ls -A "$BATS_TEST_TMPDIR/elsewhere") ]]
    rm "$t/run/cxltier"; mkdir -m 0755 "$t/run/cxltier"
    run cxltier --sysroot "$t" offline all
    assert_failure 1
    assert_output --partial "mode 0755, not by uid 0 with mode 0700"
    chmod 0700 "$t/run/cxltier"; chown 65534 "$t/run/cxltier"
    run cxltier --sysroot "$t" offline all
    assert_failure 1
    assert_output --partial "owned by uid 65534"
}

@test "lock: a symlinked or hard-linked lock file is refused; its target stays intact" {
    lock_tree
    echo precious > "$BATS_TEST_TMPDIR/victim"
    mkdir -p -m 0700 "$t/run/cxltier"
    ln -s "$BATS_TEST_TMPDIR/victim" "$t/run/cxltier/memory-blocks.lock"
    run cxltier --sysroot "$t" offline all
    assert_failure 1
    assert_output --partial "a symlink: refusing it"
    rm "$t/run/cxltier/memory-blocks.lock"
    ln "$BATS_TEST_TMPDIR/victim" "$t/run/cxltier/memory-blocks.lock"
    run cxltier --sysroot "$t" offline all
    assert_failure 1
    assert_output --partial "one link"
    assert_equal "$(cat "$BATS_TEST_TMPDIR/victim")" precious
}

# --- interleaved regions: one memdev of a set never takes the others silently ---

@test "interleave: offline of one memdev of a 2-way region is refused, naming every device and the capacity" {
    root=$(fixture lab-two-devices-interleaved)
    before=$(cat "$root"/sys/devices/system/memory/memory*/state | md5sum)
    run --separate-stderr cxltier --sysroot "$root" offline mem1
    assert_failure 2
    [[ $stderr == *"mem1 is one of the 2 memdevs interleaved in region0 (mem0, mem1): offlining mem1 takes the whole region, 2G (1G of each device); give --whole-region"* ]] || fail "$stderr"
    assert_equal "$(cat "$root"/sys/devices/system/memory/memory*/state | md5sum)" "$before"
    run --separate-stderr cxltier --sysroot "$root" offline mem1 --dry-run
    assert_failure 2
    run --separate-stderr cxltier --sysroot "$root" online mem0 --dry-run
    assert_failure 2
    [[ $stderr == *"onlining mem0 takes the whole region"* ]]
}

@test "interleave: --whole-region takes the set, every memdev named with its share (stderr and JSON)" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-two-devices-interleaved)" offline mem1 --whole-region --dry-run -j
    assert_success
    [[ $(jq '.blocks | length' <<<"$output") == 16 ]]
    [[ $(jq -c '[.memdevs[] | [.memdev, .region, .interleave_ways, .position, .size, .named]]' <<<"$output") == \
       '[["mem0","region0",2,0,1073741824,false],["mem1","region0",2,1,1073741824,true]]' ]]
    [[ $stderr == *"region0 is interleaved over 2 memdevs: its 16 blocks here (2G) are 1G on mem0 and 1G on mem1: offlining them changes every one of these devices"* ]] || fail "$stderr"
}

@test "interleave: region, dax, node and block targets are not refused, and say which memdevs go" {
    root=$(fixture lab-two-devices-interleaved)
    for t in region0 dax0.0 node1 memory34-35 all; do
        run --separate-stderr cxltier --sysroot "$root" offline "$t" --dry-run -j
        assert_success
        [[ $(jq -r '[.memdevs[].memdev] | join(",")' <<<"$output") == mem0,mem1 ]] || fail "$t: $output"
        [[ $stderr == *"region0 is interleaved over 2 memdevs"* ]] || fail "$t: $stderr"
    done
    run --separate-stderr cxltier --sysroot "$root" offline memory34-35 --dry-run -j
    assert_success
    [[ $(jq -c '[.memdevs[] | [.blocks, .size]]' <<<"$output") == '[[2,134217728],[2,134217728]]' ]]
}

@test "interleave: a one-device region says nothing on stderr, lists its memdev in JSON" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-online)" offline mem0 --dry-run -j
    assert_success
    [[ $(jq -c '[.memdevs[] | [.memdev, .interleave_ways, .named]]' <<<"$output") == '[["mem0",1,true]]' ]]
    [[ $stderr != *interleaved* ]]
}

# mixed_dax_tree DIR: the onlined lab tree with region0 split in two dax
# devices (daxctl create-device after a shrink): dax0.0, the first 512 MiB,
# in devdax mode; dax0.1, the last 512 MiB (memory38-41), system-ram, online
mixed_dax_tree() {
    local r
    cp -a "$(fixture lab-region-online)" "$1"
    r=$1/sys/devices/platform/ACPI0017:00/root0/decoder0.0/region0/dax_region0
    echo 536870912 > "$r/dax0.0/size"
    echo 0x12fffffff > "$r/dax0.0/mapping0/end"
    ln -sfn ../../../../../../../../bus/dax/drivers/device_dax "$r/dax0.0/driver"
    rm "$1/sys/bus/dax/drivers/kmem/dax0.0"
    ln -s ../../../../devices/platform/ACPI0017:00/root0/decoder0.0/region0/dax_region0/dax0.0 \
        "$1/sys/bus/dax/drivers/device_dax/dax0.0"
    cp -a "$r/dax0.0" "$r/dax0.1"
    echo 0x130000000 > "$r/dax0.1/resource"
    echo 0x130000000 > "$r/dax0.1/mapping0/start"
    echo 0x14fffffff > "$r/dax0.1/mapping0/end"
    echo 252:1 > "$r/dax0.1/dev"
    ln -sfn ../../../../../../../../bus/dax/drivers/kmem "$r/dax0.1/driver"
    ln -s ../../../devices/platform/ACPI0017:00/root0/decoder0.0/region0/dax_region0/dax0.1 \
        "$1/sys/bus/dax/devices/dax0.1"
    ln -s ../../../../devices/platform/ACPI0017:00/root0/decoder0.0/region0/dax_region0/dax0.1 \
        "$1/sys/bus/dax/drivers/kmem/dax0.1"
}

@test "a region with a devdax device before a system-ram one: the system-ram one's blocks are planned" {
    mixed_dax_tree "$BATS_TEST_TMPDIR/t"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" offline region0 --dry-run -j
    assert_success
    [[ $(jq -c '[.blocks[] | [.id, .device, .action]]' <<<"$output") == \
       '[[38,"dax0.1","offline"],[39,"dax0.1","offline"],[40,"dax0.1","offline"],[41,"dax0.1","offline"]]' ]]
    [[ $stderr == *"dax0.0 is in devdax mode: none of its memory is hot-plugged"* ]]
    for t in region0 mem0; do
        run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" online "$t" --dry-run -j
        assert_failure 1    # dax0.0 is not onlined (named), dax0.1's blocks are as asked already
        [[ $(jq -c '[.blocks[] | [.id, .action]]' <<<"$output") == '[[38,"none"],[39,"none"],[40,"none"],[41,"none"]]' ]]
        [[ $stderr == *"dax0.0 is in devdax mode"*"--convert"* ]]
    done
}

@test "region destroy --offline: the blocks of every dax device go offline before the region goes" {
    mixed_dax_tree "$BATS_TEST_TMPDIR/t"
    m=$BATS_TEST_TMPDIR/t/sys/devices/system/memory
    # (the tree has no cxl_region/unbind: the destroy itself fails after the offline)
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" region destroy region0 --offline
    assert_failure 1
    for b in 38 39 40 41; do
        [[ $(cat "$m/memory$b/state") == offline ]] || fail "memory$b: $(cat "$m/memory$b/state"): $output"
    done
}

@test "an unknown -o column is a usage error before any block is written (online, offline, --remove)" {
    cp -a "$(fixture lab-region-offline)" "$BATS_TEST_TMPDIR/t"
    m=$BATS_TEST_TMPDIR/t/sys/devices/system/memory
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" online region0 -o NOPE
    assert_failure 2
    assert_output --partial "NOPE"
    [[ $(cat "$m"/memory3[4-9]/state "$m"/memory4[01]/state | sort -u) == offline ]]
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/u"
    m=$BATS_TEST_TMPDIR/u/sys/devices/system/memory
    run cxltier --sysroot "$BATS_TEST_TMPDIR/u" offline region0 -o BLOK,STATE
    assert_failure 2
    [[ $(cat "$m"/memory3[4-9]/state "$m"/memory4[01]/state | sort -u) == online ]]
    run cxltier --sysroot "$BATS_TEST_TMPDIR/u" offline mem0 --remove -o BLOCK
    assert_failure 2
    [[ $(cat "$m"/memory3[4-9]/state "$m"/memory4[01]/state | sort -u) == online ]]
}

@test "a memdev whose region has no dax device fails as the region does, naming it" {
    cp -a "$(fixture lab-region-offline)" "$BATS_TEST_TMPDIR/t"
    rm -rf "$BATS_TEST_TMPDIR"/t/sys/devices/platform/ACPI0017:00/root0/decoder0.0/region0/dax_region0
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" online region0
    assert_failure 1
    run cxltier --sysroot "$BATS_TEST_TMPDIR/t" online mem0
    assert_failure 1
    assert_output --partial "mem0: region0 has no dax device: is dax_cxl loaded"
}

@test "--zone normal --force on blocks online in ZONE_MOVABLE: refused, not 'all as asked'" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-online)" online region0 --zone normal --force --dry-run -j
    assert_failure 1
    [[ $(jq -r '[.blocks[].action] | unique | join(",")' <<<"$output") == refuse ]]
    [[ $stderr == *"memory34 (dax0.0): refused: online in ZONE_MOVABLE, not normal: offline it first"* ]]
}

# two_region_tree DIR: the offline lab tree with a second region, region1
# (dax1.0 over memory42-45, 512 MiB), a copy of region0 on the same memdev
two_region_tree() {
    local d=$1/sys/devices/platform/ACPI0017:00/root0/decoder0.0 m=$1/sys/devices/system/memory b
    cp -a "$(fixture lab-region-offline)" "$1"
    cp -a "$d/region0" "$d/region1"
    mv "$d/region1/dax_region0" "$d/region1/dax_region1"
    mv "$d/region1/dax_region1/dax0.0" "$d/region1/dax_region1/dax1.0"
    echo 0x150000000 > "$d/region1/resource"; echo 0x20000000 > "$d/region1/size"
    echo 0x150000000 > "$d/region1/dax_region1/dax1.0/resource"
    echo 536870912 > "$d/region1/dax_region1/dax1.0/size"
    ln -s ../../../devices/platform/ACPI0017:00/root0/decoder0.0/region1 "$1/sys/bus/cxl/devices/region1"
    ln -s ../../../devices/platform/ACPI0017:00/root0/decoder0.0/region1/dax_region1/dax1.0 \
        "$1/sys/bus/dax/devices/dax1.0"
    for b in 42 43 44 45; do cp -a "$m/memory34" "$m/memory$b"; echo "$b" > "$m/memory$b/phys_index"; done
}

@test "--policy: reonline = yes for one device reonlines its blocks only" {
    two_region_tree "$BATS_TEST_TMPDIR/t"
    m=$BATS_TEST_TMPDIR/t/sys/devices/system/memory
    for b in 36 44; do echo online > "$m/memory$b/state"; echo Normal > "$m/memory$b/valid_zones"; done
    printf '[defaults]\nreonline = no\n[device region=region1]\nreonline = yes\n' > "$BATS_TEST_TMPDIR/p.conf"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" online --policy --config "$BATS_TEST_TMPDIR/p.conf" --dry-run -j
    assert_failure 64
    [[ $(jq -c '[.blocks[] | select(.id == 36 or .id == 44) | [.id, .device, .action]]' <<<"$output") == \
       '[[36,"dax0.0","refuse"],[44,"dax1.0","reonline_movable"]]' ]] || fail "$output $stderr"
}

# a tree whose memory38/state is a symlink: read as any, and a write to it
# refused (ELOOP), as the kernel refuses a block it cannot change
unwritable_block_tree() { # dir fixture
    cp -a "$(fixture "$2")" "$1"
    local m=$1/sys/devices/system/memory
    mv "$m/memory38/state" "$m/memory38/state.real"
    ln -s state.real "$m/memory38/state"
}

@test "a block that cannot be changed: the others are, named, exit 64 (partial), never 1" {
    unwritable_block_tree "$BATS_TEST_TMPDIR/t" lab-region-online
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" offline dax0.0 -j
    assert_failure 64
    [[ $stderr == *"memory38 (dax0.0): failed: "* && $stderr == *"7 blocks changed (896M), 0 already as asked, 1 not"* ]] ||
        fail "$stderr"
    [[ $(jq -c '[.blocks[] | .result] | group_by(.) | map([.[0], length])' <<<"$output") == '[["done",7],["failed",1]]' ]] ||
        fail "$output"
}

@test "--rollback whose rollback cannot put blocks back: each named rollback_failed, exit 64 (changed), never 1" {
    # a tree takes the write of online_movable but reads it back as no state:
    # the blocks stay changed, as when the kernel refuses to put them back
    unwritable_block_tree "$BATS_TEST_TMPDIR/t" lab-region-online
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" offline dax0.0 --rollback -j
    assert_failure 64
    [[ $stderr == *"memory34 (dax0.0): rollback_failed: "* && $stderr == *"rolled back 0 of the 7 that had changed"* ]] ||
        fail "$stderr"
}

@test "a block going offline is refused, online or offline, with 'try again later'" {
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/t"
    echo going-offline > "$BATS_TEST_TMPDIR/t/sys/devices/system/memory/memory36/state"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" offline dax0.0 --dry-run -j
    assert_failure 64    # the 7 others would go offline
    [[ $(jq -c '.blocks[] | select(.block == "memory36") | [.action, .note]' <<<"$output") == \
       '["refuse","in state going-offline: try again later"]' ]] || fail "offline: $output"
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" online dax0.0 --dry-run -j
    assert_failure 1     # nothing would change
    [[ $(jq -c '.blocks[] | select(.block == "memory36") | [.action, .note]' <<<"$output") == \
       '["refuse","in state going-offline: try again later"]' ]] || fail "online: $output"
}

@test "--rollback that puts every changed block back: rolled_back, exit 1 (nothing changed in the end), never 64" {
    # valid_zones "Movable" alone: an onlined block is read back as in Movable
    unwritable_block_tree "$BATS_TEST_TMPDIR/t" lab-region-offline
    for b in 34 35 36 37 38 39 40 41; do
        echo Movable > "$BATS_TEST_TMPDIR/t/sys/devices/system/memory/memory$b/valid_zones"
    done
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" online dax0.0 --rollback -j
    assert_failure 1
    [[ $stderr == *"rolled back 7 of the 7 that had changed"* ]] || fail "$stderr"
    [[ $(jq -c '[.blocks[] | .result] | group_by(.) | map([.[0], length])' <<<"$output") == '[["failed",1],["rolled_back",7]]' ]] ||
        fail "$output"
    [[ $(cat "$BATS_TEST_TMPDIR/t/sys/devices/system/memory/memory34/state") == offline ]]
}

# ---- the table in ranges, --split, and the run shown as it goes ----

# the table's lines, their trailing blanks cut
table() { sed 's/ *$//' <<<"$output"; }

@test "the table merges consecutive blocks that went alike into one row a range, as lsmem does" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-offline)" online all --dry-run
    assert_success
    [[ $(table) == "$(cat <<'T'
RANGE                   BLOCK SIZE NODE STATE           ZONE    RESULT  NOTE
0x110000000-0x14fffffff 34-41   1G    1 offline->online Movable planned
T
)" ]] || fail "$output"
    # blocks that went otherwise cut the range: online, offline, online again
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/t"
    m=$BATS_TEST_TMPDIR/t/sys/devices/system/memory
    for b in 36 37; do echo offline > "$m/memory$b/state"; echo "Normal Movable" > "$m/memory$b/valid_zones"; done
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" online dax0.0 --dry-run
    assert_success
    [[ $(table) == "$(cat <<'T'
RANGE                   BLOCK SIZE NODE STATE           ZONE    RESULT  NOTE
0x110000000-0x11fffffff 34-35 256M    1 online          Movable planned
0x120000000-0x12fffffff 36-37 256M    1 offline->online Movable planned
0x130000000-0x14fffffff 38-41 512M    1 online          Movable planned
T
)" ]] || fail "$output"
    # a gap between blocks cuts the range too
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-offline)" online memory34 memory36-37 --dry-run -o block,size
    assert_success
    [[ $(table) == $'BLOCK SIZE\n34    128M\n36-37 256M' ]] || fail "$output"
}

@test "a real run's table: the block that failed is a row of its own between the ranges done" {
    unwritable_block_tree "$BATS_TEST_TMPDIR/t" lab-region-online
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" offline dax0.0
    assert_failure 64
    [[ $(table) == "$(cat <<'T'
RANGE                   BLOCK SIZE NODE STATE           ZONE    RESULT NOTE
0x110000000-0x12fffffff 34-37 512M    1 online->offline         done
0x130000000-0x137ffffff 38    128M    1 online          Movable failed Too many levels of symbolic links
0x138000000-0x14fffffff 39-41 384M    1 online->offline         done
T
)" ]] || fail "$output"
}

@test "--split: one row a block; -j is one record a block with or without it" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-offline)" online all --dry-run --split -o block,range,state
    assert_success
    [[ $(table) == "$(cat <<'T'
BLOCK RANGE                   STATE
34    0x110000000-0x117ffffff offline->online
35    0x118000000-0x11fffffff offline->online
36    0x120000000-0x127ffffff offline->online
37    0x128000000-0x12fffffff offline->online
38    0x130000000-0x137ffffff offline->online
39    0x138000000-0x13fffffff offline->online
40    0x140000000-0x147ffffff offline->online
41    0x148000000-0x14fffffff offline->online
T
)" ]] || fail "$output"
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-offline)" online all --dry-run -j
    assert_success
    whole=$output
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-offline)" online all --dry-run --split -j
    assert_success
    [[ $output == "$whole" && $(jq '.blocks | length' <<<"$output") == 8 ]] || fail "$output"
}

@test "online and offline --dry-run at 80 columns: every row one line, on every fixture" {
    local fx tables=0
    for fx in "$CXLTIER_SRC"/test/fixtures/*.tar.gz; do
        fx=$(basename "$fx" .tar.gz)
        for verb in online offline; do
            run script -qec "stty cols 80 rows 24; '$CXLTIER' --sysroot '$(fixture "$fx")' $verb all --dry-run 2>/dev/null" /dev/null
            (( status == 0 || status == 1 || status == 64 )) || fail "$fx $verb: exit $status: $output"
            [[ $output == RANGE* ]] || continue    # no CXL memory there: no table
            tables=$((tables + 1))
            while IFS= read -r line; do
                line=${line%$'\r'}
                (( ${#line} <= 80 )) || fail "$fx $verb: a line of ${#line} columns: $line"
            done <<<"$output"
        done
    done
    (( tables >= 8 )) || fail "only $tables tables"
}

@test "-v says each block as it is done, as chmem -v does; stderr to a file holds no progress line" {
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/t"
    "$CXLTIER" --sysroot "$BATS_TEST_TMPDIR/t" offline dax0.0 -v > "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err"
    err=$(cat "$BATS_TEST_TMPDIR/err")
    ! grep -q $'\r' "$BATS_TEST_TMPDIR/err" || fail "a carriage return on stderr, not a terminal: $(cat -A "$BATS_TEST_TMPDIR/err")"
    ! grep -q 'blocks, ' "$BATS_TEST_TMPDIR/err" || fail "a progress line on stderr, not a terminal: $err"
    [[ $(grep -c '^cxltier offline: memory block [0-9]* (0x[0-9a-f]*-0x[0-9a-f]*) offlined$' <<<"$err") == 8 ]] || fail "$err"
    [[ $(head -1 <<<"$err") == "cxltier offline: memory block 34 (0x110000000-0x117ffffff) offlined" ]] || fail "$err"
    # again: each block already so
    run --separate-stderr cxltier --sysroot "$BATS_TEST_TMPDIR/t" offline memory40 -v
    assert_success
    [[ $stderr == *"memory block 40 (0x140000000-0x147ffffff) already offline"* ]] || fail "$stderr"
}

@test "on a terminal a progress line on stderr (done/total, size, rate, time), erased at the end" {
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/t"
    # the bytes written to the terminal: the line drawn, then erased
    run script -qec "stty cols 80 rows 24; '$CXLTIER' --sysroot '$BATS_TEST_TMPDIR/t' offline dax0.0 > /dev/null" /dev/null
    assert_success
    # (drawn with the terminal's wrapping off: a line too wide is cut, never wrapped)
    [[ $output =~ $'\r\e[?7l'"offline: 1/8 blocks, 128M of 1G, "([0-9.]+[KMGT]?/s, )?"0:00"$'\e[K\e[?7h' ]] ||
        fail "$(cat -A <<<"$output")"
    last=${output##*blocks, }
    [[ ${last%%$'\n'*} == *$'\e[K\e[?7h\r\e[K'* ]] || fail "the last line drawn is not erased: $(cat -A <<<"$output")"
}

@test "on a terminal the final screen holds the table and the messages, nothing of the progress line" {
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/t"
    cp -a "$(fixture lab-region-online)" "$BATS_TEST_TMPDIR/u"
    sock=$BATS_TEST_TMPDIR/tmux
    # a run, then one with -v (its lines a block between the line's draws)
    tmux -S "$sock" new-session -d -x 80 -y 24 \
        "'$CXLTIER' --sysroot '$BATS_TEST_TMPDIR/t' offline dax0.0; '$CXLTIER' --sysroot '$BATS_TEST_TMPDIR/u' offline dax0.0 -v;
         tmux -S '$sock' wait-for -S ran; exec cat"
    tmux -S "$sock" wait-for ran
    screen=$(tmux -S "$sock" capture-pane -p)
    tmux -S "$sock" kill-server
    [[ $screen == *"memory block 41 (0x148000000-0x14fffffff) offlined"* &&
       $(grep -c "8 blocks changed (1G)" <<<"$screen") == 2 &&
       $(grep -c "^0x110000000-0x14fffffff 34-41   1G    1 online->offline" <<<"$screen") == 2 ]] || fail "$screen"
    [[ $screen != *"blocks, "* && $screen != *"/8 blocks"* ]] || fail "the progress line stayed: $screen"
}
