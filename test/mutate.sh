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
#   test/mutate.sh --generate [--seed N] [--count N] [--changed-since REF]
#                  [--all-tests] [--vm [KERNEL]] [BUILDDIR] [FILE...]
#                                        operator mutants drawn over FILE...
#                                        (default every .c of lib/)
#
# The generated mode (test/mutate-gen.py): mutants nobody chose. Every
# operator site of the files (comments, literals, preprocessor lines and
# code compiled out skipped: a relational operator flipped or moved across
# its boundary, && and || swapped, a binary +1/-1 turned round, a return of
# 0/-1/true/false reversed, a ! removed) is a candidate; COUNT (default 20)
# are drawn with SEED (default: a new one, printed, so that a run can be
# repeated); with --changed-since REF only the lines changed since REF (the
# check before a change is submitted: a sample that fits a few minutes).
# test/mutants-equivalent records the equivalent ones ("ID :: WHY"), which
# are not run and not counted: the tally is killed / (all - stillborn -
# equivalent). With --vm, the survivors in files that meet the kernel are
# run again against the VM files that cover them (test/vm, on KERNEL,
# default 6.12), and the report says which were killed only there. Each
# mutant's file is restored after it, and touched, and ninja is checked to
# rebuild it: an object of an earlier mutant is never reused.
#
# A generated mutant runs only the tests that execute its line (per-test
# coverage selection, as mutation tools do it), unless --all-tests: once per
# run, the copy is built a second time (build-cov: the same options, plus
# gcov's counters at -O0, where gcov ties each instruction to its own line,
# and _exit wrapped to write the counters first, as the forked children of
# the unit tests end by it), and each test of the unit and CLI suites is run
# there alone, its .gcda cleared before; gcov (test/mutate-cov.py) records
# the lines of the tree it executed, and how long it took. The map
# (coverage.map in the private directory: FILE:LINE and the tests that
# execute it) then says, per mutant:
# - its line executed by tests: those run, fastest first, to the first
#   failure. Sound, because a test that never executes the mutated line
#   runs the same code with the mutant as without it, and passed without
#   it: it cannot kill it (except by a race the test loses only sometimes,
#   which the whole suites would not catch reliably either);
# - its line executable but executed by no test: SURVIVED at once, "no test
#   reaches FILE:LINE" (a finding in itself: that code is never run);
# - its line not executable for gcov (a continuation of a multi-line
#   expression, a declaration with an initializer, a table, a file no
#   object compiles): what the mutant changes cannot be tied to the tests
#   that run it, so the whole suites run, as with --all-tests.
# A test that does not pass in the coverage build is run for every mutant
# (what it executed there may be less than what it executes). What gcov
# cannot see is a process killed by a signal (its counters are never
# written): the lines only such a process runs look unreached; the unit
# tests that kill a child on purpose (test-lock-queue, test-migrate-run)
# kill one whose lines the children that end normally run too. The
# tests that read the source rather than run it (test/check-layering.sh)
# see no operator mutant: it changes no include, name or length.
#
# BUILDDIR (default build) is the caller's configured build: its source tree
# is the one mutated, copied whole (tracked and untracked files, not ignored
# ones) into a directory under a private mktemp -d, where it is configured
# and built once; the caller's files are never written. Per mutant: the
# mutation applied, ninja (a mutant that does not compile is "stillborn",
# not counted), `meson test --suite unit --suite cli --maxfail 1` (the
# selected tests, or all) under a timeout (MUTATE_TIMEOUT seconds, default
# 900), the file restored. Prints "killed by TEST" or "SURVIVED" per mutant
# (and which tests ran), then the tally; exit 0 when
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
[[ ${1:-} == --generate ]] && GOAL=90	# mutants nobody chose: 90 % by the host tiers (97 with --vm)
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
	sed -n '3,100p' "$0" | sed -n '/^set -euo/q;p' | sed 's/^# \{0,1\}//'
	exit 0
fi

GEN= SEED= COUNT=20 SINCE= VM= SELECT=
if [[ ${1:-} == --generate ]]; then
	GEN=1 SELECT=1
	shift
	while [[ $# -gt 0 ]]; do
		case $1 in
		--seed) SEED=${2:?--seed N}; shift 2 ;;
		--count) COUNT=${2:?--count N}; shift 2 ;;
		--changed-since) SINCE=${2:?--changed-since REF}; shift 2 ;;
		--all-tests) SELECT=; shift ;;
		--vm) VM=6.12; shift; [[ ${1:-} == 6.12 || ${1:-} == 7.x ]] && { VM=$1; shift; } ;;
		*) break ;;
		esac
	done
	[[ $SEED =~ ^[0-9]*$ && $COUNT =~ ^[0-9]+$ ]] || { echo "mutate.sh: --seed and --count take numbers" >&2; exit 2; }
	[[ -n $SEED ]] || SEED=$(( (RANDOM << 15) | RANDOM ))
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
EQUIV=$SRC/test/mutants-equivalent
GENPY=$SRC/test/mutate-gen.py
COVPY=$SRC/test/mutate-cov.py

if [[ -n $GEN ]]; then
	# the files, and with --changed-since the lines changed
	files=("$@")
	lines=()
	if [[ -n $SINCE ]]; then
		mapfile -t files < <(cd "$SRC" && git diff --name-only --diff-filter=AM "$SINCE" -- 'lib/*.c' 'cxltier/*.c')
		spec=$(cd "$SRC" && git diff -U0 "$SINCE" -- "${files[@]}" | awk '
			/^\+\+\+ b\// { f = substr($2, 3) }
			/^@@/ { split($3, a, ","); s = substr(a[1], 2); n = a[2] == "" ? 1 : a[2];
			        if (n > 0) printf "%s%s:%d-%d", sep, f, s, s + n - 1; sep = "," }')
		lines=(--lines "$spec")
	elif [[ ${#files[@]} == 0 ]]; then
		mapfile -t files < <(cd "$SRC" && ls lib/*/*.c)
	fi
	[[ ${#files[@]} -gt 0 ]] || { echo "mutate.sh: no C file to mutate${SINCE:+ changed since $SINCE}"; exit 0; }
	python3 "$GENPY" check "$SRC" "$EQUIV" || { echo "mutate.sh: $EQUIV: review the lines above" >&2; exit 2; }
	echo "mutate.sh: seed $SEED, $COUNT mutants over ${#files[@]} files${SINCE:+ (the lines changed since $SINCE)}"
	# ID<TAB>FILE<TAB>equivalent-or-"-"<TAB>WHAT
	LIST=$(python3 "$GENPY" pick "$SRC" "$SEED" "$COUNT" "${lines[@]}" "${files[@]}" |
		while IFS=$'\t' read -r id file no op from to text; do
			why=$(awk -F' :: ' -v id="$id" '$1 == id { print $2; exit }' "$EQUIV")
			printf '%s\t%s\t%s\t%s\n' "$id" "$file" "${why:+equivalent: $why}" "line $no $op: '$from' -> '$to' in: $text"
		done | sed 's/\t\t/\t-\t/') || exit 2
	[[ -n $LIST ]] || { echo "mutate.sh: no mutation site in those lines"; exit 0; }
else
	if ! py check "$MUTANTS" "$SRC" >/dev/null; then
		echo "mutate.sh: $MUTANTS is not well-formed (above): fix it first" >&2
		exit 2
	fi
	LIST=$(py list "$MUTANTS" "$SRC" "$@") || exit 2
fi

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
SETUP=(-Dwerror=false)	# the copy's options; the coverage build's are these too
if ! (cd "$TREE" && nice -n 10 meson setup build "${SETUP[@]}" >"$WORK/setup.log" 2>&1 &&
      nice -n 10 ninja -C build >"$WORK/build.log" 2>&1); then
	echo "mutate.sh: the unmutated copy does not build:" >&2
	tail -n 30 "$WORK/setup.log" "$WORK/build.log" >&2 2>/dev/null || true
	exit 2
fi

# the file as it was, touched, and ninja seen to rebuild it: the object of
# the mutant must never stand for the original in a later run
restore() {
	local obj plan
	cp "$WORK/orig" "$TREE/$1"
	touch "$TREE/$1"
	obj=$(sed 's|^lib/||; s|/|_|g' <<< "$1").o
	plan=$(ninja -C "$TREE/build" -n 2>/dev/null || true)
	if [[ $plan != *"$obj"* ]]; then
		echo "mutate.sh: $1 restored, but ninja would not rebuild $obj: stopping (an object of a mutant would stay)" >&2
		exit 2
	fi
}

run_tests() { # log [TEST...]: 0 when every test (the TESTs, in their order, or all) passes
	(cd "$TREE" && CXLTIER_MUTANT=${MID:-} nice -n 10 timeout -k 30 "$TIMEOUT" \
		meson test -C build --suite unit --suite cli --no-rebuild --maxfail 1 "${@:2}" >"$1" 2>&1 </dev/null)
}

# the coverage map: each test of the unit and CLI suites run alone in a
# build with gcov's counters, the lines it executed recorded (the header)
coverage_map() {
	local cov=$TREE/build-cov t0=$SECONDS t i=0 rc s e failed=0
	mkdir "$WORK/cov"
	cat > "$WORK/cov/flush.c" <<'FLUSH'
/* a process ending by _exit (a forked child) writes its counters first */
extern void __gcov_dump(void);
extern void __real__exit(int status) __attribute__((noreturn));
void __wrap__exit(int status) __attribute__((noreturn));
void __wrap__exit(int status)
{
	__gcov_dump();
	__real__exit(status);
}
FLUSH
	echo "mutate.sh: the coverage map: the copy built with gcov's counters, each test run alone"
	if ! (cd "$TREE" && gcc -c "$WORK/cov/flush.c" -o "$WORK/cov/flush.o" &&
	      nice -n 10 meson setup build-cov "${SETUP[@]}" -Db_coverage=true -Doptimization=0 \
		-Dc_link_args="--coverage -Wl,--wrap=_exit $WORK/cov/flush.o" >"$WORK/cov/setup.log" 2>&1 &&
	      nice -n 10 ninja -C build-cov >"$WORK/cov/build.log" 2>&1); then
		echo "mutate.sh: the coverage build failed:" >&2
		tail -n 30 "$WORK/cov/setup.log" "$WORK/cov/build.log" >&2 2>/dev/null || true
		exit 2
	fi
	python3 "$COVPY" lines "$cov" "$TREE" --all > "$WORK/cov/executable"
	: > "$WORK/cov/tests"
	# SUITE/NAME: a name can be in both suites (units, cdat, ...)
	while read -r t; do
		i=$((i + 1))
		find "$cov" -name '*.gcda' -delete
		s=$EPOCHREALTIME
		rc=0
		(cd "$TREE" && CXLTIER_MUTANT= nice -n 10 timeout -k 30 "$TIMEOUT" \
			meson test -C build-cov --no-rebuild --suite "${t%%/*}" "${t#*/}" >"$WORK/cov/test-$i.log" 2>&1 </dev/null) || rc=$?
		e=$EPOCHREALTIME
		python3 "$COVPY" lines "$cov" "$TREE" > "$WORK/cov/lines-$i"
		if ((rc)); then
			failed=$((failed + 1))
			echo "mutate.sh: $t fails in the coverage build (exit $rc): it runs for every mutant" >&2
		fi
		printf '%s\t%s\t%s\t%s\n' "$t" "$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f", e - s }')" \
			"$WORK/cov/lines-$i" "$( ((rc)) && echo failed || echo ok)" >> "$WORK/cov/tests"
	done < <(cd "$TREE" && meson test -C build-cov --no-rebuild --suite unit --suite cli --list 2>/dev/null |
		sed -n -E 's|^([^:]*:)?([a-z]+) / (.*)$|\2/\3|p')
	((i > 0)) || { echo "mutate.sh: no test in the unit and CLI suites of the coverage build" >&2; exit 2; }
	python3 "$COVPY" map "$MAP" "$WORK/cov/executable" "$WORK/cov/tests"
	echo "mutate.sh: coverage map of $i tests ($failed failing there), $(grep -c '^[^ ]*:[0-9]* ' "$MAP" || true)" \
		"of $(grep -vc '^test ' "$MAP") executable lines reached, in $((SECONDS - t0)) s"
}
MAP=$WORK/coverage.map
[[ -z $SELECT ]] || coverage_map

# the tests a mutant runs: SEL (what mutate-cov.py select said) and TESTS
# (the meson test names, fastest first; none: all)
select_tests() { # file line
	local t
	SEL=fallback TESTS=()
	[[ -n $SELECT ]] || return 0
	SEL=$(python3 "$COVPY" select "$MAP" "$1" "$2")
	if [[ $SEL == tests\ * ]]; then
		# a name in both suites runs twice, in each; once a name
		for t in ${SEL#tests }; do
			[[ " ${TESTS[*]} " == *" ${t#*/} "* ]] || TESTS+=("${t#*/}")
		done
	fi
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

n=0 killed=0 survived=0 stillborn=0 equivalent=0 SEL=fallback TESTS=()
survivors=() survivor_files=()
while IFS=$'\t' read -r MID file equiv what; do
	if [[ $equiv != - ]]; then
		equivalent=$((equivalent + 1))
		printf '%-10s %-36s equivalent (not run): %s\n' "$MID" "$file" "${equiv#equivalent: }"
		continue
	fi
	t=$SECONDS
	cp "$TREE/$file" "$WORK/orig"
	CUR_FILE=$file
	if [[ -n $GEN ]]; then
		python3 "$GENPY" apply "$TREE" "$MID" 2>"$WORK/apply.log"
	else
		py apply "$MUTANTS" "$TREE" "$MID" 2>"$WORK/apply.log"
	fi
	if (($?)); then
		echo "mutate.sh: $MID: $(cat "$WORK/apply.log")" >&2
		exit 2
	fi
	ran=
	[[ -n $GEN ]] && select_tests "$file" "$(cut -d: -f2 <<< "$MID")"
	case $SEL in
	tests\ *) ran="  [${#TESTS[@]} tests reach it]" ;;
	fallback) [[ -n $SELECT ]] && ran="  [all tests: not an executable line for gcov]" ;;
	esac
	if ! nice -n 10 ninja -C "$TREE/build" >"$WORK/ninja.log" 2>&1 </dev/null; then
		verdict="stillborn ($(grep -m1 -E 'error:' "$WORK/ninja.log" | sed 's/^.*error: //' | cut -c1-60))"
		stillborn=$((stillborn + 1))
		ran=
	elif [[ $SEL == unreached ]]; then
		verdict="SURVIVED (no test reaches $file:$(cut -d: -f2 <<< "$MID"))"
		survived=$((survived + 1))
		survivors+=("$MID")
		survivor_files+=("$file")
		n=$((n + 1))
	elif run_tests "$WORK/test.log" "${TESTS[@]}"; then
		verdict=SURVIVED
		survived=$((survived + 1))
		survivors+=("$MID")
		survivor_files+=("$file")
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
	restore "$file"
	CUR_FILE=
	printf '%-10s %-36s %s  [%d s]%s  %s\n' "$MID" "$file" "$verdict" $((SECONDS - t)) "$ran" "$what"
done <<<"$LIST"

rate=$(awk -v k=$killed -v n=$n 'BEGIN { printf "%.1f", n ? 100 * k / n : 0 }')
echo "mutants: $n, killed $killed, survived $survived, stillborn $stillborn, kill rate $rate %" \
	"(equivalent, not counted: $equivalent; $((SECONDS - t0)) s)${GEN:+; seed $SEED}"
((survived == 0)) || echo "survivors: ${survivors[*]}"

# the VM files that cover a file meeting the kernel (none: the host tiers
# are all there is for it)
vm_files_of() {
	case $1 in
	lib/mm/memblock.c|lib/change/blocks-*|lib/change/auto-online-hold.c|lib/change/policy-*|lib/change/dax-*|\
	lib/change/interleave.c|lib/change/memdev-remove.c) echo "online.bats hotplug.bats" ;;
	lib/change/region*|lib/change/change-record.c|lib/cxl/fabric.c|lib/cxl/region-*) echo "region.bats" ;;
	lib/change/hotplug-watch.c) echo "hotplug-systemd.bats" ;;
	lib/events/page-retire*|lib/events/retire-log.c|lib/mm/page-offline.c) echo "events-retire.bats" ;;
	lib/events/event-source.c|lib/events/event-owner.c|lib/events/event-keep.c|lib/events/event-trace.c) echo "events.bats" ;;
	lib/events/event-store*) echo "events-store-faults.bats" ;;
	lib/events/poison*) echo "poison.bats" ;;
	lib/mm/migrate-spread.c) echo "migrate-spread.bats" ;;
	lib/mm/migrate*|lib/mm/damon*|lib/mm/pagemap.c) echo "migrate.bats" ;;
	lib/mm/usage.c|lib/mm/numamaps.c) echo "usage.bats" ;;
	lib/cxl/cdat*) echo "cdat.bats" ;;
	lib/cxl/health*|lib/cxl/mbox.c) echo "health.bats" ;;
	lib/cxl/topology*|lib/cxl/memdev-view.c|lib/cxl/region-members.c) echo "list.bats" ;;
	lib/mm/numa.c|lib/mm/tiers.c|lib/mm/access.c|lib/views/tier-*) echo "tiers.bats" ;;
	esac
}
vm_killed=0
if [[ -n $VM && $survived -gt 0 ]]; then
	echo "mutate.sh: the survivors that meet the kernel, against their VM files on $VM"
	for i in "${!survivors[@]}"; do
		MID=${survivors[i]} file=${survivor_files[i]}
		files=$(vm_files_of "$file")
		[[ -n $files ]] || { printf '%-10s %-36s no VM file covers it\n' "$MID" "$file"; continue; }
		cp "$TREE/$file" "$WORK/orig"
		CUR_FILE=$file
		python3 "$GENPY" apply "$TREE" "$MID" 2>/dev/null || py apply "$MUTANTS" "$TREE" "$MID"
		t=$SECONDS
		verdict="survived the VM files too ($files)"
		if nice -n 10 ninja -C "$TREE/build" >"$WORK/ninja.log" 2>&1 </dev/null; then
			# shellcheck disable=SC2086
			if ! (cd "$TREE" && CXLTIER_VM_KERNELS=$VM test/vm/vm-test.sh build $(printf 'test/vm/%s ' $files) \
			      >"$WORK/vm.log" 2>&1 </dev/null); then
				verdict="killed in the VM by $(sed -n 's/^not ok [0-9]* //p' "$WORK/vm.log" | head -n 1 | cut -c1-70)"
				vm_killed=$((vm_killed + 1))
			fi
		fi
		restore "$file"
		CUR_FILE=
		printf '%-10s %-36s %s  [%d s]\n' "$MID" "$file" "$verdict" $((SECONDS - t))
	done
	echo "with the VM stage: killed $((killed + vm_killed)) of $n," \
		"$(awk -v k=$((killed + vm_killed)) -v n=$n 'BEGIN { printf "%.1f", n ? 100 * k / n : 0 }') %" \
		"($vm_killed only in the VM)"
fi
[[ -n $VM ]] && GOAL=97
awk -v k=$((killed + vm_killed)) -v n=$n -v g=$GOAL 'BEGIN { exit !(n && 100 * k >= g * n) }'
