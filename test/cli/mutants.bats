#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# test/mutants, the list test/mutate.sh runs (not in CI), kept well-formed:
# every ORIGINAL occurs exactly once in its FILE, so that the list cannot
# rot silently when the code changes.
load helper

MUTATE=$CXLTIER_SRC/test/mutate.sh

setup() {
    # under test/mutate.sh the tree holds one mutant: its ORIGINAL is gone
    [[ -z ${CXLTIER_MUTANT:-} ]] || skip "a mutant ($CXLTIER_MUTANT) is applied to this tree"
}

@test "mutants: every ORIGINAL of test/mutants occurs once in its file; at least 60 mutants" {
    run "$MUTATE" --check
    assert_success
    assert_output --regexp '^.*/test/mutants: [0-9]+ mutants \([0-9]+ marked equivalent\), every ORIGINAL once in its file$'
    local n=${output#*: }
    n=${n%% *}
    (( n >= 60 )) || fail "only $n mutants in test/mutants"
}

@test "mutants: a line whose ORIGINAL is gone, or occurs twice, is refused by file and line" {
    local m=$BATS_TEST_TMPDIR/mutants
    cat > "$m" <<'X'
# a comment
ok-1 :: lib/core/nodeset.c :: for (long n = a; n <= b; n++) :: for (long n = a; n < b; n++) :: fine
gone-1 :: lib/core/nodeset.c :: for (long n = a; n <= b; n += 2) :: x :: no longer in the file
twice-1 :: lib/core/nodeset.c :: return -EINVAL; :: return 0; :: occurs more than once
short-1 :: lib/core/nodeset.c :: only three fields
dup-1 :: lib/core/nodeset.c :: for (long n = a; n <= b; n++) :: for (;;) :: fine
dup-1 :: lib/core/nodeset.c :: for (long n = a; n <= b; n++) :: for (;;) :: the ID again
eq-1 :: lib/core/nodeset.c :: for (long n = a; n <= b; n++) :: x :: y :: because
X
    MUTANTS=$m run "$MUTATE" --check
    assert_failure 1
    assert_output --partial "$m:3: gone-1: ORIGINAL occurs 0 times in lib/core/nodeset.c, not once"
    assert_output --partial "$m:4: twice-1: ORIGINAL occurs "
    assert_output --partial "$m:5: not 'ID :: FILE :: ORIGINAL :: MUTATED :: WHAT"
    assert_output --partial "$m:7: dup-1: the ID is used twice"
    assert_output --partial "$m:8: eq-1: the 6th field must be 'equivalent: WHY'"
    refute_output --partial "ok-1"
}

@test "mutants: {NL} and {TAB} match across lines; an equivalent mutant is counted apart" {
    local m=$BATS_TEST_TMPDIR/mutants
    printf '%s\n' \
        'nl-1 :: lib/core/nodeset.c :: if (*p == '"','"') {{NL}{TAB}{TAB}{TAB}p++; :: if (0) {{NL}{TAB}{TAB}{TAB}p++; :: a list stops at its first comma' \
        'eq-1 :: lib/core/nodeset.c :: for (long n = a; n <= b; n++) :: for (long n = a; b >= n; n++) :: the same test :: equivalent: b >= n is n <= b' \
        > "$m"
    MUTANTS=$m run "$MUTATE" --check
    assert_success
    assert_output "$m: 2 mutants (1 marked equivalent), every ORIGINAL once in its file"
}
