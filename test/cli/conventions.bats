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
    for args in "list" "list -j" "tiers" "tiers -j" "doctor -j" "cdat" "version" "version -j"; do
        # shellcheck disable=SC2086  # the words of args
        run --separate-stderr bash -c '"$@" > /dev/full' _ "$CXLTIER" $args --sysroot "$ROOT"
        [[ $status == 1 ]] || fail "$args > /dev/full: exit $status, stderr: $stderr"
        [[ $stderr == *"cxltier: write error"* ]] || fail "$args > /dev/full: no write error said: $stderr"
        n=$((n + 1))
    done
    assert_equal "$n" 8
}

@test "/dev/full: the reason is said, as close_stdout says it" {
    run --separate-stderr bash -c '"$@" > /dev/full' _ "$CXLTIER" list -j --sysroot "$ROOT"
    assert_equal "$status" 1
    assert_equal "$stderr" "cxltier: write error: No space left on device"
}

@test "a reader that leaves (| head) is no write error, and a writable stdout none either" {
    run --separate-stderr bash -c 'set -o pipefail; "$@" | head -c1 >/dev/null' _ "$CXLTIER" list -j --sysroot "$ROOT"
    refute [ -n "$stderr" ]
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
            [[ $stderr != *"did you mean '$w'"* ]] || fail "$cmd $w=x: $stderr"
            n=$((n + 1))
        done
    done
    (( n > 50 )) || fail "only $n options tried"
    run --separate-stderr "$CXLTIER" list --sysroot "$ROOT" --jsno
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
