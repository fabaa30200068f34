# SPDX-License-Identifier: GPL-2.0-only
# Shared setup of the CLI tests: the binary under test and fixture trees.
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load
bats_require_minimum_version 1.5.0   # run --separate-stderr

CXLTIER=${CXLTIER:-$BATS_TEST_DIRNAME/../../build/cxltier}
CXLTIER_SRC=${CXLTIER_SRC:-$BATS_TEST_DIRNAME/../..}
FIXTURES=$CXLTIER_SRC/test/fixtures
export CXLTIER_NO_MAN=1
# tables compared byte for byte: ASCII tree lines whatever the caller's locale
# (terminal.bats sets a UTF-8 one where it means to)
export LC_ALL=C
. "$CXLTIER_SRC/test/tools/cxltier-args.bash"
. "$CXLTIER_SRC/test/tools/udev-check.bash"     # rules_parsed_clean

. "$CXLTIER_SRC/test/tools/fixture-unpack.bash"

# fixture NAME: unpack fixture NAME (captured, or edited: fixture-unpack.bash)
# once per file; prints its root
fixture() {
    local dir=$BATS_FILE_TMPDIR/fixture-$1
    if [[ ! -d $dir ]]; then
        fixture_unpack "$1" "$dir.new" || return 1
        mv "$dir.new" "$dir"
    fi
    echo "$dir"
}

# cmd_table: the names of the command table in cxltier/main.c, one a line,
# in its order; fails if it reads no table (one without list, help, version)
cmd_table() {
    local t c
    t=$(sed -n '/^static const struct cli_command \*const commands\[\] = {/,/^};/s/^\t&command_\([a-z-]*\),.*/\1/p' \
        "$CXLTIER_SRC/cxltier/main.c")
    for c in list help version; do
        if ! grep -qx "$c" <<<"$t"; then
            echo "cmd_table: no command table (with list, help, version) in cxltier/main.c: '$t'" >&2
            return 1
        fi
    done
    echo "$t"
}

# all_cmds: CMDS= what `cxltier --list-cmds` prints, which must be the whole
# command table (a loop over it never passes by looping over nothing)
all_cmds() {
    local table
    table=$(cmd_table) || fail "the command table of cxltier/main.c could not be read"
    CMDS=$("$CXLTIER" --list-cmds) || fail "cxltier --list-cmds: exit $?"
    assert_equal "$CMDS" "$table"
}

# start_sleeper: SLEEPER= the pid of a `sleep` in the background, returned
# once it is sleep: between fork and exec it is still a bash (a busy machine
# showed a test "bash" for its comm). Waits up to 60 s for the exec, then
# fails saying so. Its fd 3 is closed, so that bats never waits for it.
start_sleeper() {
    local comm='' deadline=$((SECONDS + 60))
    sleep 60 3>&- &
    SLEEPER=$!
    while read -r comm < "/proc/$SLEEPER/comm" && [[ $comm != sleep ]]; do
        if (( SECONDS >= deadline )); then
            echo "start_sleeper: pid $SLEEPER was still '$comm' after 60 s, never sleep" >&2
            return 1
        fi
        sleep 0.01
    done
}

# The contract: whatever a test runs through cxltier (directly, in $(...) or
# with `run`), its -j output is checked against docs/schema (tools/validate-json;
# JSON lines for events --follow) and the Prometheus text of `metrics` with
# promtool. A mismatch fails the test, whatever the test expects of the run:
# the message goes to stderr and to a file that the next `run` or cxltier of
# the test finds (a `run` that expects a failure cannot swallow it).
VALIDATE_JSON=$CXLTIER_SRC/tools/validate-json
contract_failures() { echo "${BATS_TEST_TMPDIR:-$BATS_FILE_TMPDIR}/contract-failures"; }
contract_check() {
    local f
    f=$(contract_failures)
    [[ -s $f ]] || return 0
    cat "$f" >&2
    return 1
}
cxltier() {
    local CXLTIER_ARGS_CMD CXLTIER_ARGS_JSON CXLTIER_ARGS_HELP CXLTIER_ARGS_FOLLOW json skip cmd out rc=0 msg what
    cxltier_args "$@"
    json=$CXLTIER_ARGS_JSON skip=$CXLTIER_ARGS_HELP cmd=$CXLTIER_ARGS_CMD
    contract_check || return 1
    if [[ -n $skip || ( -z $json && $cmd != metrics ) ]]; then
        "$CXLTIER" "$@"
        return
    fi
    out=$(mktemp "${BATS_TEST_TMPDIR:-$BATS_FILE_TMPDIR}/cxltier-stdout.XXXXXX")
    "$CXLTIER" "$@" > "$out" || rc=$?
    cat "$out"
    if [[ -s $out ]]; then
        if [[ -n $json ]]; then
            what="JSON schema (docs/schema/$cmd.json)"
            msg=$("$VALIDATE_JSON" -i "$out" -- "$@" 2>&1)
        else
            what="promtool check metrics"
            msg=$(promtool check metrics < "$out" 2>&1)
        fi
        # shellcheck disable=SC2181
        if [[ $? != 0 ]]; then
            printf 'cxltier %s: the output breaks its contract (%s):\n%s\n' "$*" "$what" "$msg" | tee -a "$(contract_failures)" >&2
            rm -f "$out"
            # inside `run` the status stays what it was (the check after
            # `run` fails the test); elsewhere the call fails
            [[ " ${FUNCNAME[*]} " == *" bats_plain_run "* ]] || return 1
        fi
    fi
    rm -f "$out"
    return $rc
}
# `run` as bats has it, then the contract check
eval "$(declare -f run | sed '1s/^run /bats_plain_run /')"
run() {
    local rc=0
    bats_plain_run "$@" || rc=$?
    contract_check || return 1
    return $rc
}

# fake_region_tree [--bound]: a copy of the idle two-device tree with the
# files the kernel would create for region0 (test/cli/region.bats,
# crash-points.bats); --bound: its driver link there too, as once its steps
# are written
fake_region_tree() {
    local t=$BATS_TEST_TMPDIR/t dec=sys/devices/platform/ACPI0017:00/root0/decoder0.0
    rm -rf "$t"
    cp -a "$(fixture lab-two-devices-idle)" "$t"
    mkdir -p "$t/$dec/region0" "$t/sys/bus/cxl/drivers/cxl_region"
    # as the kernel shows a region it has just created
    for f in interleave_granularity interleave_ways commit; do echo 0 > "$t/$dec/region0/$f"; done
    echo 0x0 > "$t/$dec/region0/size"
    echo 0xffffffffffffffff > "$t/$dec/region0/resource"
    echo ram > "$t/$dec/region0/mode"
    : > "$t/$dec/region0/target0"; : > "$t/$dec/region0/target1"
    ln -s "../../../devices/platform/ACPI0017:00/root0/decoder0.0/region0" "$t/sys/bus/cxl/devices/region0"
    : > "$t/$dec/delete_region"
    : > "$t/sys/bus/cxl/drivers/cxl_region/bind"
    [[ ${1:-} != --bound ]] || ln -s ../../../../../../bus/cxl/drivers/cxl_region "$t/$dec/region0/driver"
    echo "$t"
}
