#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: ram-node
# vm-args: --ram-node 512M
# vm-test-timeout: 600 -- moving tens of MiB under TCG on a loaded host (a test took 101 s once)
# `cxltier migrate --spread weighted` against the real kernel: a process
# bound to node 0 spread over node 0 and the cpu-less RAM-only node by the
# weighted-interleave weights this file writes in sysfs (and puts back
# after). Not the CXL node: QEMU's CXL memory is MMIO-emulated and far too
# slow to move much data to.
load helper
load ram-node

WI=/sys/kernel/mm/mempolicy/weighted_interleave

setup_file() {
    local N
    N=$(ram_node)
    echo "$N" > "$BATS_FILE_TMPDIR/node"
    # the weights as they were, and the mode (7.x): put back at the end
    cat "$WI/node0" > "$BATS_FILE_TMPDIR/w0"
    cat "$WI/node$N" > "$BATS_FILE_TMPDIR/wN"
    [[ ! -e $WI/auto ]] || cat "$WI/auto" > "$BATS_FILE_TMPDIR/auto"
}

teardown_file() {
    local N
    N=$(cat "$BATS_FILE_TMPDIR/node")
    cat "$BATS_FILE_TMPDIR/w0" > "$WI/node0"
    cat "$BATS_FILE_TMPDIR/wN" > "$WI/node$N"
    # (writing a node's weight turned auto off: on again, the kernel's own weights back)
    [[ ! -e $BATS_FILE_TMPDIR/auto ]] || cat "$BATS_FILE_TMPDIR/auto" > "$WI/auto"
}

teardown() {
    [[ -n ${BG:-} ]] && { kill -9 "$BG" 2>/dev/null; wait "$BG" 2>/dev/null; }
    local p
    for p in $(hogs); do kill "$p" 2>/dev/null; done
    wait_for 10 "the hogs to end" no_hogs
}

# within PCT percent: within A B PCT (|A - B| <= PCT % of B)
within() { local d=$(( $1 - $2 )); (( (d < 0 ? -d : d) * 100 <= $3 * $2 )); }

@test "a process bound to node 0 ends within 5 % of the kernel's 3:1 weights, the fewest pages moved; again: nothing moves" {
    N=$(cat "$BATS_FILE_TMPDIR/node")
    echo 3 > "$WI/node0"
    echo 1 > "$WI/node$N"
    # 128 MiB: its quarter is 8192 pages, and a transparent huge page (512)
    # goes or stays on its half (migrate-spread.h): at most 256 pages, 3 %, off
    start_hog 128
    all=$(total_bytes "$HOG_PID"); onN=$(node_bytes "$HOG_PID" "$N")
    # the least that reaches 1/4 on node N: what it lacks of its share
    need=$(( all / 4 - onN ))
    run --separate-stderr cxltier migrate --pid "$HOG_PID" --spread weighted --nodes "0,$N" -j
    echo "$stderr" >&3
    moved_but_shared
    assert_equal "$(jq -r '.spread | [.weights_from, .weights.node0, .weights["node'"$N"'"]] | @tsv' <<<"$output")" $'kernel\t3\t1'
    moved=$(jq '.processes[0].bytes_moved' <<<"$output")
    after0=$(node_bytes "$HOG_PID" 0); afterN=$(node_bytes "$HOG_PID" "$N"); all=$(total_bytes "$HOG_PID")
    echo "# $all bytes: $after0 on node 0, $afterN on node $N (target 3:1); moved $moved, $need needed" >&3
    within $(( afterN * 4 )) "$all" 5
    within $(( after0 * 4 )) $(( all * 3 )) 5
    within "$moved" "$need" 5
    # the report's split, built from move_pages' statuses, is numa_maps'
    assert_equal "$(jq -r '.processes[0].after_from' <<<"$output")" "move_pages status"
    within "$(jq ".processes[0].after.node$N" <<<"$output")" "$afterN" 1
    within "$(jq ".processes[0].after.node0" <<<"$output")" "$after0" 1
    [[ $(jq ".processes[0].target_pct.node$N" <<<"$output") == 25 ]]
    check_intact
    # spread already: nothing moves
    run --separate-stderr cxltier migrate --pid "$HOG_PID" --spread weighted --nodes "0,$N" -j
    assert_success
    assert_equal "$(jq '.processes[0].bytes_moved' <<<"$output")" 0
    # 72:28 is 3 points off 75:25: within the default 5 %, nothing moves;
    # within 1 %, node 0 gives those 3 points
    run --separate-stderr cxltier migrate --pid "$HOG_PID" --spread weighted --weights "0=72,$N=28" -j
    assert_success
    assert_equal "$(jq '[.processes[0].bytes_to_move, .processes[0].bytes_moved] | @tsv' -r <<<"$output")" $'0\t0'
    run --separate-stderr cxltier migrate --pid "$HOG_PID" --spread weighted --weights "0=72,$N=28" --tolerance 1 --dry-run -j
    assert_success
    all=$(total_bytes "$HOG_PID"); onN=$(node_bytes "$HOG_PID" "$N")
    echo "# --tolerance 1 at 72:28: $(jq '.processes[0].bytes_to_move' <<<"$output") to move, $(( all * 28 / 100 - onN )) needed" >&3
    within "$(jq '.processes[0].bytes_to_move' <<<"$output")" $(( all * 28 / 100 - onN )) 50
}

@test "--weights 1:1 on a 3:1 spread: only node 0's surplus moves, to 50/50 within 5 %" {
    N=$(cat "$BATS_FILE_TMPDIR/node")
    start_hog 128
    run --separate-stderr cxltier migrate --pid "$HOG_PID" --spread weighted --weights "0=3,$N=1" -j
    moved_but_shared
    all=$(total_bytes "$HOG_PID"); onN=$(node_bytes "$HOG_PID" "$N")
    need=$(( all / 2 - onN ))
    run --separate-stderr cxltier migrate --pid "$HOG_PID" --spread weighted --weights "0=1,$N=1" -j
    moved_but_shared
    assert_equal "$(jq -r '.spread.weights_from' <<<"$output")" option
    moved=$(jq '.processes[0].bytes_moved' <<<"$output")
    afterN=$(node_bytes "$HOG_PID" "$N"); all=$(total_bytes "$HOG_PID")
    echo "# $afterN of $all bytes on node $N (target 1:1); moved $moved, $need needed" >&3
    within $(( afterN * 2 )) "$all" 5
    within "$moved" "$need" 5
    within "$(jq ".processes[0].after.node$N" <<<"$output")" "$afterN" 1
    check_intact
}

@test "--dry-run: the plan (within 5 % of the least needed), nothing moves" {
    N=$(cat "$BATS_FILE_TMPDIR/node")
    start_hog 32
    before=$(node_bytes "$HOG_PID" 0)
    all=$(total_bytes "$HOG_PID"); need=$(( all / 4 - $(node_bytes "$HOG_PID" "$N") ))
    run --separate-stderr cxltier migrate --pid "$HOG_PID" --spread weighted --weights "0=3,$N=1" --dry-run -j
    assert_success
    assert_equal "$(node_bytes "$HOG_PID" 0)" "$before"
    assert_equal "$(jq '.processes[0].bytes_moved' <<<"$output")" 0
    within "$(jq '.processes[0].bytes_to_move' <<<"$output")" "$need" 5
    assert_equal "$(jq -r '.processes[0].note' <<<"$output")" "dry run: nothing moved"
}

@test "a process that exits mid-run: reported, not fatal for the others" {
    N=$(cat "$BATS_FILE_TMPDIR/node")
    start_hog 64
    first=$HOG_PID
    coproc H2 { exec numactl --membind=0 hog 4; }
    read -r line <&"${H2[0]}"
    cxltier migrate --pid "$first,$H2_PID" --spread weighted --weights "0=1,$N=1" --rate 20 -j \
        > "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err" 3>&- &
    BG=$!
    wait_for 120 "the first pages of $first on node $N" eval '(( $(node_bytes "$first" "$N") > 1 << 20 ))'
    kill "$first"
    wait "$BG" && status=0 || status=$?
    output=$(cat "$BATS_TEST_TMPDIR/out") stderr=$(cat "$BATS_TEST_TMPDIR/err")
    echo "$stderr" >&3
    [[ $status == 0 || $status == 64 ]]
    assert_equal "$(jq '.processes[0].exited' <<<"$output")" true
    [[ $(jq '.processes[1].bytes_moved' <<<"$output") -ge $((1 << 20)) ]]
    [[ $stderr == *"exited during the run"* ]]
    kill "$H2_PID"; wait "$H2_PID" || true
}
