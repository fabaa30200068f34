#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# (a boot of its own: on 7.x a region made after this file's create and
# destroy cycles showed no access0 figures, which tiers.bats of the inspect
# group reads)
# ndctl 81 (Debian 13's cxl, with its own libraries) as the oracle of
# cxltier's views on the real kernel, one memdev: the memdevs, a region made
# by `cxl create-region` read by cxltier, one made by `cxltier region create`
# read by `cxl list` (ndctl-oracle.bash says what is compared). The other
# topologies run the same comparison in their own files (topology.bash).
load helper
load ndctl-oracle

setup_file() {
    for r in $(ls $CXL | grep '^region[0-9]'); do cxltier region destroy "$r" --offline >/dev/null; done
}

teardown() {
    # a failed test's region (each test leaves none)
    for r in $(ls $CXL | grep '^region[0-9]'); do cxltier region destroy "$r" --offline >/dev/null 2>&1 || true; done
}

@test "ndctl 81 is there, and its cxl list works on this kernel" {
    oracle_ready
    run $CXL81 list -M
    assert_success
    [[ $(jq length <<<"$output") -ge 1 ]] || fail "cxl list -M shows no memdev: $output"
}

@test "every memdev: serial, host, sizes, firmware and QoS class as cxl list -M has them" {
    oracle_ready
    oracle_memdevs
}

@test "a region made by cxl create-region is listed by cxltier as cxl list has it, and one cxltier makes as cxltier said" {
    oracle_ready
    oracle_regions_both_ways mem0
}

@test "the oracle catches a difference: a region object with a wrong size and target decoder is named, field by field" {
    oracle_ready
    r=$(cxltier region create mem0 -j | jq -c '.regions[0]')
    name=$(jq -r .name <<<"$r")
    run --separate-stderr oracle_region "$name" "$(jq -c '.size += 268435456 | .targets[0].decoder = "decoder9.9"' <<<"$r")"
    cxltier region destroy "$name" >/dev/null
    assert_failure 1
    [[ $stderr == *"$name: size: cxltier $(( $(jq .size <<<"$r") + 268435456 )), ndctl 81 $(jq .size <<<"$r")"* ]] || fail "$stderr"
    [[ $stderr == *"$name: targets: cxltier "*'"decoder9.9"'* ]] || fail "$stderr"
}

@test "cxltier built on Debian 13 (libcxl 81): region create and destroy go through libcxl; cxl list reports the region as it said; its list is the Debian 12 build's" {
    cxltier13_ready
    run --separate-stderr cxltier13 region create mem0 --dry-run
    assert_success
    [[ $stderr == *"through libcxl"* ]] || fail "the Debian 13 build does not plan through libcxl: $stderr"
    run --separate-stderr cxltier region create mem0 --dry-run
    assert_success
    [[ $stderr == *"through sysfs"* ]] || fail "the Debian 12 build (libcxl 76.1) does not plan through sysfs: $stderr"
    run --separate-stderr cxltier13 region create mem0 -j
    assert_success
    [[ $stderr == *"through libcxl"* ]] || fail "$stderr"
    made=$(jq -c '.regions[0]' <<<"$output")
    r=$(jq -r .name <<<"$made")
    dec=$(cat $CXL/$r/target0)
    oracle_region "$r" "$made"
    assert_equal "$(cxltier13 list -j 2>/dev/null | jq -S -c .)" "$(cxltier list -j 2>/dev/null | jq -S -c .)"
    run --separate-stderr cxltier13 region destroy "$r"
    assert_success
    [[ $stderr == *"destroyed $r (through libcxl)"* ]] || fail "$stderr"
    [[ ! -e $CXL/$r ]] || fail "$r still there"
    assert_equal "$(( $(cat $CXL/$dec/dpa_size) ))" 0
}
