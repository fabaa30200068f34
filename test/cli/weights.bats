#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# cxltier weights on a tree with the kernel's weighted-interleave files
# (test/fixtures/edited/k7-weights.sh: node0 3, node1 1, auto false; node0
# DRAM 20480 MB/s, node1 CXL 16000 MB/s from region0's access1): the
# weights computed as the kernel's auto mode would, shown beside the
# kernel's, and set (computed, given, auto) under the lock with a record a
# killed run leaves for the next one.
load helper

WI=sys/kernel/mm/mempolicy/weighted_interleave

# a fresh copy of the tree (every test writes to it)
tree() {
    local t=$BATS_TEST_TMPDIR/t
    cp -a "$(fixture k7-weights)" "$t"
    echo "$t"
}

weights_of() { echo "$(cat "$1/$WI/node0") $(cat "$1/$WI/node1") $(cat "$1/$WI/auto")"; }

built_with_crash_points() { grep -qx '#define CXLTIER_CRASH_POINTS 1' "$CXLTIER_BUILD/config.h"; }

@test "weights: per node the bandwidth, whose figures, the computed weight, the kernel's, and the mode" {
    local t
    t=$(tree)
    run --separate-stderr cxltier weights --sysroot "$t"
    assert_success
    assert_line --index 0 --regexp '^NODE +BW +FROM +CALC +KERNEL$'
    assert_line --index 1 --regexp '^ +0 +20480 +node +17 +3$'
    assert_line --index 2 --regexp '^ +1 +16000 +region +14 +1$'
    assert_line 'weights: manual'
    run cxltier weights --sysroot "$t" -j
    assert_success
    assert_equal "$(jq -c '[.supported, .mode, .has_auto, .sum_mbps, .gcd]' <<<"$output")" '[true,"manual",true,36480,1]'
    assert_equal "$(jq -c '[.nodes[] | [.node, .computed_weight, .kernel_weight, .bandwidth_source]]' <<<"$output")" \
        '[[0,17,3,"node"],[1,14,1,"region"]]'
}

@test "tiers: WEIGHT a default column and the mode in the settings where the kernel has weighted interleave; neither where not" {
    local t
    t=$(tree)
    run --separate-stderr cxltier tiers --sysroot "$t"
    assert_success
    assert_line --index 0 --regexp '^NODE +CPUS +SIZE +TIER +FIGS +RD-LAT +RD-BW +CXL +DEMOTES-TO +RANK +WEIGHT$'
    assert_line --index 1 --regexp ' 1 +3$'
    assert_line --regexp '^DEMOTION .* WEIGHTS$'
    assert_line --regexp ' manual$'
    run --separate-stderr cxltier tiers --sysroot "$t" -o NODE,WEIGHT,CALC-WEIGHT,WEIGHT-BW
    assert_success
    assert_line --index 2 --regexp '^ +1 +1 +14 +16000$'
    run --separate-stderr cxltier tiers --sysroot "$(fixture k7-region-online)"
    assert_success
    refute_line --partial WEIGHT
    run cxltier tiers --sysroot "$t" -j
    assert_success
    assert_equal "$(jq -c '.settings.weighted_interleave' <<<"$output")" '{"mode":"manual","has_auto":true}'
}

@test "weights -v: the arithmetic, step by step (32 x BW / SUM, GCD)" {
    local t
    t=$(tree)
    run --separate-stderr cxltier weights --sysroot "$t" -v
    assert_success
    assert_line --index 0 --regexp '^NODE +RD-BW +WR-BW +BW +FROM +SCALED +SUM +RAW +GCD +CALC +KERNEL +WHY$'
    assert_line --index 1 --regexp '^ +0 +20480 +20480 +20480 +node +655360 +36480 +17 +1 +17 +3 +scaled$'
    assert_line --partial 'CALC = 32 x BW / SUM when 32 x BW > SUM, else 1; then / GCD'
}

@test "weights on a kernel without weighted interleave: 77, the version that has it; --set too" {
    run --separate-stderr cxltier weights --sysroot "$(fixture k7-region-online)"
    assert_failure 77
    [[ ! -e $(fixture k7-region-online)/run ]] || fail "a run that changes nothing made the run directory"
    [[ $stderr == *"no weighted interleave (Linux 6.9 or later has it)"* ]] || fail "$stderr"
    run --separate-stderr cxltier weights --set --sysroot "$(fixture k7-region-online)"
    assert_failure 77
}

@test "weights --set --dry-run: what would be written, nothing written, no lock taken" {
    local t
    t=$(tree)
    run --separate-stderr cxltier weights --sysroot "$t" --set --dry-run
    assert_success
    assert_line --index 1 --regexp '^ +0 +20480 +node +17 +3 +17$'
    assert_equal "$(weights_of "$t")" "3 1 false"
    [[ ! -e $t/run/cxltier/memory-blocks.lock ]] || fail "a dry run took the lock"
    run cxltier weights --sysroot "$t" --set --dry-run -j
    assert_success
    assert_equal "$(jq -c '[.set.dry_run, .set.writes, [.nodes[].after]]' <<<"$output")" '[true,0,[17,14]]'
    run --separate-stderr cxltier weights --sysroot "$t" --dry-run
    assert_failure 2
}

@test "weights --set: the computed weights written under the lock, no record left" {
    local t
    t=$(tree)
    run cxltier weights --sysroot "$t" --set -j
    assert_success
    assert_equal "$(weights_of "$t")" "17 14 false"
    assert_equal "$(jq -c '[.set.how, .set.writes, [.nodes[].written]]' <<<"$output")" '["computed",2,[true,true]]'
    [[ -e $t/run/cxltier/memory-blocks.lock ]] || fail "no lock taken"
    [[ -z $(compgen -G "$t/run/cxltier/weights-change.*") ]] || fail "a record left: $(ls "$t/run/cxltier")"
    # again: nothing to write
    run --separate-stderr cxltier weights --sysroot "$t" --set
    assert_success
    [[ $stderr == *"nothing to change"* ]] || fail "$stderr"
}

@test "weights --set NODE=W: given weights, checked: 1-255, nodes with a weight" {
    local t
    t=$(tree)
    run cxltier weights --sysroot "$t" --set 0=5,node1=2 -j
    assert_success
    assert_equal "$(weights_of "$t")" "5 2 false"
    assert_equal "$(jq -r .set.how <<<"$output")" given
    run cxltier weights --sysroot "$t" --set 1=4
    assert_success
    assert_equal "$(weights_of "$t")" "5 4 false"
    for bad in 0=0 0=256 0=x 0 1=2,1=3; do
        run --separate-stderr cxltier weights --sysroot "$t" --set "$bad"
        assert_failure 2
    done
    run --separate-stderr cxltier weights --sysroot "$t" --set 7=3
    assert_failure 2
    [[ $stderr == *"node7: the kernel has no weight for it"* ]] || fail "$stderr"
    run --separate-stderr cxltier weights --sysroot "$t" 0=3
    assert_failure 2
    assert_equal "$(weights_of "$t")" "5 4 false"
}

@test "weights --set in auto mode: said to turn auto off" {
    local t
    t=$(tree)
    echo true > "$t/$WI/auto"
    run --separate-stderr cxltier weights --sysroot "$t" --set -j
    assert_success
    assert_equal "$(jq -c '[.set.mode_before, .set.mode_after, .set.auto_turned_off]' <<<"$output")" '["auto","manual",true]'
    [[ $stderr == *"turned the kernel's auto mode off"* ]] || fail "$stderr"
    # the kernel's auto weights already the computed ones: written all the
    # same, so that they hold (auto mode would recompute them)
    echo true > "$t/$WI/auto"
    run --separate-stderr cxltier weights --sysroot "$t" --set -j
    assert_success
    assert_equal "$(jq -c '[.set.writes, .set.auto_turned_off]' <<<"$output")" '[2,true]'
}

@test "weights --auto: auto written where the kernel has it; 77 naming 6.16 where it has not" {
    local t
    t=$(tree)
    run cxltier weights --sysroot "$t" --auto --dry-run -j
    assert_success
    assert_equal "$(weights_of "$t")" "3 1 false"
    assert_equal "$(jq -c '[.set.how, .set.mode_after]' <<<"$output")" '["auto","auto"]'
    run cxltier weights --sysroot "$t" --auto -j
    assert_success
    assert_equal "$(weights_of "$t")" "3 1 true"
    rm "$t/$WI/auto"
    run --separate-stderr cxltier weights --sysroot "$t" --auto
    assert_failure 77
    [[ $stderr == *"Linux 6.16 or later"* ]] || fail "$stderr"
    run --separate-stderr cxltier weights --sysroot "$t"
    assert_success
    assert_line 'weights: manual (auto mode: Linux 6.16 or later)'
}

# record T OLD0 NEW0 OLD1 NEW1: a record a killed run left
record() {
    mkdir -p -m 700 "$1/run/cxltier"
    printf 'pid 999999\nstart 1\ncommand weights\nauto 0 0\nnode 0 %s %s\nnode 1 %s %s\n' "$2" "$3" "$4" "$5" \
        > "$1/run/cxltier/weights-change.999999"
}

@test "a killed set: the next set puts the old set back, or finds the new one whole, and says it" {
    local t
    t=$(tree)
    # killed after node0's write: 17 written, node1 still 1
    echo 17 > "$t/$WI/node0"
    record "$t" 3 17 1 14
    # a run that changes nothing says it, and leaves it
    run --separate-stderr cxltier weights --sysroot "$t"
    assert_success
    [[ $stderr == *"a weights change was killed between two writes (pid 999999)"* ]] || fail "$stderr"
    assert_equal "$(weights_of "$t")" "17 1 false"
    run --separate-stderr cxltier weights --sysroot "$t" --set 1=1 -j
    assert_success
    [[ $stderr == *"killed between two writes (pid 999999): its old set put back"* ]] || fail "$stderr"
    assert_equal "$(weights_of "$t")" "3 1 false"
    assert_equal "$(jq -c .set.recovered <<<"$output")" '{"pid":999999,"outcome":"old-set-put-back"}'
    [[ -z $(compgen -G "$t/run/cxltier/weights-change.*") ]] || fail "the record is left"
    run --separate-stderr cxltier weights --sysroot "$t"
    assert_success
    [[ $stderr != *"killed"* ]] || fail "$stderr"
    # killed after its last write: the new set whole
    echo 17 > "$t/$WI/node0"; echo 14 > "$t/$WI/node1"
    record "$t" 3 17 1 14
    run --separate-stderr cxltier weights --sysroot "$t" --set 1=14 -j
    assert_success
    [[ $stderr == *"had written its whole new set"* ]] || fail "$stderr"
    assert_equal "$(weights_of "$t")" "17 14 false"
    # a record cxltier did not write: refused, named
    echo garbage > "$t/run/cxltier/weights-change.5"
    run --separate-stderr cxltier weights --sysroot "$t" --set
    assert_failure 1
    [[ $stderr == *"weights-change.5 is not a record of a weights change"* ]] || fail "$stderr"
}

@test "crash points: a set killed between its node writes leaves the record; the next run puts the old set back" {
    local t log=$BATS_TEST_TMPDIR/crash.log
    t=$(tree)
    if ! built_with_crash_points; then
        run --separate-stderr env CXLTIER_CRASH_AT=2 "$CXLTIER" --sysroot "$t" weights --set
        assert_success
        assert_equal "$(weights_of "$t")" "17 14 false"
        return
    fi
    run --separate-stderr env CXLTIER_CRASH_AT=2 CXLTIER_CRASH_LOG="$log" "$CXLTIER" --sysroot "$t" weights --set
    assert_failure 137
    assert_equal "$(cut -d' ' -f2- "$log")" "$(printf '%s\n' "/$WI/node0 = 17" "/$WI/node1 = 14")"
    assert_equal "$(weights_of "$t")" "17 1 false"
    [[ -n $(compgen -G "$t/run/cxltier/weights-change.*") ]] || fail "no record left"
    run --separate-stderr cxltier weights --sysroot "$t" --set 0=3
    assert_success
    [[ $stderr == *"its old set put back"* ]] || fail "$stderr"
    assert_equal "$(weights_of "$t")" "3 1 false"
}

@test "online --policy with interleave-weights = yes: the weights set from bandwidth once the memory is online; said on a kernel without them" {
    local t conf=$BATS_TEST_TMPDIR/cxltier.conf
    t=$(tree)
    printf '[defaults]\ninterleave-weights = yes\n' > "$conf"
    run --separate-stderr cxltier online --policy --config "$conf" --sysroot "$t" --dry-run
    assert_success
    [[ $stderr == *"the policy would set the interleave weights from bandwidth"* ]] || fail "$stderr"
    assert_equal "$(weights_of "$t")" "3 1 false"
    run --separate-stderr cxltier online --policy --config "$conf" --sysroot "$t"
    assert_success
    [[ $stderr == *"interleave weights from bandwidth (the policy): node0 17, node1 14"* ]] || fail "$stderr"
    assert_equal "$(weights_of "$t")" "17 14 false"
    # without the key: left alone
    echo 3 > "$t/$WI/node0"
    printf '[defaults]\nonline = yes\n' > "$conf"
    run --separate-stderr cxltier online --policy --config "$conf" --sysroot "$t"
    assert_success
    assert_equal "$(weights_of "$t")" "3 14 false"
    printf '[defaults]\ninterleave-weights = yes\n' > "$conf"
    run --separate-stderr cxltier online --policy --config "$conf" --sysroot "$(fixture k7-region-online)"
    assert_success
    [[ $stderr == *"this kernel has no weighted interleave (Linux 6.9 or later): no weights set"* ]] || fail "$stderr"
}
