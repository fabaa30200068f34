#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier migrate` on this machine's own kernel (moves between nodes are
# tested in test/vm/migrate.bats, which has several).
load helper

@test "a dry run on a real process reports its memory per node and moves nothing" {
    start_sleeper; p=$SLEEPER
    run --separate-stderr cxltier migrate --pid "$p" --to 0 --dry-run -j
    kill "$p"
    assert_success
    [[ $(jq -r '.processes[0] | [.comm, .mechanism, .dry_run, .bytes_moved] | @tsv' <<<"$output") == $'sleep\tmove_pages\ttrue\t0' ]]
    [[ $(jq '.processes[0].before.node0' <<<"$output") -gt 0 ]]
}

@test "a process that does not exist: named, exit 1" {
    run cxltier migrate --pid 999999 --to 0
    assert_failure 1
    assert_output --partial "process 999999 does not exist"
}

@test "usage errors" {
    run cxltier migrate --to 0
    assert_failure 2
    run cxltier migrate --pid 1
    assert_failure 2
    run cxltier migrate --pid 1 --to 0 --to-tier fastest
    assert_failure 2
    run cxltier migrate --pid x --to 0
    assert_failure 2
    run cxltier migrate --pid 0 --to 0
    assert_failure 2
    assert_output --partial "--pid 0: not a process id"
    run cxltier migrate --pid -3 --to 0
    assert_failure 2
    run cxltier migrate --pid 1 --to 0 --max-bytes lots
    assert_failure 2
    run cxltier migrate --pid 1 --to 0 --hot --interval never
    assert_failure 2
}

@test "numbers beyond their type are usage errors, never wrapped (exit 2)" {
    local arg
    # 2^32 + 1 would be pid 1, 2^32 + 1234 someone's pid 1234
    for arg in "--pid 4294967297" "--pid 4294968530" "--pid 99999999999999999999"; do
        run --separate-stderr cxltier migrate $arg --to 0 --dry-run
        assert_failure 2
        [[ $stderr == *"not a process id"* ]]
    done
    # 4294968 s would wrap to 704 ms
    for arg in 4294968 3601 -1 nan inf 1e30; do
        run --separate-stderr cxltier migrate --pid 1 --to 0 --cold --interval "$arg" --dry-run
        assert_failure 2
        [[ $stderr == *"--interval"* ]]
    done
    for arg in nan inf 1e30 -5 1e20G; do
        run --separate-stderr cxltier migrate --pid 1 --to 0 --max-bytes "$arg" --dry-run
        assert_failure 2
        [[ $stderr == *"--max-bytes"* ]]
    done
    for arg in nan inf -1; do
        run --separate-stderr cxltier migrate --pid 1 --to 0 --rate "$arg" --dry-run
        assert_failure 2
    done
    run --separate-stderr cxltier migrate --pid 1 --to 4294967296 --dry-run
    assert_failure 2
    [[ $stderr == *"not a node"* ]]
}

@test "init is refused, named, exit 1" {
    run --separate-stderr cxltier migrate --pid 1 --to 0 --dry-run -j
    assert_failure 1
    [[ $stderr == *"process 1 ("*") is init"* ]]
    [[ $(jq -r '.processes[0].error' <<<"$output") == *"is init"* ]]
}

@test "a kernel thread is refused, named, exit 1" {
    local p k=
    for p in /proc/[0-9]*; do   # the first process with PF_KTHREAD in its flags
        (( $(awk '{print $9}' "$p/stat" 2>/dev/null || echo 0) & 0x200000 )) && { k=${p#/proc/}; break; }
    done
    [[ -n $k ]] || skip "no kernel thread visible here"
    run --separate-stderr cxltier migrate --pid "$k" --to 0 --dry-run -j
    assert_failure 1
    [[ $stderr == *"is a kernel thread"* ]]
}

@test "a refused process does not stop the others: exit 64" {
    start_sleeper; p=$SLEEPER
    run --separate-stderr cxltier migrate --pid "1,$p" --to 0 --dry-run -j
    kill "$p"
    assert_failure 64
    assert_equal "$(jq '.processes | length' <<<"$output")" 2
    assert_equal "$(jq -r '.processes[1].comm' <<<"$output")" sleep
}

@test "--sysroot is refused: a captured tree's /proc is not the processes that would move (exit 2)" {
    local root
    root=$(fixture lab-region-online)
    start_sleeper; p=$SLEEPER
    run --separate-stderr cxltier migrate --sysroot "$root" --pid "$p" --to 0 --dry-run -j
    assert_failure 2
    [[ $stderr == *"--sysroot"*"live"* ]]
    [[ -z $output ]]
    run --separate-stderr cxltier --sysroot "$root" migrate --pid "$p" --to 0 -j
    kill "$p"
    assert_failure 2
}

@test "--jobs: bad values are usage errors; the run says how many jobs ran" {
    run cxltier migrate --pid 1 --to 0 --jobs 0
    assert_failure 2
    run cxltier migrate --pid 1 --to 0 --jobs 65
    assert_failure 2
    start_sleeper; p=$SLEEPER
    run --separate-stderr cxltier migrate --pid "$p" --to 0 --from 0 --dry-run --jobs 2 -j
    kill "$p"
    assert_success
    assert_equal "$(jq '.run | length' <<<"$output")" 1
    [[ $(jq '.run[0].jobs' <<<"$output") -ge 1 && $(jq '.run[0].jobs' <<<"$output") -le 2 ]]
    [[ $(jq '.processes[0] | has("scan_seconds") and has("move_seconds")' <<<"$output") == true ]]
}

@test "[migrate] jobs from the configuration, unless --jobs says otherwise; a bad one names its line" {
    conf=$BATS_TEST_TMPDIR/cxltier.conf
    printf '[defaults]\nonline = yes\n\n[migrate]\njobs = 2\n' > "$conf"
    start_sleeper; p=$SLEEPER
    run --separate-stderr cxltier migrate --config "$conf" --pid "$p" --to 0 --from 0 --dry-run -j
    assert_success
    assert_equal "$(jq '.run[0].jobs' <<<"$output")" 2
    run --separate-stderr cxltier migrate --config "$conf" --pid "$p" --to 0 --from 0 --dry-run --jobs 1 -j
    assert_success
    assert_equal "$(jq '.run[0].jobs' <<<"$output")" 1
    printf '[migrate]\njobs = many\n' > "$conf"
    run --separate-stderr cxltier migrate --config "$conf" --pid "$p" --to 0 --dry-run
    kill "$p"
    assert_failure 2
    [[ $stderr == *"cxltier.conf:2: jobs = many"* ]]
}

@test "the hotplug policy reads past the [migrate] section" {
    local root
    root=$(fixture lab-region-offline)
    conf=$BATS_TEST_TMPDIR/cxltier.conf
    printf '[migrate]\njobs = 2\n\n[defaults]\nonline = no\n' > "$conf"
    run --separate-stderr cxltier --sysroot "$root" online --policy --config "$conf" --dry-run -j
    assert_success
}

@test "an unknown -o column is a usage error before any process is looked at (exit 2)" {
    start_sleeper; p=$SLEEPER
    run --separate-stderr cxltier migrate --pid "999999,$p" --to 0 -v -o PID,BOGUS
    kill "$p"
    assert_failure 2
    [[ $stderr == *"unknown column 'BOGUS'"* ]]
    # nothing ran: no record of either process, no timing of a scan
    [[ $stderr != *"999999"* && $stderr != *"scan"* ]]
    [[ -z $output ]]
    run --separate-stderr cxltier migrate --pid 999999 --to 0 -o +BOGUS
    assert_failure 2
    [[ $stderr != *"does not exist"* ]]
}

@test "--cold: init and kernel threads are refused each in its own record, never by DAMON, and reported (exit 1)" {
    local p k= list=1
    for p in /proc/[0-9]*; do   # the first process with PF_KTHREAD in its flags
        (( $(awk '{print $9}' "$p/stat" 2>/dev/null || echo 0) & 0x200000 )) && { k=${p#/proc/}; break; }
    done
    [[ -n $k ]] && list+=",$k"
    # refused before DAMON is looked at: nothing of this machine's DAMON is touched
    run --separate-stderr cxltier migrate --pid "$list" --to 0 --cold --interval 0.2 -j
    assert_failure 1
    [[ $stderr == *"process 1 ("*") is init"* ]]
    assert_equal "$(jq '.processes | length' <<<"$output")" "$(tr , '\n' <<<"$list" | wc -l)"
    [[ $(jq -r '.processes[0].error' <<<"$output") == *"is init"* ]]
    [[ -z $k || $(jq -r '.processes[1].error' <<<"$output") == *"kernel thread"* ]]
}

# start_sleepers N: SLEEPERS= the pids of N sleepers, as a comma list
start_sleepers() {
    local i list=
    for ((i = 0; i < $1; i++)); do
        start_sleeper || return 1
        list+=${list:+,}$SLEEPER
    done
    SLEEPERS=$list
}

# with_nofile SOFT HARD CMD...: CMD under those limits of open files (HARD
# empty: the hard limit as it is)
with_nofile() {
    local soft=$1 hard=$2
    shift 2
    ulimit -Sn "$soft" || return
    [[ -z $hard ]] || ulimit -Hn "$hard" || return
    "$@"
}

@test "a pidfd per process: a low soft limit of open files is raised, every process chosen is moved (exit 0)" {
    (( $(ulimit -Hn) == 0 || $(ulimit -Hn) > 200 )) || [[ $(ulimit -Hn) == unlimited ]] || skip "hard limit of open files $(ulimit -Hn)"
    start_sleepers 50
    run --separate-stderr with_nofile 40 '' cxltier migrate --pid "$SLEEPERS" --to 0 --dry-run -j
    kill ${SLEEPERS//,/ }
    echo "$stderr"
    assert_success
    assert_equal "$(jq '[.processes[] | select(.dry_run)] | length' <<<"$output")" 50
}

@test "out of file descriptors: the processes that cannot be held say so, never 'does not exist' or 'exited'" {
    start_sleepers 50
    # the hard limit too: nothing to raise to
    run --separate-stderr with_nofile 30 30 "$CXLTIER" migrate --pid "$SLEEPERS" --to 0 --dry-run -j
    kill ${SLEEPERS//,/ }
    echo "$stderr"
    [[ $status == 1 || $status == 64 ]]
    [[ $stderr == *"too many open files"*"ulimit -n"* ]]
    [[ $stderr != *"does not exist"* && $stderr != *"exited"* ]]
}

@test "on a terminal a progress line of the processes on stderr, erased before the report; none when stderr is a file" {
    start_sleeper; p=$SLEEPER
    run script -qec "'$CXLTIER' migrate --pid $p,$$ --to 0 --dry-run > /dev/null" /dev/null
    [[ $status == 0 ]] || { kill "$p"; fail "exit $status: $output"; }
    [[ $output == *$'\r\e[?7l'"migrate: 1/2 processes, 0:"* ]] || { kill "$p"; fail "$(cat -A <<<"$output")"; }
    last=${output##*processes, }
    [[ ${last%%$'\n'*} == *$'\e[K\e[?7h\r\e[K'* ]] || { kill "$p"; fail "not erased: $(cat -A <<<"$output")"; }
    "$CXLTIER" migrate --pid "$p,$$" --to 0 --dry-run > /dev/null 2> "$BATS_TEST_TMPDIR/err" || true
    kill "$p"
    ! grep -q $'\r' "$BATS_TEST_TMPDIR/err" && ! grep -q 'processes, ' "$BATS_TEST_TMPDIR/err" ||
        fail "a progress line with stderr a file: $(cat -A "$BATS_TEST_TMPDIR/err")"
}

@test "--spread weighted --weights: a dry run reports the target split and each node's share, moves nothing" {
    start_sleeper; p=$SLEEPER
    run --separate-stderr cxltier migrate --pid "$p" --spread weighted --weights 0=3 --dry-run -j
    kill "$p"
    assert_success
    [[ $(jq -r '.spread | [.spread, .weights_from, .weights.node0, .tolerance_pct] | @tsv' <<<"$output") == $'weighted\toption\t3\t5' ]]
    [[ $(jq -r '.processes[0] | [.mechanism, .dry_run, .bytes_to_move, .bytes_moved, .target_pct.node0, .before_pct.node0] | @tsv' <<<"$output") == $'move_pages\ttrue\t0\t0\t100\t100' ]]
    [[ $(jq '.processes[0] | .target.node0 == .before.node0 and .target.node0 > 0' <<<"$output") == true ]]
}

@test "--spread weighted: the table shows before, after and target with each node's share" {
    start_sleeper; p=$SLEEPER
    run --separate-stderr cxltier migrate --pid "$p" --spread weighted --weights 0=1 --tolerance 0 --dry-run
    kill "$p"
    assert_success
    [[ ${lines[0]} =~ ^\ *PID\ +COMM\ +BEFORE\ +AFTER\ +TARGET\ +MOVED\ +FAILED\ +NOTE$ ]]
    [[ ${lines[1]} =~ \ 0:[0-9.]+[KM]\(100%\)\ +0:[0-9.]+[KM]\(100%\)\ +0:[0-9.]+[KM]\(100%\)\ +0\  ]]
}

@test "--spread weighted with the kernel's weights (where it has weighted interleave): its nodes and weights" {
    [[ -d /sys/kernel/mm/mempolicy/weighted_interleave ]] || skip "this kernel has no weighted interleave (6.9+)"
    start_sleeper; p=$SLEEPER
    run --separate-stderr cxltier migrate --pid "$p" --spread weighted --nodes 0 --dry-run -j
    kill "$p"
    assert_success
    [[ $(jq -r '.spread.weights_from' <<<"$output") == kernel ]]
    [[ $(jq -r '.spread.weights.node0' <<<"$output") == "$(cat /sys/kernel/mm/mempolicy/weighted_interleave/node0)" ]]
}

@test "--spread: what does not go with it, and bad values, are usage errors (exit 2)" {
    local args want
    while IFS='|' read -r args want; do
        run --separate-stderr cxltier migrate --pid 1 $args
        assert_failure 2
        [[ $stderr == *"$want"* ]] || fail "$args: $stderr (wanted: $want)"
    done <<'EOF2'
--spread weighted --to 0|--spread: not with --to
--spread weighted --to-tier fastest|--spread: not with --to-tier
--spread weighted --from 0|--spread: not with --from
--spread weighted --hot|--spread: not with --hot
--spread weighted --cold|--spread: not with --cold
--spread weighted --nodes 0 --weights 0=1|--nodes: not with --weights
--spread even|--spread even: the one spread is 'weighted'
--to 0 --nodes 0|--nodes: only with --spread weighted
--to 0 --weights 0=1|--weights: only with --spread weighted
--to 0 --tolerance 3|--tolerance: only with --spread weighted
--spread weighted --weights 0=256|--weights 0=256: each weight a whole number from 0 to 255
--spread weighted --weights 0=|--weights 0=: each weight
--spread weighted --weights 0=-1|--weights 0=-1: each weight
--spread weighted --weights x|--weights x: NODE=WEIGHT pairs
--spread weighted --weights 64=1|--weights 64=1: NODE=WEIGHT pairs
--spread weighted --weights 0=0|--weights 0=0: no node has a weight above 0
--spread weighted --weights 0=1 --tolerance 101|--tolerance 101: a percentage from 0 to 100
--spread weighted --weights 0=1 --tolerance -1|--tolerance -1: a percentage
--spread weighted --weights 0=1 --tolerance nan|--tolerance nan: a percentage
--spread weighted --weights 0=1,63=1 --dry-run|--weights: node 63 does not exist
--spread weighted --nodes 63 --dry-run|--nodes: node 63 does not exist
--spread weighted --nodes zero --dry-run|--nodes zero: a node list such as 0,2
--spread weighted --nodes tier99999 --dry-run|--nodes tier99999: no such tier
EOF2
}
