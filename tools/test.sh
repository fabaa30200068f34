#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test.sh - install what is needed, build, and run every test tier:
#   unit + CLI (-Werror build), the same under ASan/UBSan, the unit tests and
#   every command on every fixture under valgrind, the fuzz targets for a
#   short run, and the VM tier (the real
#   kernel's CXL drivers under QEMU).
# Exit 0 only when every tier passed. The VM tier is skipped (loudly) where no
# VM can start, unless CXLTIER_REQUIRE_VM=1 (CI sets it), which makes that a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
./tools/install-deps.sh || exit 1

passed=0 failed=0 status=0
tier() { echo; echo "==== $*"; }
# The host tiers' temporary files go into a directory of this run's
# (TMPDIR: bats, mktemp, the unit tests' trees; 0755, as the tests that drop
# privileges need), which must be empty again when they end: anything there
# was left behind by a test (the fuzz targets' trees are checked by
# test/fuzz/run.sh). Another run on the machine is not counted.
RUN_TMP=$(mktemp -d /tmp/cxltier-run.XXXXXX) && chmod 755 "$RUN_TMP" || exit 1
trap 'rm -rf "$RUN_TMP"' EXIT
export TMPDIR=$RUN_TMP
count_meson() { # builddir: add meson's Ok/Fail lines to the totals
    local log=$1/meson-logs/testlog.txt ok fail
    ok=$(grep -c '^ok ' "$1/meson-logs/testlog.txt" 2>/dev/null || true)
    fail=$(grep -c '^not ok ' "$1/meson-logs/testlog.txt" 2>/dev/null || true)
    passed=$((passed + ${ok:-0})); failed=$((failed + ${fail:-0}))
}
build() { # dir meson-args...
    local dir=$1; shift
    if [[ ! -d $dir ]]; then meson setup "$dir" "$@" >/dev/null || return 1
    else meson configure "$dir" "$@" >/dev/null || return 1; fi
    ninja -C "$dir" >/dev/null || ninja -C "$dir"
}

tier "build (-Werror) and unit + CLI tests"
if build build -Dwerror=true && meson test -C build --suite unit --suite cli --print-errorlogs; then :; else status=1; fi
count_meson build

tier "installation: meson install tree; the Debian package built, lintian, installed and purged"
rm -rf build/deb
if CXLTIER_DEB_OUT=$SRC/build/deb meson test -C build --suite install --print-errorlogs; then :; else status=1; fi
count_meson build

tier "ASan/UBSan build: unit + CLI tests"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
if build build-asan -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false &&
   meson test -C build-asan --suite unit --suite cli --print-errorlogs; then :; else status=1; fi
count_meson build-asan
unset ASAN_OPTIONS UBSAN_OPTIONS

# valgrind: the unit tests, and cxltier itself on every command and captured
# fixture (the golden cases). (meson's --wrapper on the CLI suites would put
# only the shell that runs bats under valgrind, not the cxltier it starts.)
tier "valgrind: the unit tests; cxltier on every command and fixture (the golden cases)"
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

if command -v clang >/dev/null && [[ -x test/fuzz/run.sh ]]; then
    tier "fuzz targets (short run; test/fuzz/run.sh for long ones)"
    if CC=clang build build-fuzz -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false &&
       ./test/fuzz/run.sh build-fuzz "${CXLTIER_FUZZ_SECONDS:-20}"; then :; else status=1; fi
fi

left=$(cd "$RUN_TMP" && ls -A)
if [[ -n $left ]]; then
    echo "the host tiers' tests left behind in $RUN_TMP: ${left//$'\n'/ }"; status=1; failed=$((failed + 1))
fi
unset TMPDIR

tier "VM tier: the kernels' CXL drivers under QEMU (and the ASan/UBSan build on some files)"
# the guests run cxltier as the package built above installs it (the ASan
# boots, the ASan build)
deb=$(ls build/deb/cxltier_*.deb 2>/dev/null | head -1)
[[ -n $deb ]] || echo "VM tier: no package was built: the guests run build/cxltier"
CXLTIER_VM_DEB=${deb:+$SRC/$deb} CXLTIER_VM_ASAN_BUILD=build-asan ./test/vm/vm-test.sh build | tee build/vm-tap.txt
vrc=${PIPESTATUS[0]}
vok=$(grep -c '^ok ' build/vm-tap.txt || true); vfail=$(grep -c '^not ok ' build/vm-tap.txt || true)
passed=$((passed + vok)); failed=$((failed + vfail))
if [[ $vrc == 77 ]]; then
    echo "################ VM TIER SKIPPED: no VM could start on this machine ################"
    [[ ${CXLTIER_REQUIRE_VM:-0} == 1 ]] && status=1
elif [[ $vrc != 0 ]]; then
    status=1
fi

echo
[[ $status != 0 && $failed == 0 ]] && failed=1   # a tier failed outside any single test
echo "$passed passed, $failed failed"
exit $status
