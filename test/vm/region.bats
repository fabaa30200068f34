#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: inject
# vm-userland: trixie -- region create and destroy through libcxl 81 (create_ram_region), as cxltier built on Debian 13 does them
# `cxltier region create/destroy` against the kernel's region driver: one
# memdev, a 1-way RAM region. The tests run in order; each leaves no region.
load helper

region_gone() { ! ls $CXL | grep -q '^region[0-9]'; }

setup_file() {
    # the other files of this boot may have made one through ensure_region
    for r in $(ls $CXL | grep '^region[0-9]'); do cxltier region destroy "$r" --offline >/dev/null; done
}

teardown() {
    for r in $(ls $CXL | grep '^region[0-9]'); do cxltier region destroy "$r" --offline >/dev/null 2>&1 || true; done
}

@test "create --dry-run plans a 1-way region over mem0 and changes nothing" {
    run --separate-stderr cxltier region create mem0 --dry-run -j
    assert_success
    ep=$(vm_endpoint_of mem0)
    run jq -e --arg dec "$(vm_free_decoder "$ep")" --argjson sz $(( $(cat $CXL/mem0/ram/size) )) \
        '.regions[0] | .state == "planned" and .interleave_ways == 1 and .size == $sz
         and .targets[0].decoder == $dec and .targets[0].memdev == "mem0"' <<<"$output"
    assert_success
    region_gone
}

@test "create mem0: committed, bound, its dax device there; the JSON is list's" {
    run --separate-stderr timeout 120 cxltier region create mem0 -j -v
    assert_success
    r=$(jq -r '.regions[0].name' <<<"$output")
    [[ $stderr == *"created $r under decoder0.0"* ]]
    # -v: each step as it is written, N of all, the last the bind
    [[ $stderr == *"step 1/"[0-9]*": create a RAM region under decoder0.0"*"$r commit"*": bind $r to the cxl_region driver"* ]] ||
        fail "$stderr"
    assert_equal "$(cat $CXL/$r/commit)" 1
    assert_equal "$(cat $CXL/$r/mode)" ram
    assert_equal "$(cat $CXL/$r/interleave_ways)" 1
    assert_equal "$(( $(cat $CXL/$r/size) ))" "$(( $(cat $CXL/mem0/ram/size) ))"
    [[ -e $CXL/$r/driver ]]
    dec=$(cat $CXL/$r/target0)
    assert_equal "$(cat $CXL/$dec/mode)" ram
    d=$(vm_dax_of "$r")
    [[ -n $d && -e /sys/bus/dax/devices/$d ]]
    assert_equal "$(jq -c '.regions[0] | del(.dax_devices)' <<<"$output")" \
                 "$(cxltier list -j --region "$r" | jq -c '.regions[0] | del(.dax_devices)')"
}

@test "its memory onlines movable; destroy refuses while online, --offline takes it all back" {
    r=$(cxltier region create mem0 -j | jq -r '.regions[0].name')
    dec=$(cat $CXL/$r/target0)
    run cxltier online "$r"
    assert_success
    run cxltier region destroy "$r"
    assert_failure 1
    assert_output --partial "memory blocks online"
    [[ -e $CXL/$r ]]
    run --separate-stderr timeout 300 cxltier region destroy "$r" --offline -j -v
    assert_success
    [[ $(jq -r '.regions[0].state' <<<"$output") == destroyed ]]
    # -v: each block as it goes offline, then each step, the last the delete
    [[ $stderr =~ "memory block "[0-9]+" (0x"[0-9a-f]+"-0x"[0-9a-f]+") offlined" &&
       $stderr == *"delete_region = $r"* ]] || fail "$stderr"
    [[ ! -e $CXL/$r ]]
    assert_equal "$(( $(cat $CXL/$dec/dpa_size) ))" 0
    assert_equal "$(cat $CXL/$dec/region)" ""
}

@test "destroy --force (cxl destroy-region's -f: --offline) with a pinned block: the offline fails naming the block, every block back online, the region left, exit 1" {
    r=$(cxltier region create mem0 -j | jq -r '.regions[0].name')
    D=$(vm_dax_of "$r")
    run cxltier online "$r"
    assert_success
    start_pinner "$(cat /sys/bus/dax/devices/$D/target_node)"
    [[ $PINNED == memory* ]] || fail "pin-pages could not tell its blocks: $PINNED"
    run --separate-stderr timeout 300 cxltier region destroy "$r" --force --timeout 5
    kill "$PIN_PID"; wait "$PIN_PID" 2>/dev/null || true
    assert_equal "$status" 1
    [[ $stderr =~ $r:\ offlining\ its\ memory\ failed\ at\ (memory[0-9]+):\ [a-z_]+ ]] ||
        fail "not the offline failure, named: $stderr"
    [[ " $PINNED " == *" ${BASH_REMATCH[1]} "* ]] || fail "${BASH_REMATCH[1]} is not a pinned block ($PINNED)"
    [[ $stderr == *"the blocks that went offline were put back online and the region is left as it was"* ]] ||
        fail "not said that the blocks were put back: $stderr"
    [[ $stderr != *"(null)"* ]] || fail "a missing note printed as (null): $stderr"
    [[ -e $CXL/$r ]]
    for b in $(vm_blocks_of "$D"); do
        assert_equal "$b $(cat $MEMSYS/$b/state)" "$b online"
    done
    run timeout 300 cxltier region destroy "$r" --offline
    assert_success
}

@test "create, destroy, create again: the decoder is free again, through the same steps" {
    for i in 1 2; do
        run --separate-stderr cxltier region create mem0 -j
        assert_success
        r=$(jq -r '.regions[0].name' <<<"$output")
        run cxltier region destroy "$r"
        assert_success
        region_gone
    done
}

@test "a memdev already fully mapped is refused before anything is written" {
    r=$(cxltier region create mem0 -j | jq -r '.regions[0].name')
    run cxltier region create mem0
    assert_failure 1
    assert_output --partial "mem0 has no free volatile capacity"
    assert_equal "$(ls $CXL | grep -c '^region[0-9]')" 1
}
