#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test.sh - install what is needed, build, and run every test tier:
#   the -Werror build; unit + CLI under ASan/UBSan; the unit tests and
#   every command on every fixture under valgrind, the fuzz targets for a
#   short run, the same tree built, tested and packaged in a Debian 13 root
#   (tools/trixie-test.sh), and the VM tier (the real kernel's CXL drivers
#   under QEMU).
# Exit 0 only when every tier passed. The VM tier is skipped (loudly) where no
# VM can start, unless CXLTIER_REQUIRE_VM=1 (CI sets it), which makes that a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
./tools/install-deps.sh || exit 1

passed=0 failed=0 skipped=0 status=0
# each tier's wall time, printed at the end
# and the share of the machine's CPU time its hypervisor kept for others
# meanwhile (steal, /proc/stat): a tier several times its usual length on a
# host whose cores were not ours is told apart from one that grew
TIER_NAMES=() TIER_SECS=() TIER_STEAL=() tier_t0= tier_cpu0=
cpu_jiffies() { awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; print t, $9; exit }' /proc/stat 2>/dev/null; }
# tier_time START CPU: a tier's seconds and steal since START (date +%s)
# and CPU (cpu_jiffies), added to the table (its name is added apart)
tier_time() {
    local t0 s0 t1 s1
    TIER_SECS+=($(( $(date +%s) - $1 )))
    read -r t0 s0 <<< "$2"; read -r t1 s1 <<< "$(cpu_jiffies)"
    if [[ -n ${t0:-} && -n ${t1:-} ]] && (( t1 > t0 )); then
        TIER_STEAL+=($(( (s1 - s0) * 100 / (t1 - t0) )))
    else
        TIER_STEAL+=("?")
    fi
}
# the running tier ends (a new one, or the VM tier's wait, starts)
tier_done() {
    [[ -n $tier_t0 ]] || return 0
    tier_time "$tier_t0" "$tier_cpu0"
    tier_t0=
}
tier() { tier_done; TIER_NAMES+=("$1"); tier_t0=$(date +%s); tier_cpu0=$(cpu_jiffies); echo; echo "==== $*"; }
# the meson logs the skips are read from (test/skips.py, at the end)
SKIP_LOGS=()
# The host tiers' temporary files go into a directory of this run's
# (TMPDIR: bats, mktemp, the unit tests' trees; 0755, as the tests that drop
# privileges need), which must be empty again when they end: anything there
# was left behind by a test (the fuzz targets' trees are checked by
# test/fuzz/run.sh). Another run on the machine is not counted.
RUN_TMP=$(mktemp -d /tmp/cxltier-run.XXXXXX) && chmod 755 "$RUN_TMP" || exit 1
trap 'rm -rf "$RUN_TMP"' EXIT
export TMPDIR=$RUN_TMP
RUN_LOGS=$(mktemp -d /tmp/cxltier-logs.XXXXXX) || exit 1
trap 'rm -rf "$RUN_TMP" "$RUN_LOGS"' EXIT
# count_meson builddir [name]: add meson's ok / not ok / skip lines to the
# totals; this log's own in c_ok, c_fail, c_skip
count_meson() {
    local log=$1/meson-logs/testlog.txt
    c_ok=$(grep '^ok ' "$log" 2>/dev/null | grep -vc ' # skip')
    c_skip=$(grep -c '^ok .* # skip' "$log" 2>/dev/null)
    c_fail=$(grep -c '^not ok ' "$log" 2>/dev/null)
    c_ok=${c_ok:-0} c_skip=${c_skip:-0} c_fail=${c_fail:-0}
    passed=$((passed + c_ok)); failed=$((failed + c_fail)); skipped=$((skipped + c_skip))
    # (meson overwrites its log at the next run: keep a copy for the skip list)
    if [[ -n ${2:-} && -f $1/meson-logs/testlog.json ]]; then
        cp "$1/meson-logs/testlog.json" "$RUN_LOGS/$2.json" && SKIP_LOGS+=("$2=$RUN_LOGS/$2.json")
    fi
}
build() { # dir meson-args... (BUILD_TARGETS: only these ninja targets)
    local dir=$1; shift
    if [[ ! -d $dir ]]; then meson setup "$dir" "$@" >/dev/null || return 1
    else meson configure "$dir" "$@" >/dev/null || return 1; fi
    # shellcheck disable=SC2086
    ninja -C "$dir" ${BUILD_TARGETS:-} >/dev/null || ninja -C "$dir" ${BUILD_TARGETS:-}
}

tier "build (-Werror)"
build build -Dwerror=true || { status=1; failed=$((failed + 1)); echo "the build failed"; }

tier "what the VM tier needs, side by side: installation (meson install tree; the Debian package built, lintian, installed and purged); the ASan/UBSan, crash-points and Debian 13 builds"
# The VM tier, the longest by far, starts as soon as what it boots with is
# there: the package (its guests run cxltier as the package installs it),
# the crash-points and ASan/UBSan builds, the Debian 13 binary. The unit and
# CLI tests and every other host tier run beside it.
# the Debian 13 build (tools/trixie-test.sh build, in a trixie root): its
# binary goes into the VM tier's guests, its tests run later (the Debian 13 tier)
env -u TMPDIR ./tools/trixie-test.sh build build/trixie > build/trixie-build.log 2>&1 &
trixie_build_pid=$!
# (the build directories first: the package's test holds the source tree,
# ignored files included, to be as it found it)
asan_opts=(-Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false -Dcrash_points=true)
[[ -d build-asan ]] || meson setup build-asan "${asan_opts[@]}" > /dev/null
[[ -d build-crash ]] || meson setup build-crash -Dwerror=true -Dcrash_points=true > /dev/null
rm -rf build/deb
# DEB_BUILD_OPTIONS=nocheck: the package's build would run the unit and CLI
# suites (dh_auto_test), which the tier after the VM tier's start runs on
# this same source; the package's own binary, built with Debian's flags, is
# what the VM tier tests (CXLTIER_VM_DEB below)
( DEB_BUILD_OPTIONS=nocheck CXLTIER_DEB_OUT=$SRC/build/deb meson test -C build --suite install --print-errorlogs ) \
    > build/install-tier.log 2>&1 &
install_pid=$!
# (-Dcrash_points=true: the CLI's crash tests, test/cli/crash-points.bats,
# run under the sanitizers too)
asan_built=0
if build build-asan "${asan_opts[@]}"; then asan_built=1
else echo "the ASan/UBSan build failed"; status=1; failed=$((failed + 1)); fi
# the crash tests (# vm-build: crash-points) boot with a plain build that has
# the kill points: a walk runs cxltier a hundred times and more under TCG,
# and the ASan/UBSan tier runs the same recovery code on the host
# (test/cli/crash-points.bats, region.bats' planted records)
if { [[ -d build-crash ]] || meson setup build-crash -Dwerror=true -Dcrash_points=true > /dev/null; } &&
   ninja -C build-crash cxltier > /dev/null; then :; else
    echo "VM tier: the crash-points build (build-crash) failed"; status=1; failed=$((failed + 1))
fi

# The VM tier, the longest by far, runs beside the host tiers that follow
# (unit + CLI, ASan/UBSan tests, valgrind, fuzz, Debian 13): its guests leave about a fifth of
# the two cores idle (waiting on their timers and devices), which those
# fill. Its output is printed whole after them; the guests run cxltier as
# the package built above installs it (the ASan boots, the ASan build).
install_rc=0
wait $install_pid || install_rc=$?
echo "-- installation:"
cat build/install-tier.log
(( install_rc == 0 )) || status=1
count_meson build install
trixie_build_rc=0
wait $trixie_build_pid || trixie_build_rc=$?
echo "-- the Debian 13 build:"
cat build/trixie-build.log
deb=$(ls build/deb/cxltier_*.deb 2>/dev/null | head -1)
VM_NOTE=
if [[ -z $deb ]]; then
    VM_NOTE="VM tier: no package was built: the guests run build/cxltier"
    # CI tests the package as it installs: without it, the VM tier would
    # quietly test something else
    [[ ${CXLTIER_REQUIRE_VM:-0} == 1 ]] && { VM_NOTE+=$'\n'"VM tier: the package is required here"; status=1; failed=$((failed + 1)); }
fi
vm_t0=$(date +%s) vm_cpu0=$(cpu_jiffies)
# (not in this run's TMPDIR, which must be empty when the host tiers end)
# the Debian 13 build: its binary beside the Debian 12 one in every guest,
# and with its units and tools the Debian 13 guests' (# vm-userland: trixie;
# without it the Debian 13 tier fails, and those boots are not made)
trixie_bin= trixie_build=
[[ $trixie_build_rc == 0 && -x build/trixie/cxltier ]] && trixie_bin=$SRC/build/trixie/cxltier trixie_build=$SRC/build/trixie
env -u TMPDIR CXLTIER_VM_DEB=${deb:+$SRC/$deb} CXLTIER_VM_ASAN_BUILD=build-asan CXLTIER_VM_CRASH_BUILD=build-crash \
    CXLTIER_VM_TRIXIE_BIN=$trixie_bin CXLTIER_VM_TRIXIE_BUILD=$trixie_build \
    ./test/vm/vm-test.sh build > build/vm-tap.txt 2>&1 &
VM_PID=$!
echo "VM tier: started beside the host tiers (pid $VM_PID; its TAP in build/vm-tap.txt, printed when it ends)"
trap 'kill -- $VM_PID 2>/dev/null; wait $VM_PID 2>/dev/null; rm -rf "$RUN_TMP" "$RUN_LOGS"' EXIT

# The unit and CLI suites run once on this distribution: under ASan/UBSan
# (below), with every report failing the run. The -Werror build without
# sanitizers is the one the Debian 13 tier tests whole (with MALLOC_PERTURB_,
# as meson sets it), the valgrind tier runs on every command and fixture,
# and the VM tier's guests run it as packaged: a second run of the same
# suites here would cost two minutes of CI and hold no test the others lack.
tier "ASan/UBSan: unit + CLI tests (beside the VM tier)"
# Every report goes to a file of its own (log_path), whatever the test that
# ran the program asserted: a test expecting a failure cannot pass on a
# sanitizer's abort unseen. (1733: the tests that drop privileges write there too.)
SAN_DIR=$(mktemp -d /tmp/cxltier-san.XXXXXX) && chmod 1733 "$SAN_DIR" || exit 1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:log_path=$SAN_DIR/asan
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$SAN_DIR/ubsan
if [[ $asan_built == 1 ]] &&
   meson test -C build-asan --no-rebuild --suite unit --suite cli --print-errorlogs; then :; else status=1; fi
count_meson build-asan asan
unset ASAN_OPTIONS UBSAN_OPTIONS
if [[ -n $(ls -A "$SAN_DIR") ]]; then
    echo "ASan/UBSan: $(ls "$SAN_DIR" | wc -l) sanitizer report(s) written during the tests:"
    for f in "$SAN_DIR"/*; do echo "--- $f"; head -40 "$f"; done
    status=1; failed=$((failed + 1))
else
    echo "ASan/UBSan: no sanitizer report"
fi
rm -rf "$SAN_DIR"

# valgrind: the unit tests, and cxltier itself on every command and captured
# fixture (the golden cases). (meson's --wrapper on the CLI suites would put
# only the shell that runs bats under valgrind, not the cxltier it starts.)
tier "valgrind: the unit tests; cxltier on every command and fixture (the golden cases; beside the VM tier)"
valgrind=(valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite)
printf '#!/bin/sh\n# cxltier under valgrind: an error or a definite leak exits 99\nexec %s %q "$@"\n' \
    "${valgrind[*]}" "$SRC/build/cxltier" > build/valgrind-cxltier && chmod 755 build/valgrind-cxltier
vg_ok=1
meson test -C build --no-rebuild --suite unit --print-errorlogs --wrapper "${valgrind[*]}" \
    --timeout-multiplier 4 > build/valgrind-unit.log 2>&1 || vg_ok=0
CXLTIER=$SRC/build/valgrind-cxltier CXLTIER_SRC=$SRC CXLTIER_BUILD=$SRC/build \
    bats --tap test/cli/golden.bats > build/valgrind-golden.log 2>&1 || vg_ok=0
if [[ $vg_ok == 1 ]]; then
    echo "valgrind: clean"
else
    echo "valgrind: errors (build/meson-logs/testlog-valgrind.txt, build/valgrind-golden.log)"; status=1
    grep -B2 -A20 '==[0-9]*==' build/meson-logs/testlog-valgrind.txt build/valgrind-golden.log | head -60
    tail -n 30 build/valgrind-golden.log
fi

tier "fuzz targets (short run; test/fuzz/run.sh for long ones; beside the VM tier)"
if ! command -v clang >/dev/null; then
    # (install-deps.sh installs it: a tier that cannot run is a failure, not a pass)
    echo "fuzz: no clang: the fuzz tier cannot run"; status=1; failed=$((failed + 1))
elif CC=clang BUILD_TARGETS=build.ninja build build-fuzz -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false &&
     # the fuzz targets alone (not cxltier and the tests, built three times above)
     fuzzers=$(ninja -C build-fuzz -t targets all | sed -n 's|^\(test/fuzz/fuzz-[a-z0-9-]*\): c_LINKER$|\1|p') &&
     [[ -n $fuzzers ]] && { ninja -C build-fuzz $fuzzers > /dev/null || ninja -C build-fuzz $fuzzers; } &&
     ./test/fuzz/run.sh build-fuzz "${CXLTIER_FUZZ_SECONDS:-20}"; then :; else status=1; fi

# Debian 13: the same tree built and tested with trixie's toolchain and
# libraries, and packaged for it, in a trixie root (cached outside the tree:
# tools/trixie-root.sh); counted apart on the closing line
tier "Debian 13 (trixie root): build (-Werror, gcc 14), unit + CLI tests, the package and lintian (beside the VM tier)"
trixie_rc=$trixie_build_rc
[[ $trixie_rc != 0 ]] || env -u TMPDIR ./tools/trixie-test.sh test build/trixie || trixie_rc=$?
count_meson build/trixie trixie
t_ok=$c_ok t_fail=$c_fail t_skip=$c_skip
if [[ $trixie_rc == 77 ]]; then
    echo "Debian 13: no trixie root could be made (the archive unreachable): the tier is required"; status=1; failed=$((failed + 1))
elif [[ $trixie_rc != 0 ]]; then
    status=1; (( ${t_fail:-0} )) || failed=$((failed + 1))   # (the build or the package failed, outside any test)
fi

left=$(cd "$RUN_TMP" && ls -A)
if [[ -n $left ]]; then
    echo "the host tiers' tests left behind in $RUN_TMP: ${left//$'\n'/ }"; status=1; failed=$((failed + 1))
fi
unset TMPDIR

tier_done
echo
echo "==== VM tier: the kernels' CXL drivers under QEMU (and the ASan/UBSan build on some files)"
[[ -z $VM_NOTE ]] || echo "$VM_NOTE"
wait $VM_PID
vrc=$?
trap 'rm -rf "$RUN_TMP" "$RUN_LOGS"' EXIT
cat build/vm-tap.txt
TIER_NAMES+=("VM tier (from its start, beside the host tiers above)")
tier_time "$vm_t0" "$vm_cpu0"
vok=$(grep '^ok ' build/vm-tap.txt | grep -vc ' # skip'); vfail=$(grep -c '^not ok ' build/vm-tap.txt)
vskip=$(grep -c '^ok .* # skip' build/vm-tap.txt)
# of them, the Debian 13 guests' ("[7.x trixie]"), counted apart
gok=$(grep '^ok [0-9]* \[[^]]* trixie\]' build/vm-tap.txt | grep -vc ' # skip')
gfail=$(grep -c '^not ok .*\[[^]]* trixie\]' build/vm-tap.txt)
# files booted twice after a fault of the emulation (QEMU aborted, a guest
# kernel lost its timer): no failure, but on the closing line
vtwice=$(grep -c '^# \[.*\] .*\.bats: .*; booting it again' build/vm-tap.txt)
passed=$((passed + vok)); failed=$((failed + vfail)); skipped=$((skipped + vskip))
[[ $vrc == 77 ]] || SKIP_LOGS+=("vm=$SRC/build/vm-tap.txt")
if [[ $vrc == 77 ]]; then
    echo "################ VM TIER SKIPPED: no VM could start on this machine ################"
    [[ ${CXLTIER_REQUIRE_VM:-0} == 1 ]] && status=1
elif [[ $vrc != 0 ]]; then
    status=1
fi


echo
echo "==== skips: each named, held to test/expected-skips"
if ! python3 test/skips.py "${SKIP_LOGS[@]}"; then status=1; fi

echo
echo "==== wall time per tier (steal: the share of this machine's CPU time its hypervisor gave to others meanwhile)"
for i in "${!TIER_NAMES[@]}"; do
    printf '%6d s  steal %3s %%  %s\n' "${TIER_SECS[$i]:-0}" "${TIER_STEAL[$i]:-?}" "${TIER_NAMES[$i]}"
done
echo
[[ $status != 0 && $failed == 0 ]] && failed=1   # a tier failed outside any single test
echo "$passed passed, $failed failed, $skipped skipped (of which Debian 13: ${t_ok:-0} passed, ${t_fail:-0} failed, ${t_skip:-0} skipped; VM tier: ${vok:-0} passed, ${vfail:-0} failed, ${vskip:-0} skipped, of which in Debian 13 guests: ${gok:-0} passed, ${gfail:-0} failed)$( (( ${vtwice:-0} )) && echo "; $vtwice VM boots repeated after a fault of the emulation (named in the VM tier)")"
exit $status
