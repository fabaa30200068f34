#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: ram-node
# vm-args: --ram-node 512M
# `cxltier weights` and `tiers` against the kernel's weighted interleave
# (/sys/kernel/mm/mempolicy/weighted_interleave: 6.12 manual weights, 7.x
# manual and auto) on node 0 (DRAM, HMAT 20 GB/s) and the cpu-less RAM node
# (HMAT 18 GB/s): the weights read and shown, set (computed, given), a dry
# run that writes nothing, auto mode where the kernel has it. The kill
# between two node writes is walked in crash-weights.bats (crash build).
load helper
load ram-node

WI=/sys/kernel/mm/mempolicy/weighted_interleave

# the kernel's weights of node 0 and the RAM node, and its mode ("-": none)
state() {
    local a=-
    [[ -e $WI/auto ]] && a=$(cat $WI/auto)
    echo "$(cat $WI/node0) $(cat $WI/node$N) $a"
}

setup_file() {
    ram_node > "$BATS_FILE_TMPDIR/node"
    N=$(cat "$BATS_FILE_TMPDIR/node")
    state > "$BATS_FILE_TMPDIR/before"
}

setup() {
    N=$(cat "$BATS_FILE_TMPDIR/node")
    [[ -n $N ]] || fail "no cpu-less RAM node (vm-args --ram-node)"
}

# the weights as they were before the file: the mode back last (auto on
# again recomputes them)
teardown() {
    local w0 wn a
    read -r w0 wn a < "$BATS_FILE_TMPDIR/before"
    echo "$w0" > $WI/node0
    echo "$wn" > $WI/node$N
    [[ $a == true ]] && echo true > $WI/auto
    rm -rf /run/cxltier
}

# 7.x has auto mode, 6.12 has not
kernel_has_auto() { [[ $(uname -r) != 6.12* ]]; }

@test "weights and tiers: the kernel's weights and mode as sysfs has them, the HMAT bandwidth they come from" {
    local out a
    [[ -d $WI ]] || fail "no $WI on $(uname -r)"
    if kernel_has_auto; then [[ -e $WI/auto ]] || fail "7.x without $WI/auto"; a=true; else [[ ! -e $WI/auto ]] || fail "6.12 with $WI/auto"; a=false; fi
    out=$(cxltier weights -j)
    assert_equal "$(jq -r '.nodes[] | select(.node == 0) | .kernel_weight' <<<"$out")" "$(cat $WI/node0)"
    assert_equal "$(jq -r ".nodes[] | select(.node == $N) | .kernel_weight" <<<"$out")" "$(cat $WI/node$N)"
    assert_equal "$(jq -r '.has_auto' <<<"$out")" "$a"
    if [[ $a == true ]]; then
        assert_equal "$(jq -r .mode <<<"$out")" "$([[ $(cat $WI/auto) == true ]] && echo auto || echo manual)"
    fi
    # node 0 and the RAM node have their HMAT figures (access1: 20 and 18 GB/s)
    assert_equal "$(jq -c "[.nodes[] | select(.node == 0 or .node == $N) | .bandwidth_source]" <<<"$out")" '["node","node"]'
    assert_equal "$(jq -c "[.nodes[] | select(.node == 0 or .node == $N) | .bandwidth_mbps]" <<<"$out")" '[20480,18432]'
    # the figures, for the record
    jq -r '.nodes[] | "# node\(.node): read \(.read_bandwidth_mbps) write \(.write_bandwidth_mbps) MB/s (\(.bandwidth_source)), 32 x \(.bandwidth_mbps) / \(.sum_mbps) = \(.raw_weight), GCD \(.gcd): \(.computed_weight); kernel \(.kernel_weight)"' <<<"$out" >&3
    out=$(cxltier tiers -j)
    assert_equal "$(jq -r ".nodes[] | select(.node == $N) | .weighted_interleave.kernel_weight" <<<"$out")" "$(cat $WI/node$N)"
    assert_equal "$(jq -r '.settings.weighted_interleave.has_auto' <<<"$out")" "$a"
}

@test "weights --set --dry-run writes nothing; --set writes the computed weights (auto off on 7.x); --set N=W the given ones" {
    local before out c0 cn
    before=$(state)
    run --separate-stderr cxltier weights --set --dry-run -j
    assert_success
    assert_equal "$(state)" "$before"
    assert_equal "$(jq -r .set.dry_run <<<"$output")" true
    c0=$(jq -r '.nodes[] | select(.node == 0) | .computed_weight' <<<"$output")
    cn=$(jq -r ".nodes[] | select(.node == $N) | .computed_weight" <<<"$output")
    # 32 x 20480 / 38912 = 16, 32 x 18432 / 38912 = 15: GCD 1
    assert_equal "$c0 $cn" "16 15"
    run --separate-stderr cxltier weights --set -j
    assert_success
    # (in auto mode, weights equal to the computed ones are written all the
    # same: the set then holds, auto off, and said)
    if kernel_has_auto; then
        assert_equal "$(state)" "16 15 false"
        [[ $stderr == *"turned the kernel's auto mode off"* ]] || fail "$stderr"
    else
        assert_equal "$(state)" "16 15 -"
    fi
    [[ -z $(compgen -G "/run/cxltier/weights-change.*") ]] || fail "a record left"
    run --separate-stderr cxltier weights --set "0=3,$N=1" -j
    assert_success
    assert_equal "$(state | cut -d' ' -f1,2)" "3 1"
    assert_equal "$(jq -c '[.set.how, .set.writes]' <<<"$output")" '["given",2]'
    run --separate-stderr cxltier weights --set 0=256
    assert_failure 2
    assert_equal "$(state | cut -d' ' -f1,2)" "3 1"
}

@test "weights --auto: 7.x derives the weights itself (recorded beside cxltier's); 6.12 has no auto mode: 77" {
    if ! kernel_has_auto; then
        run --separate-stderr cxltier weights --auto
        assert_failure 77
        [[ $stderr == *"Linux 6.16 or later"* ]] || fail "$stderr"
        return
    fi
    cxltier weights --set "0=3,$N=1" > /dev/null
    assert_equal "$(cat $WI/auto)" false
    run --separate-stderr cxltier weights --auto -j
    assert_success
    assert_equal "$(cat $WI/auto)" true
    assert_equal "$(jq -c '[.set.mode_before, .set.mode_after]' <<<"$output")" '["manual","auto"]'
    echo "# the 7.x kernel's auto weights: node0 $(cat $WI/node0), node$N $(cat $WI/node$N);" \
         "cxltier's: $(jq -c '[.nodes[] | "node\(.node) \(.computed_weight)"]' <<<"$output")" >&3
    # the kernel's auto mode and cxltier's computation agree on the same figures
    assert_equal "$(cat $WI/node0) $(cat $WI/node$N)" \
        "$(jq -r '.nodes[] | select(.node == 0) | .computed_weight' <<<"$output") $(jq -r ".nodes[] | select(.node == $N) | .computed_weight" <<<"$output")"
}
