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

GEN=$CXLTIER_SRC/test/mutate-gen.py

@test "generated: sites in code only, not in comments, literals, preprocessor lines or crash points" {
    local r=$BATS_TEST_TMPDIR/tree
    mkdir -p "$r/lib/x"
    cat > "$r/lib/x/a.c" <<'X'
#include <stdio.h>
#define BIG(x) ((x) > 10 && (x) < 20)
/* if (a < b && !c) return 0; */
// if (a == b) return -1;
static const char *s = "a < b || !c";
static char c = '<';
#if CXLTIER_CRASH_POINTS
int crash(int a) { return a < 1; }
#else
int plain(int a) { return a > 2; }
#endif
int f(int a, int b)
{
	if (!a || b >= 3)
		return 0;
	return a + 1 == b - 1;
}
X
    run python3 "$GEN" sites "$r" lib/x/a.c
    assert_success
    # line 10's > (the #else branch), line 14's ! || >=, 15's return, 16's + 1 == - 1
    refute_output --regexp $'\t(1|2|3|4|5|6|7|8)\t'
    assert_line --regexp $'^lib/x/a.c:10:rel-flip:0:[0-9a-f]{8}\tlib/x/a.c\t10\trel-flip\t>\t<=\t'
    assert_line --regexp $'^lib/x/a.c:14:negation:0:.*\t!\t\t'
    assert_line --regexp $'^lib/x/a.c:14:logic:0:.*\t\\|\\|\t&&\t'
    assert_line --regexp $'^lib/x/a.c:14:rel-bound:0:.*\t>=\t>\t'
    assert_line --regexp $'^lib/x/a.c:15:return:0:.*\treturn 0;\treturn -1;\t'
    assert_line --regexp $'^lib/x/a.c:16:arith:0:.*\t\\+ 1\t- 1\t'
    assert_line --regexp $'^lib/x/a.c:16:arith:1:.*\t- 1\t\\+ 1\t'
    assert_line --regexp $'^lib/x/a.c:16:rel-flip:0:.*\t==\t!=\t'
}

@test "generated: a seed draws the same mutants again; a mutant changes its site alone, found where its line moved" {
    local r=$BATS_TEST_TMPDIR/tree one two id
    mkdir -p "$r/lib/core"
    cp "$CXLTIER_SRC/lib/core/nodeset.c" "$r/lib/core/"
    one=$(python3 "$GEN" pick "$r" 42 5 lib/core/nodeset.c 2>/dev/null)
    two=$(python3 "$GEN" pick "$r" 42 5 lib/core/nodeset.c 2>/dev/null)
    assert_equal "$one" "$two"
    [[ $(wc -l <<< "$one") == 5 ]] || fail "not 5 mutants: $one"
    [[ $one != "$(python3 "$GEN" pick "$r" 43 5 lib/core/nodeset.c 2>/dev/null)" ]] || fail "seed 43 drew seed 42's"
    # a mutant on a line that reads like no other of the file
    id=$(while IFS=$'\t' read -r i _ _ _ _ _ text; do
             [[ $(grep -cxF -- "$(grep -m1 -F -- "$text" "$r/lib/core/nodeset.c")" "$r/lib/core/nodeset.c") == 1 ]] &&
                 { echo "$i"; break; }
         done < <(python3 "$GEN" sites "$r" lib/core/nodeset.c))
    [[ -n $id ]] || fail "no site on a line of its own in nodeset.c"
    # two lines added on top: the site is found on its line all the same
    sed -i '1i /* moved */\n/* down */' "$r/lib/core/nodeset.c"
    cp "$r/lib/core/nodeset.c" "$BATS_TEST_TMPDIR/before.c"
    run python3 "$GEN" apply "$r" "$id"
    assert_success
    run diff "$BATS_TEST_TMPDIR/before.c" "$r/lib/core/nodeset.c"
    assert_failure 1
    [[ $(grep -c '^[<>]' <<< "$output") == 2 ]] || fail "more than one line changed: $output"
    # its line changed: the mutant is gone, said so
    sed -i "$(( $(cut -d: -f2 <<< "$id") + 2 ))s/\$/ \\/* edited *\\//" "$BATS_TEST_TMPDIR/before.c"
    cp "$BATS_TEST_TMPDIR/before.c" "$r/lib/core/nodeset.c"
    run python3 "$GEN" apply "$r" "$id"
    assert_failure 1
    assert_output --partial "the site is gone (its line changed)"
}

@test "generated: the recorded equivalents name sites that exist, each with its reason" {
    run python3 "$GEN" check "$CXLTIER_SRC" "$CXLTIER_SRC/test/mutants-equivalent"
    assert_success
    local e=$BATS_TEST_TMPDIR/equivalent
    printf '%s\n' 'lib/core/nodeset.c:9999:logic:0:00000000 :: no such line' 'no reason' > "$e"
    run python3 "$GEN" check "$CXLTIER_SRC" "$e"
    assert_failure 1
    assert_output --partial "$e:1: lib/core/nodeset.c:9999:logic:0:00000000: no such site now"
    assert_output --partial "$e:2: not \"ID :: WHY\""
}

COV=$CXLTIER_SRC/test/mutate-cov.py

@test "coverage map: gcov's lines by file of the tree; a line's tests fastest first, or unreached, or every test" {
    local d=$BATS_TEST_TMPDIR
    # gcov's JSON as gcc 12 writes it, run from the build directory
    printf '%s\n' \
        '{"current_working_directory": "'"$d"'/tree/build", "files": [{"file": "../lib/x/a.c", "lines": [{"line_number": 3, "count": 2}, {"line_number": 4, "count": 0}, {"line_number": 7, "count": 1}]}, {"file": "/usr/include/stdio.h", "lines": [{"line_number": 9, "count": 1}]}]}' \
        > "$d/slow.json"
    printf '%s\n' \
        '{"current_working_directory": "'"$d"'/tree/build", "files": [{"file": "../lib/x/a.c", "lines": [{"line_number": 3, "count": 1}, {"line_number": 4, "count": 0}, {"line_number": 7, "count": 0}]}]}' \
        > "$d/fast.json"
    mkdir -p "$d/tree/build"
    run python3 "$COV" parse "$d/tree" < "$d/slow.json"
    assert_success
    assert_output $'lib/x/a.c:3\nlib/x/a.c:7'
    python3 "$COV" parse "$d/tree" < "$d/slow.json" > "$d/slow.lines"
    python3 "$COV" parse "$d/tree" < "$d/fast.json" > "$d/fast.lines"
    run python3 "$COV" parse "$d/tree" --all < "$d/fast.json"
    assert_output $'lib/x/a.c:3\nlib/x/a.c:4\nlib/x/a.c:7'
    printf 'lib/x/a.c:3\nlib/x/a.c:4\nlib/x/a.c:7\n' > "$d/executable"
    printf 'cli/slow\t30.5\t%s\tok\nunit/fast\t0.25\t%s\tok\n' "$d/slow.lines" "$d/fast.lines" > "$d/tests"
    python3 "$COV" map "$d/map" "$d/executable" "$d/tests"
    run python3 "$COV" select "$d/map" lib/x/a.c 3
    assert_output "tests unit/fast cli/slow"
    run python3 "$COV" select "$d/map" lib/x/a.c 7
    assert_output "tests cli/slow"
    run python3 "$COV" select "$d/map" lib/x/a.c 4
    assert_output "unreached"
    # a continuation line, a line of a file no object compiles
    run python3 "$COV" select "$d/map" lib/x/a.c 5
    assert_output "fallback"
    run python3 "$COV" select "$d/map" lib/x/b.c 3
    assert_output "fallback"
    # a test that failed in the coverage build runs for every executable line
    printf 'cli/slow\t30.5\t%s\tfailed\nunit/fast\t0.25\t%s\tok\n' "$d/slow.lines" "$d/fast.lines" > "$d/tests"
    python3 "$COV" map "$d/map" "$d/executable" "$d/tests"
    run python3 "$COV" select "$d/map" lib/x/a.c 4
    assert_output "tests cli/slow"
    run python3 "$COV" select "$d/map" lib/x/a.c 5
    assert_output "fallback"
}

@test "coverage map: gcov's own output of a program, a continuation line not executable, _exit's counters kept" {
    local d=$BATS_TEST_TMPDIR/tree
    mkdir -p "$d/lib/x" "$d/build"
    cat > "$d/lib/x/a.c" <<'C'
#include <unistd.h>
static int f(int x)
{
	int y = x
		+ 1;
	if (y > 10)
		return 1;
	return 0;
}
int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		_exit(f(argc));
	return f(argc);
}
C
    # the writer of the counters at _exit, as mutate.sh links it into the coverage build
    sed -n '/^\/\* a process ending by _exit/,/^}$/p' "$CXLTIER_SRC/test/mutate.sh" > "$d/flush.c"
    (cd "$d/build" && gcc -O0 --coverage -c ../lib/x/a.c -o a.o && gcc -c "$d/flush.c" -o flush.o &&
        gcc --coverage -Wl,--wrap=_exit a.o flush.o -o a)
    run python3 "$COV" lines "$d/build" "$d" --all
    assert_success
    assert_line "lib/x/a.c:4"
    refute_line "lib/x/a.c:5"
    assert_line "lib/x/a.c:7"
    "$d/build/a" two
    run python3 "$COV" lines "$d/build" "$d"
    assert_line "lib/x/a.c:14"
    assert_line "lib/x/a.c:8"
    refute_line "lib/x/a.c:7"
    refute_line "lib/x/a.c:16"
}
