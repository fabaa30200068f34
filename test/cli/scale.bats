#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Every command is linear in memory blocks: on a captured tree grown to N
# and to 4N blocks of a CXL region (test/bench/mkfixture-cxl.sh), the
# instructions a command executes (valgrind's count: the work done, whatever
# the machine's load) grow at most 4.4 times. A search per block, a realloc
# by one or a sort inside a loop makes them grow 16 times. The times at 1-16
# TiB are test/bench/scale.sh's.
load helper

N=1024
MAX_RATIO=4.4

# valgrind cannot run an ASan/UBSan binary ("ASan runtime does not come
# first"): the plain build's run counts instructions and heap; the ASan
# run's tests of them skip (test/expected-skips allows it there alone). The
# table in parts needs no valgrind: it runs in both.
asan_build() { [[ $(ldd "$CXLTIER") == *libasan* ]]; }

setup() {
    [[ $BATS_TEST_DESCRIPTION == "a table printed in parts"* ]] || ! asan_build ||
        skip "valgrind cannot count an ASan/UBSan build's instructions or heap: the plain build's run counts them"
}

setup_file() {
    local base=$BATS_FILE_TMPDIR
    # tmpfs when there is one: tens of thousands of small files
    [[ -d /dev/shm && -w /dev/shm ]] && base=$(mktemp -d /dev/shm/cxltier-scale.XXXXXX)
    echo "$base" > "$BATS_FILE_TMPDIR/base"
    "$CXLTIER_SRC/test/bench/mkfixture-cxl.sh" "$base/n" "$N"
    "$CXLTIER_SRC/test/bench/mkfixture-cxl.sh" "$base/4n" $((4 * N))
}

teardown_file() {
    local base
    [[ -f $BATS_FILE_TMPDIR/base ]] || return 0
    base=$(cat "$BATS_FILE_TMPDIR/base")
    [[ $base == /dev/shm/cxltier-scale.* ]] && rm -rf "$base"
    return 0
}

# instructions ROOT ARGS...: the instructions cxltier executes on ROOT, on
# stdout; its own output in $BATS_TEST_TMPDIR/out, stderr in .../err, its
# exit status in .../status. Without MALLOC_PERTURB_ (meson test sets it):
# with it, glibc fills every chunk it frees, and the remainder of a split
# free chunk is freed again at each split, so a run that frees a buffer of
# the size of the tree before it prints counts the buffer's size once a row
# (x5.6 from 1024 to 4096 blocks where the run itself is x3.9): the count is
# the program's own work, as it runs for its users
instructions() {
    local root=$1 vg=$BATS_TEST_TMPDIR/vg rc=0
    shift
    env -u MALLOC_PERTURB_ valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$vg" \
        "$CXLTIER" --sysroot "$root" "$@" > "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err" || rc=$?
    echo "$rc" > "$BATS_TEST_TMPDIR/status"
    sed -n 's/.*Collected : \([0-9]*\)$/\1/p' "$vg"
}

# grows ARGS...: the command on the N and the 4N tree, each run checked by
# check_run (the tree's block count in $BLOCKS); the ratio of the counts
# at_n_and_4n MEASURE ARGS...: MEASURE (instructions or heap) of the command
# on the N and the 4N tree, each run checked by check_run; in SMALL and BIG
at_n_and_4n() {
    local base measure=$1
    shift
    base=$(cat "$BATS_FILE_TMPDIR/base")
    BLOCKS=$N
    SMALL=$("$measure" "$base/n" "$@")
    check_run "$@"
    BLOCKS=$((4 * N))
    BIG=$("$measure" "$base/4n" "$@")
    check_run "$@"
}

grows() {
    local small big
    at_n_and_4n instructions "$@"
    small=$SMALL big=$BIG
    [[ $small =~ ^[0-9]+$ && $big =~ ^[0-9]+$ ]] || fail "no instruction count from valgrind: '$small' '$big'"
    RATIO=$(echo "scale=2; $big / $small" | bc)
    echo "# $*: $small instructions at $N blocks, $big at $((4 * N)): x$RATIO" >&3
    (( $(echo "$RATIO <= $MAX_RATIO" | bc) )) ||
        fail "$*: $small instructions at $N blocks, $big at $((4 * N)): x$RATIO, more than x$MAX_RATIO (superlinear)"
}

# a dry run: exit 0, every block of the tree's region planned
check_dry() {
    [[ $(cat "$BATS_TEST_TMPDIR/status") == 0 ]] || fail "$*: exit $(cat "$BATS_TEST_TMPDIR/status"): $(cat "$BATS_TEST_TMPDIR/err")"
    [[ $(jq '.blocks | length' "$BATS_TEST_TMPDIR/out") == "$BLOCKS" ]] ||
        fail "$*: not $BLOCKS blocks planned: $(head -c 300 "$BATS_TEST_TMPDIR/out")"
}

@test "online node1 --dry-run -j: instructions linear in blocks (4N/N <= 4.4)" {
    check_run() {
        check_dry "$@"
        grep -qx "cxltier online: dry run: 0 of $BLOCKS blocks would change; nothing was changed" "$BATS_TEST_TMPDIR/err" ||
            fail "online: $(cat "$BATS_TEST_TMPDIR/err")"
    }
    grows online node1 --dry-run -j
}

@test "offline node1 --dry-run -j: instructions linear in blocks (4N/N <= 4.4)" {
    check_run() {
        check_dry "$@"
        grep -qx "cxltier offline: dry run: $BLOCKS of $BLOCKS blocks would change; nothing was changed" "$BATS_TEST_TMPDIR/err" ||
            fail "offline: $(cat "$BATS_TEST_TMPDIR/err")"
    }
    grows offline node1 --dry-run -j
}

@test "list --summary: instructions linear in blocks (4N/N <= 4.4)" {
    check_run() {
        [[ $(cat "$BATS_TEST_TMPDIR/status") == 0 ]] || fail "list --summary: exit $(cat "$BATS_TEST_TMPDIR/status")"
        grep -Eq "^node1 +$BLOCKS " "$BATS_TEST_TMPDIR/out" || fail "list --summary: not $BLOCKS blocks on node1: $(cat "$BATS_TEST_TMPDIR/out")"
    }
    grows list --summary
}

# heap ROOT ARGS...: the most heap cxltier holds at once on ROOT (valgrind's
# massif: bytes asked of malloc, whatever the allocator keeps), on stdout;
# its output and status as instructions() keeps them
heap() {
    local root=$1 ms=$BATS_TEST_TMPDIR/massif rc=0
    shift
    valgrind --tool=massif --massif-out-file="$ms" --log-file="$BATS_TEST_TMPDIR/vg" \
        "$CXLTIER" --sysroot "$root" "$@" > "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err" || rc=$?
    echo "$rc" > "$BATS_TEST_TMPDIR/status"
    awk -F= '/^mem_heap_B=/ { if ($2 > m) m = $2 } END { print m + 0 }' "$ms"
}

MAX_BYTES_PER_BLOCK=512

# holds ARGS...: the heap's growth from N to 4N blocks, per block added, is at
# most MAX_BYTES_PER_BLOCK (what a command keeps per block, not its
# libraries' fixed cost); each run checked by check_run
holds() {
    local small big per
    at_n_and_4n heap "$@"
    small=$SMALL big=$BIG
    (( small > 0 && big > 0 )) || fail "no heap peak from massif: '$small' '$big'"
    per=$(( (big - small) / (3 * N) ))
    echo "# $*: heap $small B at $N blocks, $big B at $((4 * N)): $per B a block" >&3
    (( per <= MAX_BYTES_PER_BLOCK )) ||
        fail "$*: heap $small B at $N blocks, $big B at $((4 * N)): $per B a block, more than $MAX_BYTES_PER_BLOCK"
}

@test "online node1 --dry-run -j: at most 512 bytes of heap a block" {
    check_run() { check_dry "$@"; }
    holds online node1 --dry-run -j
}

@test "offline node1 --dry-run -j: at most 512 bytes of heap a block" {
    check_run() { check_dry "$@"; }
    holds offline node1 --dry-run -j
}

@test "list -j and list --summary: at most 512 bytes of heap a block" {
    check_run() { [[ $(cat "$BATS_TEST_TMPDIR/status") == 0 ]] || fail "$*: exit $(cat "$BATS_TEST_TMPDIR/status")"; }
    holds list -j
    holds list --summary
}

# the table form with --split: a header and one line a block planned
check_dry_table() {
    [[ $(cat "$BATS_TEST_TMPDIR/status") == 0 ]] || fail "$*: exit $(cat "$BATS_TEST_TMPDIR/status"): $(cat "$BATS_TEST_TMPDIR/err")"
    [[ $(grep -c '^0x[0-9a-f]*-0x[0-9a-f]* ' "$BATS_TEST_TMPDIR/out") == "$BLOCKS" && $(head -1 "$BATS_TEST_TMPDIR/out") == RANGE* ]] ||
        fail "$*: not a heading and $BLOCKS blocks: $(head -c 300 "$BATS_TEST_TMPDIR/out")"
}

# the table form merged: a header and one range, every block of the tree's region
check_dry_range() {
    [[ $(cat "$BATS_TEST_TMPDIR/status") == 0 ]] || fail "$*: exit $(cat "$BATS_TEST_TMPDIR/status"): $(cat "$BATS_TEST_TMPDIR/err")"
    [[ $(wc -l < "$BATS_TEST_TMPDIR/out") == 2 ]] &&
        grep -Eq "^0x[0-9a-f]+-0x[0-9a-f]+ +[0-9]+-[0-9]+ +$((BLOCKS / 8))G " "$BATS_TEST_TMPDIR/out" ||
        fail "$*: not a heading and one range of $BLOCKS blocks: $(head -c 300 "$BATS_TEST_TMPDIR/out")"
}

@test "online and offline node1 --dry-run --split, as tables: at most 512 bytes of heap a block" {
    check_run() { check_dry_table "$@"; }
    holds online node1 --dry-run --split
    holds offline node1 --dry-run --split
}

@test "offline node1 --dry-run, the blocks merged into ranges: instructions linear, at most 512 bytes of heap a block" {
    check_run() { check_dry_range "$@"; }
    grows offline node1 --dry-run
    holds offline node1 --dry-run
}

# (a table of more than 1024 rows is printed in parts of 1024, each with the
# whole table's widths: output.c)
@test "a table printed in parts is the same, byte for byte, as printed whole" {
    local root
    root=$(cat "$BATS_FILE_TMPDIR/base")/n
    for args in "online node1 --dry-run --split" "offline node1 --dry-run -n --split" \
                "online node1 --dry-run --split -o block,now,note -b"; do
        CXLTIER_TABLE_PART=100000 run --separate-stderr cxltier --sysroot "$root" $args
        assert_success
        whole=$output
        [[ $(grep -c '^0x[0-9a-f]\|^[0-9][0-9]* ' <<<"$whole") == "$N" ]] || fail "$args: not $N blocks: ${whole:0:300}"
        CXLTIER_TABLE_PART=333 run --separate-stderr cxltier --sysroot "$root" $args
        assert_success
        [[ $output == "$whole" ]] || fail "$args: in parts of 333 it differs: $(diff <(echo "$whole") <(echo "$output") | head -5)"
    done
}
