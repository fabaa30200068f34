# SPDX-License-Identifier: GPL-2.0
# run-bats.sh - inside the VM guest: run .bats files from /tests, appending
# TAP to $CXLTIER_VM_TAP (on the host's share, so the host sees each line as
# it is written and nothing already run is lost when a boot is stopped).
#
# usage: bash run-bats.sh FILE.bats...
# Environment (set by the host's vm-test.sh):
#   CXLTIER_VM_KERNEL        the kernel's label ("6.12", "7.x"), in every test name
#   CXLTIER_VM_TEST_TIMEOUT  per-test limit in seconds (bats' BATS_TEST_TIMEOUT);
#                            a file's "# vm-test-timeout: S" header overrides it
#   CXLTIER_VM_STATE         directory on the share: current (the test running),
#                            waiting (what wait_for waits for)
#   CXLTIER_VM_SANITIZE=1    the cxltier under test is an ASan/UBSan build: its
#                            reports fail the test that produced them
#   CXLTIER_VM_FILTER        only the tests whose names match (bats --filter)
# Each file also runs under a file limit (its tests' limits plus 300 s for
# setup_file/teardown_file) so a hung setup_file is reported by name too.
# Exit 0 when every file passed.
export CXLTIER_NO_MAN=1 TERM=dumb
TAP=${CXLTIER_VM_TAP:-/share/tap.txt}
KERNEL=${CXLTIER_VM_KERNEL:-$(uname -r)}
STATE=${CXLTIER_VM_STATE:-/share/state}
mkdir -p "$STATE"
export CXLTIER_VM_KERNEL=$KERNEL CXLTIER_VM_STATE=$STATE
# the -j outputs the tests read, for the host to check against docs/schema
# (helper.bash keeps them; vm-test.sh validates them after the boot)
export CXLTIER_VM_JSON_DIR=${CXLTIER_VM_JSON_DIR:-/share/json}
mkdir -p "$CXLTIER_VM_JSON_DIR"
FORMAT=/usr/share/cxltier-vm/bats-format-vm

if [[ ${CXLTIER_VM_SANITIZE:-0} == 1 ]]; then
    # reports go to files (not the tests' stderr, which tests examine), in a
    # directory every test user can write; the formatter collects them
    export CXLTIER_VM_SAN_DIR=/run/cxltier-san
    mkdir -p "$CXLTIER_VM_SAN_DIR"; chmod 1777 "$CXLTIER_VM_SAN_DIR"
    export ASAN_OPTIONS=detect_leaks=1:log_path=$CXLTIER_VM_SAN_DIR/asan
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$CXLTIER_VM_SAN_DIR/ubsan
fi

header() { sed -n "s/^# $1: *//p" "$2" | head -1; }

cd / || exit 1
rc=0
for f in "$@"; do
    path=/tests/$f name=${f%.bats}
    tt=$(header vm-test-timeout "$path"); tt=${tt%%--*}; tt=${tt// /}   # "900 -- why"
    tt=${tt:-${CXLTIER_VM_TEST_TIMEOUT:-300}}
    filter=(); [[ -n ${CXLTIER_VM_FILTER:-} ]] && filter=(--filter "$CXLTIER_VM_FILTER")
    n=$(bats --count "${filter[@]}" "$path" 2>/dev/null) || n=0
    limit=$(( n * tt + ${CXLTIER_VM_FILE_MARGIN:-300} ))
    printf '# kernel %s (%s), file %s: %d tests%s, %d s each at most\n' \
        "$KERNEL" "$(uname -r)" "$f" "$n" "${CXLTIER_VM_FILTER:+ (those matching: $CXLTIER_VM_FILTER)}" "$tt" >> "$TAP"
    rm -f "$STATE/waiting"
    printf '%s: starting (setup_file)\n' "$f" > "$STATE/current"
    t0=$(date +%s)
    CXLTIER_VM_FILE=$name BATS_TEST_TIMEOUT=$tt \
        timeout -k 10 "$limit" bats -T -F "$FORMAT" "${filter[@]}" "$path" >> "$TAP" 2>&1
    frc=$?
    secs=$(( $(date +%s) - t0 ))
    case $frc in
    0) ;;
    124|137)
        printf 'not ok - [%s] %s: the file ran out of its %d s; it was at: %s\n' \
            "$KERNEL" "$name" "$limit" "$(cat "$STATE/current" 2>/dev/null)" >> "$TAP"
        rc=1 ;;
    *) rc=1 ;;
    esac
    printf '# kernel %s, file %s: %d s, bats status %d\n' "$KERNEL" "$f" "$secs" "$frc" >> "$TAP"
    printf '%s: done\n' "$f" > "$STATE/current"
done
dmesg > /share/dmesg.txt
exit $rc
