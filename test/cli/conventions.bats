#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# What every command shares with util-linux and systemd: a write error on
# stdout said and exit 1 (close_stdout), getopt's words for a refused
# option, the exit codes of cli.h as cxltier(1) tables them, the pages
# cxltier(1) points to.
load helper

setup_file() {
    ROOT=$(fixture lab-two-devices)
    export ROOT
}

# ---- a write error on stdout ----

@test "/dev/full: a table and JSON of several commands say 'write error' and exit 1" {
    local args n=0
    [[ -w /dev/full ]] || fail "no /dev/full"
    for args in "list" "list -j" "tiers" "tiers -j" "doctor -j" "cdat" "version" "version -j" "metrics"; do
        # shellcheck disable=SC2086  # the words of args
        run --separate-stderr bash -c '"$@" > /dev/full' _ "$CXLTIER" $args --sysroot "$ROOT"
        [[ $status == 1 ]] || fail "$args > /dev/full: exit $status, stderr: $stderr"
        [[ $stderr == *"cxltier: write error"* ]] || fail "$args > /dev/full: no write error said: $stderr"
        n=$((n + 1))
    done
    assert_equal "$n" 9
}

@test "/dev/full: the reason is said, as close_stdout says it" {
    run --separate-stderr bash -c '"$@" > /dev/full' _ "$CXLTIER" list -j --sysroot "$ROOT"
    assert_equal "$status" 1
    assert_equal "$stderr" "cxltier: write error: No space left on device"
}

@test "a reader that leaves (| head) is no write error, and a writable stdout none either" {
    # SIGPIPE ignored, as under a service manager: the write that finds the
    # reader gone fails with EPIPE, which is not ours to say (whichever of the
    # two ends first, the status is cxltier's)
    run --separate-stderr bash -c 'trap "" PIPE; "$@" | true; exit "${PIPESTATUS[0]}"' _ "$CXLTIER" list -j --sysroot "$ROOT"
    assert_equal "$status" 0
    assert_equal "$stderr" ""
    run --separate-stderr "$CXLTIER" list -j --sysroot "$ROOT"
    assert_success
    assert_equal "$stderr" ""
}

# ---- getopt's words ----

@test "an option without its argument: 'requires an argument', never a suggestion of itself" {
    run --separate-stderr "$CXLTIER" list --sysroot "$ROOT" --memdev
    assert_equal "$status" 2
    assert_equal "$stderr" "cxltier list: error: option '--memdev' requires an argument"
    run --separate-stderr "$CXLTIER" list --sysroot "$ROOT" -jm
    assert_equal "$status" 2
    assert_equal "$stderr" "cxltier list: error: option '-m' requires an argument"
    run --separate-stderr "$CXLTIER" online --sysroot "$ROOT" --timeout
    assert_equal "$status" 2
    assert_equal "$stderr" "cxltier online: error: option '--timeout' requires an argument"
}

@test "an argument to an option that takes none, an ambiguous prefix: getopt's words" {
    run --separate-stderr "$CXLTIER" list --sysroot "$ROOT" --json=1
    assert_equal "$status" 2
    assert_equal "$stderr" "cxltier list: error: option '--json' doesn't allow an argument"
    run --separate-stderr "$CXLTIER" list --sysroot "$ROOT" --no
    assert_equal "$status" 2
    assert_equal "$stderr" "cxltier list: error: option '--no' is ambiguous; possibilities: '--node' '--noheadings'"
}

@test "an unknown option: the close one suggested, never the word given" {
    local cmd w n=0
    all_cmds
    for cmd in $CMDS; do
        for w in $("$CXLTIER" "$cmd" --list-opts | sed 's/=$//'); do
            run --separate-stderr "$CXLTIER" "$cmd" "$w=x" --sysroot "$ROOT"
            case $status in
            0 | 1 | 2 | 64 | 77) ;;
            125) [[ $cmd == run ]] || fail "$cmd $w=x: status $status" ;;   # run's own failures, as env(1)'s
            *) fail "$cmd $w=x: status $status" ;;
            esac
            [[ $stderr != *"did you mean '$w'"* ]] || fail "$cmd $w=x: $stderr"
            n=$((n + 1))
        done
    done
    (( n > 50 )) || fail "only $n options tried"
    run --separate-stderr "$CXLTIER" list --sysroot "$ROOT" --jsno
    assert_equal "$status" 2
    assert_equal "$stderr" "cxltier list: error: unknown option '--jsno'; did you mean '--json'?"
}

# ---- exit codes and pages in cxltier(1) ----

# the codes cli.h defines, and the first cells of the EXIT STATUS table of
# cxltier.txt: "N NAME" a line each, sorted
codes_of_header() { sed -n 's/^\tEXIT_\([A-Z_]*\) = \([0-9]*\),.*/\2/p' "$1" | sort -n; }
codes_of_page() {
    sed -n '/^EXIT STATUS$/,/^ENVIRONMENT$/p' "$1" | sed -n 's/^|\([0-9][0-9]*\) |.*/\1/p' | sort -n
}

@test "cxltier(1)'s table of exit codes names exactly the codes cli.h defines" {
    local h p
    h=$(codes_of_header "$CXLTIER_SRC/cxltier/cli/cli.h")
    p=$(codes_of_page "$CXLTIER_SRC/docs/cxltier.txt")
    [[ -n $h ]] || fail "no EXIT_ codes read from cli.h"
    assert_equal "$p" "$h"
    # a code cli.h gains that the page does not table is seen
    sed 's/^\tEXIT_UNSUPPORTED = 77,/&\n\tEXIT_TEMPFAIL = 75,/' "$CXLTIER_SRC/cxltier/cli/cli.h" > "$BATS_TEST_TMPDIR/cli.h"
    h=$(codes_of_header "$BATS_TEST_TMPDIR/cli.h")
    [[ $h != "$p" ]] || fail "the check does not see a code added to cli.h"
}

@test "cxltier(1) SEE ALSO names every command's page" {
    local see page n=0
    see=$(sed -n '/^SEE ALSO$/,$p' "$CXLTIER_SRC/docs/cxltier.txt" | tr '\n' ' ')
    for page in "$CXLTIER_SRC"/docs/cxltier-*.txt; do
        page=$(basename "$page" .txt)
        [[ $see == *"$page(1)"* ]] || fail "cxltier(1) SEE ALSO does not name $page(1): $see"
        n=$((n + 1))
    done
    all_cmds
    assert_equal "$n" "$(wc -w <<<"$CMDS")"
}

# ---- sizes and times: one grammar ----

@test "sizes as util-linux reads them: 1GB is 10^9 bytes, 0.5G a fraction, a bad one named with the forms taken" {
    local idle
    idle=$(fixture lab-two-devices-idle)
    run --separate-stderr "$CXLTIER" region create -s 0.5G --dry-run -j mem0 --sysroot "$idle"
    assert_success
    assert_equal "$(jq '.regions[0].size' <<<"$output")" 536870912
    run --separate-stderr "$CXLTIER" region create -s 1GB --dry-run mem0 --sysroot "$idle"
    assert_equal "$status" 1
    assert_equal "$stderr" "cxltier region: error: decoder0.0 cannot take mem0: size 1000000000 bytes is not a multiple of 256M x 1 ways"
    run --separate-stderr "$CXLTIER" region create -s 1.5X --dry-run mem0 --sysroot "$idle"
    assert_equal "$status" 2
    assert_equal "$stderr" "cxltier region: error: --size 1.5X: give a size: bytes, or 512M, 1.5G, 1GiB (powers of 1024), 1GB (of 1000)"
    run --separate-stderr "$CXLTIER" migrate --pid 1 --to 0 --max-bytes 1.5X
    assert_equal "$status" 2
    assert_equal "$stderr" "cxltier migrate: error: --max-bytes 1.5X: a size such as 64M, 1.5G, 1GiB (powers of 1024) or 1GB (of 1000)"
}

@test "durations as systemd.time writes them: --timeout 30s, 5min, 1d; past the bound or not whole seconds refused" {
    local t opt
    for opt in "online --dry-run region0" "offline --dry-run region0"; do
        for t in 30 30s 5min "1h 30min" 1d; do
            # shellcheck disable=SC2086  # the words of opt
            run --separate-stderr "$CXLTIER" $opt --timeout "$t" --sysroot "$ROOT"
            assert_success
        done
        for t in 30x 500ms "1d 1s" -1h; do
            # shellcheck disable=SC2086
            run --separate-stderr "$CXLTIER" $opt --timeout "$t" --sysroot "$ROOT"
            assert_equal "$status" 2
            assert_equal "$stderr" "cxltier ${opt%% *}: error: --timeout $t: give whole seconds up to 86400: a number (seconds) or a span such as 30s, 5min, 1h"
        done
    done
    run --separate-stderr "$CXLTIER" migrate --pid 1 --to 0 --hot --interval 2x
    assert_equal "$status" 2
    assert_equal "$stderr" "cxltier migrate: error: --interval 2x: a span up to 1h in whole milliseconds: seconds (5, 0.5) or 500ms, 30s, 2min"
    run --separate-stderr "$CXLTIER" migrate --pid 1 --to 0 --hot --interval 2h
    assert_equal "$status" 2
}

@test "the configuration's durations read as the options' do: store-max-age = 1w 2d, 5min; 500ms refused" {
    local t
    mkdir -m 0700 "$BATS_TEST_TMPDIR/store"
    for t in "1w 2d" 5min 90d 0; do
        printf '[events]\nstore = %s\nstore-max-age = %s\n' "$BATS_TEST_TMPDIR/store/none.db" "$t" > "$BATS_TEST_TMPDIR/conf"
        run --separate-stderr "$CXLTIER" events --history --config "$BATS_TEST_TMPDIR/conf" -j
        [[ $stderr != *"store-max-age"* ]] || fail "store-max-age = $t refused: $stderr"
        assert_equal "$status" 0
    done
    printf '[events]\nstore-max-age = 500ms\n' > "$BATS_TEST_TMPDIR/bad"
    run --separate-stderr "$CXLTIER" events --history --config "$BATS_TEST_TMPDIR/bad"
    assert_equal "$status" 2
    assert_equal "$stderr" "cxltier events: error: $BATS_TEST_TMPDIR/bad:2: store-max-age = 500ms: a duration such as 90d or 52w (0: none)"
}

# ---- conflicting options refused, not ignored ----

@test "conflicting options are refused with a message, never silently ignored" {
    run --separate-stderr "$CXLTIER" list --summary -m mem0 --sysroot "$ROOT"
    assert_equal "$status" 2
    assert_equal "$stderr" "cxltier list: error: --summary: not with --memdev"
    local cmd n=0
    for cmd in list tiers doctor usage; do
        run --separate-stderr "$CXLTIER" "$cmd" -j -o NAME --sysroot "$ROOT"
        assert_equal "$status" 2
        assert_equal "$stderr" "cxltier $cmd: error: -o NAME chooses a table's columns: not with -j (the JSON has every key: pick them with jq)"
        n=$((n + 1))
    done
    # -j before the command is the same -j
    run --separate-stderr "$CXLTIER" -j list -o NAME --sysroot "$ROOT"
    assert_equal "$status" 2
    run --separate-stderr "$CXLTIER" list -o NAME --sysroot "$ROOT"
    assert_success
    assert_equal "$n" 4
}

# ---- permission is not absence ----

# as_nobody CMD...: run as an unprivileged user (nobody, no groups)
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# root_only_tree DIR...: PERM= a copy of lab-two-devices (or of the tree
# FROM names) that anyone may
# read but for the directories given (0700, root's), in a directory of the
# test's own under TMPDIR (bats' own run directory is root's alone: nobody
# could reach the tree at all); teardown removes it
root_only_tree() {
    local d
    [[ -n ${PERMDIR:-} ]] || PERMDIR=$(mktemp -d "${TMPDIR:-/tmp}/cxltier-perm.XXXXXX")
    chmod 755 "$PERMDIR"
    d=$(mktemp -d "$PERMDIR/tree.XXXXXX")
    chmod 755 "$d"
    cp -a "${FROM:-$ROOT}/." "$d/"
    chmod -R a+rX "$d"
    for p in "$@"; do chmod 0700 "$d/$p"; done
    PERM=$d
}

teardown() {
    if [[ -n ${PERMDIR:-} ]]; then
        rm -rf "$PERMDIR"
    fi
}

@test "an unreadable CXL bus as a user: permission denied with the path, exit 1, never 'no CXL bus'" {
    [[ $(id -u) == 0 ]] || skip "needs root to drop privileges"
    root_only_tree sys/bus
    run --separate-stderr as_nobody "$CXLTIER" list --sysroot "$PERM"
    assert_equal "$status" 1
    assert_equal "$stderr" "cxltier list: error: cannot read $PERM/sys/bus/cxl: Permission denied"
    run --separate-stderr as_nobody "$CXLTIER" list -j --sysroot "$PERM"
    assert_equal "$status" 1
    refute_output --partial '"memdevs"'
    # the whole tree root-only: the same
    root_only_tree sys
    run --separate-stderr as_nobody "$CXLTIER" list --sysroot "$PERM"
    assert_equal "$status" 1
    assert_equal "$stderr" "cxltier list: error: cannot read $PERM/sys/bus/cxl: Permission denied"
    # root reads the same tree; a tree without the bus is still "no CXL bus", exit 0
    run --separate-stderr "$CXLTIER" list --sysroot "$PERM"
    assert_success
    FROM=$(fixture host-nocxl) root_only_tree
    run --separate-stderr as_nobody "$CXLTIER" list --sysroot "$PERM"
    assert_success
    [[ $stderr == *"no CXL bus on this system"* ]] || fail "$stderr"
}

@test "an unreadable memory directory as a user: permission denied with the path, never 'no memory hotplug' (77)" {
    [[ $(id -u) == 0 ]] || skip "needs root to drop privileges"
    root_only_tree sys/devices/system/memory
    run --separate-stderr as_nobody "$CXLTIER" online --dry-run region0 --sysroot "$PERM"
    assert_equal "$status" 1
    assert_equal "$stderr" "cxltier online: error: cannot read $PERM/sys/devices/system/memory/block_size_bytes: Permission denied"
    run --separate-stderr as_nobody "$CXLTIER" list --sysroot "$PERM"
    assert_equal "$status" 1
    assert_equal "$stderr" "cxltier list: error: cannot read $PERM/sys/devices/system/memory/block_size_bytes: Permission denied"
    run --separate-stderr "$CXLTIER" online --dry-run region0 --sysroot "$PERM"
    assert_success
}
