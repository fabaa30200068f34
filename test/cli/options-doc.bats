#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Each man page's OPTIONS names the options of its command's table, with
# their letters and argument names (test/tools/options-doc.py), and a page
# that drifts from the table fails, naming the page and the option.
load helper

doc_check() { python3 "$CXLTIER_SRC/test/tools/options-doc.py" "$CXLTIER" "$1"; }

@test "every man page's OPTIONS names its command's options as the table does" {
    run doc_check "$CXLTIER_SRC/docs"
    assert_success
    assert_output ''
}

@test "a page missing an option of the table fails, naming both" {
    cp -r "$CXLTIER_SRC/docs" "$BATS_TEST_TMPDIR/docs"
    sed -i '/^\*--matrix\*::/d' "$BATS_TEST_TMPDIR/docs/cxltier-tiers.txt"
    run doc_check "$BATS_TEST_TMPDIR/docs"
    assert_failure 1
    assert_output --partial "cxltier-tiers.txt: OPTIONS has no --matrix (cxltier tiers --help has it)"
}

@test "a page naming an option the table lacks fails" {
    cp -r "$CXLTIER_SRC/docs" "$BATS_TEST_TMPDIR/docs"
    sed -i 's/^\*--matrix\*::/*--matrix*:: the matrix.\n*--grid*::/' "$BATS_TEST_TMPDIR/docs/cxltier-tiers.txt"
    run doc_check "$BATS_TEST_TMPDIR/docs"
    assert_failure 1
    assert_output --regexp "cxltier-tiers.txt:[0-9]+: --grid is not an option of cxltier tiers"
}

@test "a page giving an option another argument or letter fails" {
    cp -r "$CXLTIER_SRC/docs" "$BATS_TEST_TMPDIR/docs"
    sed -i 's/^\*--from\* NODE::/*--from* N::/' "$BATS_TEST_TMPDIR/docs/cxltier-tiers.txt"
    sed -i 's/^\*-m, --memdev\* LIST::/*-M, --memdev* LIST::/' "$BATS_TEST_TMPDIR/docs/cxltier-list.txt"
    run doc_check "$BATS_TEST_TMPDIR/docs"
    assert_failure 1
    assert_output --regexp "cxltier-tiers.txt:[0-9]+: --from takes NODE in the table, N here"
    assert_output --regexp "cxltier-list.txt:[0-9]+: --memdev is -M here, -m in the table"
}

# every "-X, --long" of every command's and subcommand's --help (not the
# line naming the options every command takes), with those options, one
# "X long WHERE" a line
letters() {
    local c s
    printf '%s common\n' 'v verbose' 'j json' 'o output' 'n noheadings' 'r raw' 'P pairs' 'l list' 'b bytes' 'h help'
    for c in $("$CXLTIER" --list-cmds); do
        "$CXLTIER" "$c" --help | grep -v 'as for every command' | sed -nE "s/^ +-([a-zA-Z]), --([a-z0-9-]+).*/\1 \2 $c/p"
        for s in $("$CXLTIER" "$c" --list-completion | sed -n 's/^@subcommands\twords\t//p'); do
            "$CXLTIER" "$c" "$s" --help | grep -v 'as for every command' | sed -nE "s/^ +-([a-zA-Z]), --([a-z0-9-]+).*/\1 \2 $c-$s/p"
        done
    done
}
# the letters given two meanings, from "X long WHERE" lines on stdin
two_meanings() { awk '{ if (($1 in m) && m[$1] != $2) print "-" $1 ": --" m[$1] " (" w[$1] ") and --" $2 " (" $3 ")"; else { m[$1] = $2; w[$1] = $3 } }'; }

@test "a letter has one meaning in every command (util-linux: -r raw, -o columns everywhere)" {
    letters > "$BATS_TEST_TMPDIR/letters"
    [[ $(wc -l < "$BATS_TEST_TMPDIR/letters") -gt 20 ]] || fail "too few options read: $(cat "$BATS_TEST_TMPDIR/letters")"
    run two_meanings < "$BATS_TEST_TMPDIR/letters"
    assert_output ''
}

@test "a letter given a second meaning is found" {
    printf '%s\n' 'r raw common' 's size region-create' 'r region list' 's size region-create' | two_meanings > "$BATS_TEST_TMPDIR/out"
    assert_equal "$(cat "$BATS_TEST_TMPDIR/out")" "-r: --raw (common) and --region (list)"
}
