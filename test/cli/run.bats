#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier run`: a command started under a memory policy. The policy on this
# machine's own kernel (node 0); tiers resolved against captured trees with
# --dry-run. The split of a weighted interleave over DRAM and CXL is
# test/vm/run.bats'.
load helper

WI=sys/kernel/mm/mempolicy/weighted_interleave

@test "the command's exit status is run's" {
    run cxltier run --node 0 -- sh -c 'exit 3'
    assert_failure 3
    run cxltier run --node 0 -- true
    assert_success
    run cxltier run --node 0 -- sh -c 'kill -TERM $$'
    assert_failure 143
}

@test "127: the command not found; 126: found but not runnable; cxltier says which" {
    run -127 --separate-stderr cxltier run --node 0 -- no-such-command-here
    assert_failure 127
    assert_equal "$stderr" "cxltier run: error: no-such-command-here: command not found"
    printf 'echo hi\n' > "$BATS_TEST_TMPDIR/not-executable"
    run --separate-stderr cxltier run --node 0 -- "$BATS_TEST_TMPDIR/not-executable"
    assert_failure 126
    assert_equal "$stderr" "cxltier run: error: $BATS_TEST_TMPDIR/not-executable: Permission denied"
    run --separate-stderr cxltier run --node 0 -- "$BATS_TEST_TMPDIR"
    assert_failure 126
}

@test "the arguments reach the command as given: options end at the command, -- allowed" {
    run cxltier run --node 0 -- printf '%s|' -a --b -- '' 'c d'
    assert_success
    assert_output -- "-a|--b|--||c d|"
    # without --: the first operand ends cxltier's options (-v and -l are ls's)
    run cxltier run --node 0 printf '%s|' -v --node -l
    assert_success
    assert_output -- "-v|--node|-l|"
    # a command whose name starts with -: after --
    run -127 --separate-stderr cxltier run --node 0 -- -dash-command
    assert_failure 127
    assert_equal "$stderr" "cxltier run: error: -dash-command: command not found"
}

@test "the command gets the caller's descriptors and environment, none of cxltier's" {
    direct=$(sh -c 'ls /proc/$$/fd' | sort -n | tr '\n' ' ')
    under=$(cxltier run --node 0 -- sh -c 'ls /proc/$$/fd' | sort -n | tr '\n' ' ')
    assert_equal "$under" "$direct"
    # a descriptor of the caller's stays open in the command
    under=$(cxltier run --node 0 -- sh -c 'ls /proc/$$/fd' 7</dev/null | tr '\n' ' ')
    [[ " $under" == *" 7 "* ]]
    assert_equal "$(cxltier run --node 0 -- env | grep -v '^_=' | sort)" "$(env | grep -v '^_=' | sort)"
}

@test "the policy the command runs under, as its numa_maps shows it" {
    run cxltier run --node 0 --bind -- cat /proc/self/numa_maps
    assert_success
    assert_line --partial " bind:0 "
    run cxltier run --node 0 --interleave -- cat /proc/self/numa_maps
    assert_success
    assert_line --partial " interleave:0 "
    # the default: preferred
    run cxltier run --node 0 -- cat /proc/self/numa_maps
    assert_success
    assert_line --partial " prefer:0 "
    [[ -d /$WI ]] || skip "this kernel has no weighted interleave (6.9+)"
    run cxltier run --node 0 --weighted -- cat /proc/self/numa_maps
    assert_success
    assert_line --partial " weighted interleave:0 "
}

@test "-v says the policy on stderr and runs the command; --dry-run says it on stdout and runs nothing" {
    run --separate-stderr cxltier run -v --node 0 --bind -- echo ran
    assert_success
    assert_output "ran"
    assert_equal "$stderr" "cxltier run: running echo under bind on node 0"
    run --separate-stderr cxltier run --dry-run --node 0 --interleave -- touch "$BATS_TEST_TMPDIR/ran"
    assert_success
    assert_output "would run touch under interleave on node 0"
    [[ ! -e $BATS_TEST_TMPDIR/ran ]]
}

@test "a node that does not exist: refused before the command runs, 125" {
    run --separate-stderr cxltier run --node 0,999 -- touch "$BATS_TEST_TMPDIR/ran"
    assert_failure 125
    assert_equal "$stderr" "cxltier run: error: node 999 does not exist (the nodes: 'cxltier tiers')"
    [[ ! -e $BATS_TEST_TMPDIR/ran ]]
}

@test "cxltier's own failures are 125, as env(1)'s" {
    local args
    while IFS= read -r args; do
        eval "run --separate-stderr cxltier run $args -- touch $BATS_TEST_TMPDIR/ran"
        [[ $status == 125 ]] || fail "run $args: exit $status, not 125 ($stderr)"
        [[ $stderr == "cxltier run: error: "* ]] || fail "run $args: said '$stderr'"
    done <<'EOF2'
--no-such-option --node 0
--node 0 --bind --interleave
--node 0 --weighted --preferred
--node 0 --tier fastest
--bind
--node x
--node 3-1
--node ''
--tier fastest:0
--node 0 -j
EOF2
    [[ ! -e $BATS_TEST_TMPDIR/ran ]]
    run --separate-stderr cxltier run --node 0
    assert_failure 125
    assert_equal "$stderr" "cxltier run: error: which command? give it after the options: cxltier run --node 0 -- COMMAND [ARG]..."
    run --separate-stderr cxltier run --node 0 --bind --interleave true
    assert_failure 125
    assert_equal "$stderr" "cxltier run: error: give one mode: --bind, --preferred, --interleave or --weighted"
    run --separate-stderr cxltier run --sysroot "$(fixture lab-two-socket)" --node 0 true
    assert_failure 125
    assert_equal "$stderr" "cxltier run: error: --sysroot $(fixture lab-two-socket): the policy would be this system's, the nodes the tree's: give --dry-run to resolve against the tree"
    run cxltier run --help
    assert_success
    assert_line --partial "Exit: the command's status; 125"
}

@test "tiers name the nodes: numbers, fastest, slowest, fastest:K, slowest:K (two-socket tree: tiers 4, 5, 1000)" {
    local root spec want
    root=$(fixture lab-two-socket)
    while IFS='|' read -r spec want; do
        run --separate-stderr cxltier --sysroot "$root" run --tier "$spec" --dry-run app
        assert_success
        assert_equal "$output" "would run app under $want"
    done <<'EOF2'
fastest|preferred-many on nodes 0-1 (memory tier 4)
slowest|preferred on node 3 (memory tier 1000)
fastest:2|preferred-many on nodes 0-2 (memory tiers 4,5)
slowest:2|preferred-many on nodes 2-3 (memory tiers 5,1000)
fastest:3|preferred-many on nodes 0-3 (memory tiers 4,5,1000)
5,1000|preferred-many on nodes 2-3 (memory tiers 5,1000)
5|preferred on node 2 (memory tier 5)
fastest,slowest|preferred-many on nodes 0-1,3 (memory tiers 4,1000)
EOF2
    run --separate-stderr cxltier --sysroot "$root" run --tier 5 --bind --dry-run app
    assert_success
    assert_output "would run app under bind on node 2 (memory tier 5)"
    run --separate-stderr cxltier --sysroot "$root" run --tier 7 --dry-run app
    assert_failure 125
    assert_equal "$stderr" "cxltier run: error: tier 7: no such memory tier (see 'cxltier tiers')"
    run --separate-stderr cxltier --sysroot "$root" run --tier fastest:4 --dry-run app
    assert_failure 125
    assert_equal "$stderr" "cxltier run: error: tier 'fastest:4': this system has 3 memory tiers (see 'cxltier tiers')"
    for spec in fast fastest: fastest:x 4, ,4 -1 tier4; do
        run --separate-stderr cxltier --sysroot "$root" run --tier "$spec" --dry-run app
        assert_failure 125
        [[ $stderr == "cxltier run: error: tier"* ]] || fail "--tier '$spec': said '$stderr'"
    done
}

@test "a node without memory is refused: its blocks offline (tree with the region offline)" {
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-offline)" run --node 0-1 --dry-run app
    assert_failure 125
    assert_equal "$stderr" "cxltier run: error: node 1 has no memory online: online its memory blocks ('cxltier online') or name another node"
}

@test "--weighted: the kernel's weights shown as the split the command gets; a kernel without them: unsupported" {
    local root=$BATS_TEST_TMPDIR/tree
    cp -r "$(fixture lab-region-online)" "$root"
    run --separate-stderr cxltier --sysroot "$root" run --tier fastest:2 --weighted --dry-run app
    assert_failure 125
    assert_equal "$stderr" "cxltier run: error: $root/sys/kernel/mm/mempolicy/weighted_interleave: absent: this kernel has no weighted interleave (Linux 6.9 or later has it)"
    mkdir -p "$root/$WI"
    echo 3 > "$root/$WI/node0"
    echo 1 > "$root/$WI/node1"
    run --separate-stderr cxltier --sysroot "$root" run --tier fastest:2 --weighted --dry-run app
    assert_success
    assert_output "would run app under weighted-interleave on nodes 0-1 (memory tiers 4,8)
node 0: weight 3 of 4, 75.0 % of the pages
node 1: weight 1 of 4, 25.0 % of the pages"
    echo false > "$root/$WI/auto"
    echo 2 > "$root/$WI/node1"
    run --separate-stderr cxltier --sysroot "$root" run --node 0-1 --weighted --dry-run app
    assert_success
    assert_line "node 1: weight 2 of 5, 40.0 % of the pages (manual)"
    # weights are shown only for --weighted
    run --separate-stderr cxltier --sysroot "$root" run --node 0-1 --interleave --dry-run app
    assert_success
    assert_output "would run app under interleave on nodes 0-1"
}
