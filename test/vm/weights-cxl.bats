#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: inspect
# The weighted-interleave weights of DRAM (node 0) and the CXL node, as
# cxltier computes them from the figures `tiers` ranks, against the kernel's
# own auto mode (7.x), with no process placed on the CXL node (run.bats
# says why: QEMU and page tables in its emulated CXL memory).
load helper

WI=/sys/kernel/mm/mempolicy/weighted_interleave

cxl_node() { cat /sys/bus/dax/devices/$(vm_dax_of "$(ensure_region)")/target_node; }

setup_file() {
    r=$(ensure_region)
    vm_online_movable "$(vm_dax_of "$r")"
}

teardown() {
    # the weights as they were (writing a nodeN turns auto off: auto last)
    if [[ -n ${SAVED_WEIGHTS:-} ]]; then
        local nw
        for nw in $SAVED_WEIGHTS; do echo "${nw#*=}" > "$WI/node${nw%=*}"; done
        [[ ${SAVED_AUTO:-} == true ]] && echo true > "$WI/auto"
    fi
    true
}

@test "DRAM and CXL: the weights cxltier computes from the figures tiers ranks; the 7.x kernel's auto mode chooses the same" {
    [[ -d $WI ]] || skip "no weighted interleave on this kernel"
    c=$(cxl_node)
    SAVED_AUTO=$(cat "$WI/auto" 2>/dev/null || true)
    SAVED_WEIGHTS="0=$(cat $WI/node0) $c=$(cat $WI/node$c)"
    weights_computed 0 "$c"
    j=$WEIGHTS_JSON w0=${COMPUTED[0]} wc=${COMPUTED[$c]}
    # the CXL node has figures of its own (CDAT and the link, or HMAT), not the default 1
    assert_equal "$(jq -r --argjson n "$c" '.nodes[] | select(.node == $n) | .why' <<<"$j")" scaled
    (( w0 >= 1 && wc >= 1 && w0 >= wc ))
    run cxltier weights --set
    assert_success
    assert_equal "$(cat $WI/node0):$(cat $WI/node$c)" "$w0:$wc"
    [[ -e $WI/auto ]] || return 0   # 6.12: no auto mode
    run cxltier weights --auto
    assert_success
    echo "# the kernel's auto weights: $(cat $WI/node0):$(cat $WI/node$c), cxltier's $w0:$wc" >&3
    assert_equal "$(cat $WI/node0):$(cat $WI/node$c)" "$w0:$wc"
}
