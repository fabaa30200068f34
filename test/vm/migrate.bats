#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-args: --ram-node 512M
# `cxltier migrate` against the real kernel, between node 0 and a cpu-less
# RAM-only node (QEMU's CXL memory is MMIO-emulated and far too slow to move
# much data to).
load helper

ram_node() { # the cpu-less node with memory before any CXL region exists
    local n
    for n in /sys/devices/system/node/node*; do
        [[ -z $(cat $n/cpulist) ]] && grep -q 'MemTotal: *[1-9]' $n/meminfo && { basename $n | sed 's/node//'; return; }
    done
}

setup_file() {
    ram_node > "$BATS_FILE_TMPDIR/node"
}

teardown() {
    pkill -x hog 2>/dev/null || true
    sleep 0.2
}

start_hog() { # MiB -> sets HOG_PID, waits for ready
    coproc HOG { exec numactl --membind=0 hog "$1"; }
    read -r line <&"${HOG[0]}"
    [[ $line == ready ]]
}

node_bytes() { # pid node
    awk -v n="N$2=" '{for (i = 1; i <= NF; i++) if (index($i, n) == 1) { split($i, a, "="); s += a[2] * 4096 }} END {print s + 0}' /proc/$1/numa_maps
}

total_bytes() {
    awk '{for (i = 1; i <= NF; i++) if ($i ~ /^N[0-9]+=/) { split($i, a, "="); s += a[2] * 4096 }} END {print s + 0}' /proc/$1/numa_maps
}

check_intact() {
    kill -USR1 "$HOG_PID"
    read -r line <&"${HOG[0]}"
    [[ $line == intact ]]
}

@test "migrate --pid P --to N: at least 99% of P's pages on N, data intact, report per node" {
    N=$(cat "$BATS_FILE_TMPDIR/node")
    start_hog 32
    run --separate-stderr cxltier migrate --pid "$HOG_PID" --to "$N" -j
    assert_success
    on=$(node_bytes "$HOG_PID" "$N"); all=$(total_bytes "$HOG_PID")
    echo "# $on of $all bytes on node $N" >&3
    (( on * 100 >= all * 99 ))
    check_intact
    assert_equal "$(jq -r '.processes[0].mechanism' <<<"$output")" migrate_pages
    [[ $(jq ".processes[0].after.node$N" <<<"$output") -ge $((32 << 20)) ]]
    [[ $(jq ".processes[0].bytes_moved" <<<"$output") -ge $((32 << 20)) ]]
    # and back, page by page with a limit
    run --separate-stderr cxltier migrate --pid "$HOG_PID" --to 0 --max-bytes 8M -j
    assert_success
    assert_equal "$(jq -r '.processes[0].mechanism' <<<"$output")" move_pages
    moved=$(jq '.processes[0].bytes_moved' <<<"$output")
    (( moved > 0 && moved <= 8 << 20 ))
    check_intact
    kill "$HOG_PID"; wait "$HOG_PID" || true
}

@test "--dry-run moves nothing (numa_maps before and after) and says what would move" {
    N=$(cat "$BATS_FILE_TMPDIR/node")
    start_hog 8
    before=$(node_bytes "$HOG_PID" 0)
    run --separate-stderr cxltier migrate --pid "$HOG_PID" --to "$N" --dry-run -j
    assert_success
    assert_equal "$(node_bytes "$HOG_PID" 0)" "$before"
    [[ $(jq '.processes[0].bytes_to_move' <<<"$output") -ge $((8 << 20)) ]]
    assert_equal "$(jq '.processes[0].bytes_moved' <<<"$output")" 0
    kill "$HOG_PID"; wait "$HOG_PID" || true
}

@test "--comm selects by name; --to-tier slowest names the RAM node's tier" {
    N=$(cat "$BATS_FILE_TMPDIR/node")
    start_hog 4
    run --separate-stderr cxltier migrate --comm hog --to "$N" -j
    assert_success
    assert_equal "$(jq '.processes[0].pid' <<<"$output")" "$HOG_PID"
    run --separate-stderr cxltier migrate --pid "$HOG_PID" --to-tier fastest -j
    assert_success
    [[ $(node_bytes "$HOG_PID" 0) -ge $((4 << 20)) ]]
    kill "$HOG_PID"; wait "$HOG_PID" || true
}

@test "a process that exits mid-run: reported, not fatal for the others" {
    N=$(cat "$BATS_FILE_TMPDIR/node")
    start_hog 64
    first=$HOG_PID
    coproc H2 { exec numactl --membind=0 hog 4; }
    read -r line <&"${H2[0]}"
    ( sleep 1; kill "$first" ) &
    run --separate-stderr cxltier migrate --pid "$first,$H2_PID" --to "$N" --rate 20 -j
    wait "$first" 2>/dev/null || true
    echo "$stderr" >&3
    [[ $status == 0 || $status == 64 ]]
    assert_equal "$(jq '.processes[0].exited' <<<"$output")" true
    [[ $(jq '.processes[1].bytes_moved' <<<"$output") -ge $((4 << 20)) ]]
    [[ $stderr == *"exited during the run"* ]]
    kill "$H2_PID"; wait "$H2_PID" || true
}

@test "not allowed: another user's process gives a clear EPERM message, exit 1" {
    N=$(cat "$BATS_FILE_TMPDIR/node")
    start_hog 4
    run setpriv --reuid=65534 --regid=65534 --clear-groups cxltier migrate --pid "$HOG_PID" --to "$N"
    kill "$HOG_PID"; wait "$HOG_PID" || true
    assert_failure 1
    assert_output --regexp "no permission"
}

@test "a full target node: pages that find no room are counted as ENOMEM, exit 64" {
    N=$(cat "$BATS_FILE_TMPDIR/node")
    start_hog 640
    run --separate-stderr cxltier migrate --pid "$HOG_PID" --to "$N" --max-bytes 700M -j
    echo "$stderr" | tail -2 >&3
    kill "$HOG_PID"; wait "$HOG_PID" || true
    assert_failure 64
    [[ $(jq '.processes[0].failed_by.ENOMEM // 0' <<<"$output") -gt 0 ]]
    [[ $(jq '.processes[0].bytes_moved' <<<"$output") -gt 0 ]]
}

@test "usage: no process, no target, bad node" {
    run cxltier migrate --to 0
    assert_failure 2
    run cxltier migrate --pid 1
    assert_failure 2
    run cxltier migrate --pid 1 --to 9
    assert_failure 2
    run cxltier migrate --pid 999999 --to 0
    assert_failure 1
    assert_output --partial "999999 does not exist"
}

@test "--cold moves the pages DAMON saw untouched, and (almost) only those; --hot the others" {
    N=$(cat "$BATS_FILE_TMPDIR/node")
    coproc HOG { exec numactl --membind=0 hog --hot 25 64; }
    read -r _ start hot_end end <&"${HOG[0]}"
    read -r line <&"${HOG[0]}"
    [[ $line == ready ]]
    run --separate-stderr cxltier migrate --pid "$HOG_PID" --to "$N" --cold --interval 3 -j
    # pages shared with other processes (libc) cannot move without MOVE_ALL: EACCES, counted
    [[ $status == 0 || ( $status == 64 && $(jq -c '.processes[0].failed_by | keys' <<<"$output") == '["EACCES"]' ) ]]
    kill -USR2 "$HOG_PID"
    read -r _ h0 h1 h2 h3 _ <&"${HOG[0]}"; read -r _ c0 c1 c2 c3 _ <&"${HOG[0]}"
    hot=(0 "$h0" "$h1" "$h2" "$h3"); cold=(0 "$c0" "$c1" "$c2" "$c3")
    hot_moved=${hot[$((N + 1))]} cold_moved=${cold[$((N + 1))]}
    cold_all=$(( c0 + c1 + c2 + c3 ))
    echo "# --cold: cold pages moved $cold_moved of $cold_all, hot pages moved $hot_moved of $(( h0 + h1 + h2 + h3 ))" >&3
    # precision >= 95 %: of what moved from the buffer, hot pages are at most 5 %
    (( hot_moved * 100 <= (hot_moved + cold_moved) * 5 ))
    (( cold_moved * 100 >= cold_all * 90 ))
    kill -USR1 "$HOG_PID"; read -r line <&"${HOG[0]}"; assert_equal "$line" intact
    kill "$HOG_PID"; wait "$HOG_PID" || true
}

@test "--cold refuses to touch a DAMON someone else set up" {
    echo 1 > /sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds
    run cxltier migrate --pid 1 --to 0 --cold --interval 0.2
    echo 0 > /sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds
    assert_failure 1
    assert_output --partial "DAMON is set up by another tool"
}
