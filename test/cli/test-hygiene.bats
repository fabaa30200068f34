#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The CLI tests themselves: every `run` of cxltier asserts its exit status,
# and a failure is asserted with its code (a crash, 134 or 139, passes a bare
# assert_failure). The check is test/tools/check-run-status.awk.
load helper

CHECK=$CXLTIER_SRC/test/tools/check-run-status.awk

# files left to the change that owns them, each with what it still has; the
# test fails once one of them is clean, to be taken off this list
EXEMPT=()

check_run_status() { awk -f "$CHECK" "$@"; }

@test "every run of cxltier in test/cli asserts its exit status; no bare assert_failure" {
    local f files=() exempt=" ${EXEMPT[*]} "
    for f in "$CXLTIER_SRC"/test/cli/*.bats; do
        [[ $exempt == *" ${f##*/} "* ]] || files+=("$f")
    done
    (( ${#files[@]} >= 15 )) || fail "only ${#files[@]} files in test/cli"
    run check_run_status "${files[@]}"
    assert_success
    assert_output ''
}

@test "an exempt file still has findings (else it comes off the list)" {
    local f
    for f in "${EXEMPT[@]}"; do
        [[ -f $CXLTIER_SRC/test/cli/$f ]] || fail "exempt $f: no such file in test/cli"
        run check_run_status "$CXLTIER_SRC/test/cli/$f"
        [[ $status == 1 ]] || fail "exempt $f is clean (status $status): take it off EXEMPT"
    done
}

@test "the check finds a planted run without a status, and a bare assert_failure, by file and line" {
    local bad=$BATS_TEST_TMPDIR/bad.bats
    # (written as TEST: bats would take an @test line here for one of this file)
    sed 's/^TEST/@test/' > "$bad" <<'EOF'
load helper

TEST "output only" {
    run cxltier list -j
    assert_output ''
}

TEST "the next run comes before the status" {
    run --separate-stderr "$CXLTIER" tiers -j
    run jq . <<<"$output"
    assert_success
}

TEST "a bare assert_failure" {
    run cxltier --sysroot /nonexistent list
    assert_failure
}

TEST "through a wrapper, the command on a continued line" {
    run setpriv --reuid=65534 \
        "$CXLTIER" list
    [[ $output == *mem0* ]]
}

TEST "a status only printed is no assertion" {
    run cxltier list
    echo "status $status"
}

helper_with_run() {
    run cxltier online all --dry-run
}

TEST "asserted: each form" {
    run cxltier list
    assert_success
    run --separate-stderr cxltier list -m nosuch
    assert_failure 1
    run cxltier online all
    [[ $status == 64 ]] || fail "$output"
    run cxltier usage
    assert_equal "$status" 77
    run -0 cxltier version
    for c in list tiers; do
        run cxltier "$c" --help
        (( status == 0 ))
    done
    run jq . <<<'{}'
    cat > "$BATS_TEST_TMPDIR/x" <<-END
	run cxltier list
	END
    run complete_words cxltier li; assert_success
}
EOF
    run check_run_status "$bad"
    assert_failure 1
    assert_equal "$output" "$bad:4: \`run\` of cxltier with no status assertion (assert_success, assert_failure N, \$status) before the next \`run\` or the end of the test
$bad:9: \`run\` of cxltier with no status assertion (assert_success, assert_failure N, \$status) before the next \`run\` or the end of the test
$bad:16: \`assert_failure\` without a status number (a crash would pass it): say which code
$bad:20: \`run\` of cxltier with no status assertion (assert_success, assert_failure N, \$status) before the next \`run\` or the end of the test
$bad:26: \`run\` of cxltier with no status assertion (assert_success, assert_failure N, \$status) before the next \`run\` or the end of the test
$bad:31: \`run\` of cxltier with no status assertion (assert_success, assert_failure N, \$status) before the next \`run\` or the end of the test"
}

@test "the check finds a here-document that never ends" {
    local bad=$BATS_TEST_TMPDIR/open.bats
    # (split, so that this file does not open one itself)
    printf '%s\n' 'x() {' '    cat > f <<'"EOF" '    run cxltier list' '}' > "$bad"
    run check_run_status "$bad"
    assert_failure 1
    assert_output "$bad:2: here-document never ends (no line 'EOF'): the rest of the file went unchecked"
}
