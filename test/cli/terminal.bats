#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The tables in a terminal: each table command on each captured tree, run in
# tmux at 80x24 and at 200x50 and read back with capture-pane -J (a line the
# terminal wrapped comes back whole, so an overflow is a line wider than the
# terminal): no line wider than the terminal, one row an object (counted
# against the JSON), and the screen as recorded in
# test/fixtures/golden/terminal (CXLTIER_TERMINAL_UPDATE=1 rewrites them; a
# change of a table's columns updates them in the same commit). -r and -P:
# the same count of fields on every line, read by awk and by eval.
load helper

TERM_GOLDEN=$CXLTIER_SRC/test/fixtures/golden/terminal
# the goldens are libsmartcols 2.38's (Debian 12); smartcols-X.Y/ holds
# another version's screens where they differ
SMARTCOLS_BASE=2.38
SMARTCOLS=$(pkg-config --modversion smartcols 2>/dev/null | cut -d. -f1,2)
SMARTCOLS=${SMARTCOLS:-$SMARTCOLS_BASE}
FIXTURE_NAMES="host-nocxl k7-region-offline k7-region-online lab-region-offline lab-region-online
lab-two-devices lab-two-devices-idle lab-two-devices-interleaved lab-two-socket lab-usage
elc-region famfs-devdax famfs-second-region two-level-switch"
P=$CXLTIER_SRC/test/fixtures/payloads

# one tmux server for the file: a session a size, each command in a window
# of its own that stays after it ends (remain-on-exit) until it is read
setup_file() {
    export TSOCK=$BATS_FILE_TMPDIR/tmux.sock
    tmux -u -S "$TSOCK" -f /dev/null new-session -d -s s80 -x 80 -y 24 cat
    tmux -S "$TSOCK" set -g remain-on-exit on
    tmux -S "$TSOCK" new-session -d -s s200 -x 200 -y 50 cat
}

teardown_file() {
    tmux -S "$TSOCK" kill-server 2>/dev/null || true
}

# start WIDTH [-c DIR] ARGS...: `cxltier ARGS` run in a window of a terminal
# that wide (UTF-8), in DIR; prints the window's name for collect
start() {
    local w=$1 win=w$BASHPID-$RANDOM dir=$PWD
    shift
    if [[ $1 == -c ]]; then dir=$2; shift 2; fi
    tmux -S "$TSOCK" new-window -d -c "$dir" -t "s$w:" -n "$win" \
        "env LC_ALL=C.UTF-8 $(printf '%q ' "$CXLTIER" "$@"); tmux -S '$TSOCK' wait-for -S $win"
    echo "s$w:$win"
}

# collect WINDOW: its screen once its command has ended, as capture-pane -J
# reads it, without the pane's end and the blank lines below the output
collect() {
    tmux -S "$TSOCK" wait-for "${1#*:}"
    tmux -S "$TSOCK" capture-pane -p -J -S - -t "$1" \; kill-window -t "$1" | grep -v '^Pane is dead' |
        sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# screen WIDTH ARGS...: start and collect
screen() {
    collect "$(start "$@")"
}

# check_screen NAME ROWS WIDTH TEXT: the screen TEXT at WIDTH columns: no
# line wider, ROWS rows of the table (the lines after its heading, which
# messages on stderr may precede, up to the first blank line, footnote or
# message), the same as its golden NAME
check_screen() {
    local name=$1 rows=$2 w=$3 text=$4 longest n g
    longest=$(LC_ALL=C.UTF-8 awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' <<<"$text")
    if ((longest > w)); then
        echo "$name at $w columns: a line of $longest columns:"; echo "$text"; return 1
    fi
    n=$(awk '!head && /^cxltier / { next } !head { head = 1; next }
             /^$/ || /^\* / || /^cxltier / { exit } { n++ } END { print n + 0 }' <<<"$text")
    if ((n != rows)); then
        echo "$name at $w columns: $n table lines for $rows objects:"; echo "$text"; return 1
    fi
    # libsmartcols cuts columns its own way, version by version: a screen
    # that differs on another version has its golden in smartcols-X.Y/
    g=$TERM_GOLDEN/$name-$w.txt
    [[ -f $TERM_GOLDEN/smartcols-$SMARTCOLS/$name-$w.txt ]] && g=$TERM_GOLDEN/smartcols-$SMARTCOLS/$name-$w.txt
    if [[ -n ${CXLTIER_TERMINAL_UPDATE:-} ]]; then
        g=$TERM_GOLDEN/$name-$w.txt
        [[ $SMARTCOLS == "$SMARTCOLS_BASE" ]] || g=$TERM_GOLDEN/smartcols-$SMARTCOLS/$name-$w.txt
        mkdir -p "${g%/*}"
        sed 's/[[:space:]]*$//' <<<"$text" > "$g"
        # a version's golden only where it differs from the base one
        [[ $g == "$TERM_GOLDEN/$name-$w.txt" ]] || ! cmp -s "$g" "$TERM_GOLDEN/$name-$w.txt" || rm "$g"
        [[ -f $g ]] || g=$TERM_GOLDEN/$name-$w.txt
    fi
    diff -u "$g" <(sed 's/[[:space:]]*$//' <<<"$text") || { echo "$name at $w columns differs from $g"; return 1; }
}

# objects KIND ARGS...: how many rows `cxltier ARGS` has, from its JSON
objects() {
    local kind=$1
    shift
    "$CXLTIER" "$@" -j | jq "$(case $kind in
        list) echo '(.regions | length) + ([.regions[].targets[]?] | length) +
                    ([.regions[].dax_devices[]?] | length) + ([.memdevs[] | select((.regions // []) == [])] | length)' ;;
        tiers) echo '.nodes | length' ;;
        doctor) echo '.findings | length' ;;
        usage) echo '[.processes[] | 1 + (.nodes | length)] | add // 0' ;;
        health) echo '.memdevs | length' ;;
        events) echo '.events | length' ;;
    esac)"
}

# terminal_case NAME KIND [-c DIR] ARGS...: at both sizes, run side by side
terminal_case() {
    local name=$1 kind=$2 rows bad=0 w80 w200 dir=
    shift 2
    if [[ $1 == -c ]]; then dir=$2; shift 2; fi
    w80=$(start 80 ${dir:+-c "$dir"} "$@")
    w200=$(start 200 ${dir:+-c "$dir"} "$@")
    rows=$(cd "${dir:-.}" && objects "$kind" "$@") || { echo "$name: no JSON"; return 1; }
    check_screen "$name" "$rows" 80 "$(collect "$w80")" || bad=1
    check_screen "$name" "$rows" 200 "$(collect "$w200")" || bad=1
    return $bad
}

@test "list and list -v at 80 and 200 columns: a row an object, none wider than the terminal" {
    local fx bad=0
    for fx in $FIXTURE_NAMES; do
        terminal_case "$fx-list" list list --sysroot "$(fixture "$fx")" || bad=1
        terminal_case "$fx-list-v" list list -v --sysroot "$(fixture "$fx")" || bad=1
    done
    [[ $bad == 0 ]]
}

@test "tiers at 80 and 200 columns" {
    local fx bad=0
    for fx in $FIXTURE_NAMES; do
        terminal_case "$fx-tiers" tiers tiers --sysroot "$(fixture "$fx")" || bad=1
    done
    [[ $bad == 0 ]]
}

@test "doctor at 80 and 200 columns" {
    local fx bad=0
    for fx in $FIXTURE_NAMES; do
        terminal_case "$fx-doctor" doctor doctor --sysroot "$(fixture "$fx")" || bad=1
    done
    [[ $bad == 0 ]]
}

@test "usage, health --file and events --file at 80 and 200 columns" {
    . "$CXLTIER_SRC/test/tools/event-record.bash"
    local bad=0 gm=$BATS_TEST_TMPDIR/gm.bin dram=$BATS_TEST_TMPDIR/dram.bin
    terminal_case lab-usage-usage usage usage --sysroot "$(fixture lab-usage)" || bad=1
    terminal_case health-warning health -c "$P" health --file health-warning.bin --alert-file alert-config.bin || bad=1
    terminal_case health-normal health -c "$P" health --file health-normal.bin || bad=1
    # a general media and a DRAM record (test/cli/events.bats)
    event_record fbcd0a77c260417f85a9088b1621eba6 17:360000 20:0700 22:0300 24:15cd5b0700000000 > "$gm"
    event_record 601dcbb39c064eabb8af4e9bfb5c9624 17:360000 20:0100 22:0100 24:0010000000000000 > "$dram"
    terminal_case events-file events events --file "$gm" --file "$dram" || bad=1
    [[ $bad == 0 ]]
}

@test "the tree on NAME wherever -o puts it; -l without it; UTF-8 lines in a UTF-8 locale, ASCII in C" {
    # (libsmartcols 2.38 pads SIZE to its heading's width under -n, 2.41 does not)
    local root
    root=$(fixture lab-two-devices-interleaved)
    run screen 80 list --sysroot "$root" -n -o SIZE,NAME
    assert_line --index 1 --regexp '^ *1G ├─mem0$'
    assert_line --index 3 --regexp '^ *2G └─dax0.0$'
    run cxltier list --sysroot "$root" -n -o SIZE,NAME
    assert_success
    assert_line --index 1 --regexp '^ *1G \|-mem0$'
    run cxltier list --sysroot "$root" -n -l -o SIZE,NAME
    assert_success
    assert_line --index 1 --regexp '^ *1G mem0$'
    run cxltier list --sysroot "$root" -n -o SIZE,TYPE
    assert_success
    assert_line --index 1 --regexp '^ *1G memdev$'
}

@test "tiers -n -o prints the node rows alone; the settings only with the full table" {
    local root
    root=$(fixture lab-two-socket)
    run --separate-stderr cxltier tiers --sysroot "$root" -n -o NODE,SIZE
    assert_success
    assert_equal "${#lines[@]}" 4
    refute_output --partial DEMOTION
    refute_output --partial '*'
    run cxltier tiers --sysroot "$root"
    assert_success
    assert_output --partial DEMOTION
    assert_output --partial 'WHERE THE SOURCES DISAGREE'
}

# the raw and the pairs forms of ARGS: each line as many fields as the
# heading, the rows as many as its objects; each pairs line read by eval
raw_and_pairs() {
    local kind=$1 raw=$2 rows nf line want
    shift 2
    rows=$(objects "$kind" "$@")
    run --separate-stderr cxltier "$@" -j
    [[ $status == 0 || $status == 1 ]] || fail "$* -j: exit $status"    # doctor: 1, a problem found
    want=$status
    run --separate-stderr cxltier "$@" "$raw"
    assert_equal "$status" "$want"
    if [[ -z $output ]]; then    # nothing to show: no heading either
        assert_equal "$rows" 0
        return
    fi
    nf=$(head -1 <<<"$output" | awk -F'[ ]' '{ print NF }')
    [[ $(awk -F'[ ]' -v nf="$nf" 'NF != nf' <<<"$output") == "" ]] ||
        fail "$* $raw: a line without $nf fields: $output"
    assert_equal "$(($(grep -c . <<<"$output") - 1))" "$rows"
    run --separate-stderr cxltier "$@" -P
    assert_equal "$status" "$want"
    assert_equal "$(grep -c . <<<"$output")" "$rows"
    while IFS= read -r line; do
        (eval "$line" && [[ -v NAME || -v NODE || -v CHECK || -v MEMDEV || -v TIME ]]) ||
            fail "$* -P: not read by eval: $line"
        [[ $(grep -o '[A-Z_0-9]*="' <<<"$line" | wc -l) == "$nf" ]] || fail "$* -P: not $nf pairs: $line"
    done <<<"$output"
}

@test "-r and -P: a constant count of fields, read by awk and eval" {
    local fx
    for fx in lab-two-devices-interleaved lab-two-socket host-nocxl; do
        raw_and_pairs list --raw list --sysroot "$(fixture "$fx")"
        raw_and_pairs tiers -r tiers --sysroot "$(fixture "$fx")"
        raw_and_pairs doctor -r doctor --sysroot "$(fixture "$fx")"
    done
    raw_and_pairs usage -r usage --sysroot "$(fixture lab-usage)"
    raw_and_pairs health -r health --file "$P/health-warning.bin" --alert-file "$P/alert-config.bin"
}

@test "--output-all shows every column; -o +COLS adds to the defaults" {
    local root all
    root=$(fixture lab-two-devices-interleaved)
    all=$(cxltier list --help | awk '/^Available output columns/ { on = 1; next } on { print $1 }' | paste -sd' ')
    run cxltier list --sysroot "$root" --output-all
    assert_success
    assert_equal "$(head -1 <<<"$output" | tr -s ' ')" "$all"
    run cxltier list --sysroot "$root" -o +SERIAL
    assert_success
    assert_line --index 0 --regexp '^NAME +TYPE +SIZE +MODE +STATE +HOST +NODE +ONLINE +MOVABLE +SERIAL$'
}
