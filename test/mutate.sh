#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# test/mutate.sh - the mutation check (not run in CI): each mutant of
# test/mutants is applied to a private copy of the tree, built, and the host
# tiers (unit and CLI suites) run against it; a mutant the tests do not
# notice is a test that is missing.
#
#   test/mutate.sh [BUILDDIR] [ID...]    run the mutants (all, or the IDs)
#   test/mutate.sh --check               test/mutants well-formed, run none
#
# BUILDDIR (default build) is the caller's configured build: its source tree
# is the one mutated, copied whole (tracked and untracked files, not ignored
# ones) into a directory under a private mktemp -d, where it is configured
# and built once; the caller's files are never written. Per mutant: the
# mutation applied, ninja (a mutant that does not compile is "stillborn",
# not counted), `meson test --suite unit --suite cli --maxfail 1` under a
# timeout (MUTATE_TIMEOUT seconds, default 900), the file restored. Prints
# "killed by TEST" or "SURVIVED" per mutant, then the tally; exit 0 when
# at least 95 % of the counted mutants were killed, 1 below, 2 on a usage or
# setup error. Equivalent mutants (6th column) are not run and not counted.
#
# test/mutants: one mutant a line, fields separated by " :: ":
#   ID :: FILE :: ORIGINAL :: MUTATED :: WHAT [:: equivalent: WHY]
# ORIGINAL must occur exactly once in FILE (else the line is refused, and
# --check fails); {NL} and {TAB} in ORIGINAL/MUTATED stand for a newline and
# a tab. Lines starting with # and blank lines are comments.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
MUTANTS_ASKED=${MUTANTS:-}	# MUTANTS=FILE: another list than test/mutants
MUTANTS=${MUTANTS_ASKED:-$SRC/test/mutants}
GOAL=95
TIMEOUT=${MUTATE_TIMEOUT:-900}

# the helper that reads, checks and applies test/mutants
py() {
	python3 - "$@" <<'EOF'
import sys

SEP = " :: "

def unesc(s):
    return s.replace("{NL}", "\n").replace("{TAB}", "\t")

def parse(path):
    out, ids, errs = [], set(), []
    for no, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split(SEP)
        where = "%s:%d" % (path, no)
        if len(f) not in (5, 6) or not all(x.strip() for x in f):
            errs.append("%s: not 'ID :: FILE :: ORIGINAL :: MUTATED :: WHAT [:: equivalent: WHY]' (%d fields)"
                        % (where, len(f)))
            continue
        mid, file, orig, mut, what = (x.strip() if i < 2 or i == 4 else x for i, x in enumerate(f[:5]))
        equiv = f[5].strip() if len(f) == 6 else ""
        if equiv and not equiv.startswith("equivalent: "):
            errs.append("%s: %s: the 6th field must be 'equivalent: WHY'" % (where, mid))
        if mid in ids:
            errs.append("%s: %s: the ID is used twice" % (where, mid))
        ids.add(mid)
        out.append((where, mid, file, unesc(orig), unesc(mut), what, equiv))
    return out, errs

def check(root, entries):
    errs = []
    for where, mid, file, orig, mut, what, equiv in entries:
        if orig == mut:
            errs.append("%s: %s: MUTATED is ORIGINAL" % (where, mid))
        if not (file.startswith("lib/") or file.startswith("cxltier/")):
            errs.append("%s: %s: %s is not in lib/ or cxltier/" % (where, mid, file))
            continue
        try:
            text = open(root + "/" + file, encoding="utf-8").read()
        except OSError as e:
            errs.append("%s: %s: %s: %s" % (where, mid, file, e.strerror))
            continue
        n = text.count(orig)
        if n != 1:
            errs.append("%s: %s: ORIGINAL occurs %d times in %s, not once: %r" % (where, mid, n, file, orig))
    return errs

cmd, path, root = sys.argv[1:4]
entries, errs = parse(path)
if cmd == "check":
    errs += check(root, entries)
    for e in errs:
        print(e, file=sys.stderr)
    if errs:
        sys.exit(1)
    print("%s: %d mutants (%d marked equivalent), every ORIGINAL once in its file"
          % (path, len(entries), sum(1 for e in entries if e[6])))
elif cmd == "list":
    # ID<TAB>FILE<TAB>equivalent<TAB>WHAT, the IDs asked for (all when none)
    want = sys.argv[4:]
    known = {e[1] for e in entries}
    for w in want:
        if w not in known:
            print("%s: no mutant %s" % (path, w), file=sys.stderr)
            sys.exit(1)
    for e in entries:
        if not want or e[1] in want:
            print("\t".join((e[1], e[2], e[6] or "-", e[5])))
elif cmd == "apply":
    mid = sys.argv[4]
    e = next(e for e in entries if e[1] == mid)
    errs = check(root, [e])
    if errs:
        print(errs[0], file=sys.stderr)
        sys.exit(1)
    f = root + "/" + e[2]
    text = open(f, encoding="utf-8").read()
    open(f, "w", encoding="utf-8").write(text.replace(e[3], e[4], 1))
EOF
}

if [[ ${1:-} == --check ]]; then
	py check "$MUTANTS" "$SRC"
	exit
fi
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
	sed -n '3,27p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi

BUILD=build
if [[ $# -gt 0 && -d $1 ]]; then
	BUILD=$1
	shift
elif [[ $# -gt 0 && $1 == */* ]]; then
	echo "mutate.sh: $1: no such build directory" >&2
	exit 2
fi
[[ -f $BUILD/build.ninja ]] || { echo "mutate.sh: $BUILD is not a configured meson build (meson setup $BUILD)" >&2; exit 2; }
SRC=$(meson introspect --projectinfo "$BUILD" >/dev/null && cd "$BUILD" && python3 -c '
import json, sys
for o in json.load(open("meson-info/meson-info.json"))["directories"].items():
    if o[0] == "source": print(o[1])')
[[ -d $SRC/lib && -d $SRC/cxltier ]] || { echo "mutate.sh: no cxltier source tree at '$SRC'" >&2; exit 2; }
MUTANTS=${MUTANTS_ASKED:-$SRC/test/mutants}

if ! py check "$MUTANTS" "$SRC" >/dev/null; then
	echo "mutate.sh: $MUTANTS is not well-formed (above): fix it first" >&2
	exit 2
fi
LIST=$(py list "$MUTANTS" "$SRC" "$@") || exit 2

renice -n 10 $$ >/dev/null 2>&1 || true

WORK=$(mktemp -d /tmp/cxltier-mutate.XXXXXX)	# 0700, the caller's (root's)
TREE=$WORK/src
cp "$MUTANTS" "$WORK/mutants"	# the list as it was at the start
MUTANTS=$WORK/mutants
CUR_FILE=
cleanup() {
	# the copy's file back as it was, then the whole copy removed: the
	# caller's tree was never written
	if [[ -n $CUR_FILE && -f $WORK/orig ]]; then
		cp "$WORK/orig" "$TREE/$CUR_FILE" 2>/dev/null || true
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "mutate.sh: interrupted" >&2; exit 130' INT TERM HUP

# the copy: tracked and untracked files as the caller has them now
mkdir "$TREE"
(cd "$SRC" && git ls-files -z -c -o --exclude-standard | sort -zu |
	while IFS= read -r -d '' f; do [[ -e $f || -L $f ]] && printf '%s\0' "$f"; done |
	cpio -0 -pdm --quiet "$TREE")
echo "mutate.sh: the tree copied to $TREE; building it once"
if ! (cd "$TREE" && nice -n 10 meson setup build -Dwerror=false >"$WORK/setup.log" 2>&1 &&
      nice -n 10 ninja -C build >"$WORK/build.log" 2>&1); then
	echo "mutate.sh: the unmutated copy does not build:" >&2
	tail -n 30 "$WORK/setup.log" "$WORK/build.log" >&2 2>/dev/null || true
	exit 2
fi

run_tests() { # log: 0 when every test passes
	(cd "$TREE" && CXLTIER_MUTANT=${MID:-} nice -n 10 timeout -k 30 "$TIMEOUT" \
		meson test -C build --suite unit --suite cli --no-rebuild --maxfail 1 >"$1" 2>&1 </dev/null)
}

t0=$SECONDS
if [[ -z ${MUTATE_NO_BASELINE:-} ]]; then
	echo "mutate.sh: the unmutated copy's tests (every one must pass)"
	if ! MID= run_tests "$WORK/baseline.log"; then
		echo "mutate.sh: the unmutated tree fails its tests; no mutant can be judged:" >&2
		grep -E '^ *[0-9]+/[0-9]+ .*(FAIL|TIMEOUT|ERROR)' "$WORK/baseline.log" >&2 || tail -n 20 "$WORK/baseline.log" >&2
		exit 2
	fi
	echo "mutate.sh: baseline passed in $((SECONDS - t0)) s"
fi

n=0 killed=0 survived=0 stillborn=0 equivalent=0
survivors=()
while IFS=$'\t' read -r MID file equiv what; do
	if [[ $equiv != - ]]; then
		equivalent=$((equivalent + 1))
		printf '%-10s %-36s equivalent (not run): %s\n' "$MID" "$file" "${equiv#equivalent: }"
		continue
	fi
	t=$SECONDS
	cp "$TREE/$file" "$WORK/orig"
	CUR_FILE=$file
	if ! py apply "$MUTANTS" "$TREE" "$MID" 2>"$WORK/apply.log"; then
		echo "mutate.sh: $MID: $(cat "$WORK/apply.log")" >&2
		exit 2
	fi
	if ! nice -n 10 ninja -C "$TREE/build" >"$WORK/ninja.log" 2>&1 </dev/null; then
		verdict="stillborn ($(grep -m1 -E 'error:' "$WORK/ninja.log" | sed 's/^.*error: //' | cut -c1-60))"
		stillborn=$((stillborn + 1))
	elif run_tests "$WORK/test.log"; then
		verdict=SURVIVED
		survived=$((survived + 1))
		survivors+=("$MID")
		n=$((n + 1))
	else
		rc=$?
		killer=$(sed -n -E 's/^ *[0-9]+\/[0-9]+ +(cxltier:)?([a-z]+ \/ )?([^ ]+) +(FAIL|TIMEOUT|ERROR|UNEXPECTEDPASS).*/\3 (\4)/p' \
			"$WORK/test.log" | head -n 1)
		[[ $rc == 124 || $rc == 137 ]] && killer="the timeout (${TIMEOUT} s)"
		verdict="killed by ${killer:-meson test (exit $rc)}"
		killed=$((killed + 1))
		n=$((n + 1))
	fi
	cp "$WORK/orig" "$TREE/$file"
	CUR_FILE=
	printf '%-10s %-36s %s  [%d s]  %s\n' "$MID" "$file" "$verdict" $((SECONDS - t)) "$what"
done <<<"$LIST"

rate=$(awk -v k=$killed -v n=$n 'BEGIN { printf "%.1f", n ? 100 * k / n : 0 }')
echo "mutants: $n, killed $killed, survived $survived, stillborn $stillborn, kill rate $rate %" \
	"(equivalent, not counted: $equivalent; $((SECONDS - t0)) s)"
((survived == 0)) || echo "survivors: ${survivors[*]}"
awk -v k=$killed -v n=$n -v g=$GOAL 'BEGIN { exit !(n && 100 * k >= g * n) }'
