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
