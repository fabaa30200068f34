# SPDX-License-Identifier: GPL-2.0
# Shared setup of the VM tests (run inside the guest).
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load
bats_require_minimum_version 1.5.0   # run --separate-stderr
. /usr/share/cxltier-vm/lib.sh
. /usr/share/cxltier-vm/bats-timeout.sh   # BATS_TEST_TIMEOUT without bats 1.8's race
. /usr/share/cxltier-vm/cxltier-args.bash  # (test/tools/cxltier-args.bash)
. /usr/share/cxltier-vm/udev-check.bash    # rules_parsed_clean (test/tools/udev-check.bash)
export CXLTIER_NO_MAN=1

# bats 1.8 times each test with two `date +%s%N` (an exec each, tens of
# milliseconds under TCG, at every test); bash's own clock gives the same
# milliseconds (bats calls it after the file, and so this, is loaded)
if [[ ${BATS_VERSION:-} == 1.8.* ]]; then
get_mills_since_epoch() { local us=${EPOCHREALTIME/./}; printf '%d\n' $(( us / 1000 )); }
fi

# The JSON contract in the guest: whatever a test reads through `cxltier ... -j`
# (in $(...), a pipe or `run`) is kept, with its command line, in
# $CXLTIER_VM_JSON_DIR on the share; after the boot the host checks each
# against docs/schema (tools/validate-json), and metrics' Prometheus text with
# `promtool check metrics`; a mismatch fails the file.
# Any other call in a subshell (a run in the background that a test signals
# by $!, with stdout a file or a named FIFO) execs the binary, so $! stays
# its pid. events --follow streams and is not kept.
CXLTIER_VM_TEST_SHELL=$BASHPID
cxltier() {
    local CXLTIER_ARGS_CMD CXLTIER_ARGS_JSON CXLTIER_ARGS_HELP CXLTIER_ARGS_FOLLOW json out rc=0 me
    cxltier_args "$@"
    json=$CXLTIER_ARGS_JSON
    [[ $CXLTIER_ARGS_CMD == metrics ]] && json=1    # its Prometheus text: promtool checks it
    [[ -z $CXLTIER_ARGS_HELP$CXLTIER_ARGS_FOLLOW ]] || json=
    # kept when read through an anonymous pipe ($(...), a pipeline, `run`)
    # or run in the test's own shell; a subshell writing to a file or a
    # named FIFO is a run in the background: exec'd
    me=$BASHPID
    # (readlink only when the output would be kept: an exec costs tens of
    # milliseconds under TCG, and this runs for every cxltier of every test)
    [[ -z $json || $me == "$CXLTIER_VM_TEST_SHELL" || $(readlink "/proc/$me/fd/1") == pipe:* ]] || json=
    if [[ -z $json || -z ${CXLTIER_VM_JSON_DIR:-} || ! -d ${CXLTIER_VM_JSON_DIR:-} ]]; then
        [[ $BASHPID == "$CXLTIER_VM_TEST_SHELL" ]] || exec cxltier "$@"
        command cxltier "$@"
        return
    fi
    # a name no other call takes: this process and the microsecond (no
    # mktemp to exec); noclobber makes a clash an error, not an overwrite
    out=$CXLTIER_VM_JSON_DIR/${CXLTIER_VM_FILE:-x}-${BATS_SUITE_TEST_NUMBER:-0}-$me-${EPOCHREALTIME/./}
    local -   # (noclobber for this function only)
    set -o noclobber
    : > "$out" || return 1
    printf '%s\0' "$@" >| "$out.argv"
    command cxltier "$@" >| "$out" || rc=$?
    cat "$out"
    return $rc
}

# vm_to_devdax DAX: DAX to devdax mode through daxctl, as a user would.
# daxctl binds it by adding its name to device_dax's match list (new_id),
# where the name stays: the next device of that name (a later region's)
# would come up devdax, not system-ram. The name is kept for
# vm_forget_dax_ids, which a file's teardown_file calls, so that the file
# leaves the machine as it found it (files share boots: # vm-boot-group).
vm_to_devdax() {
    daxctl reconfigure-device --mode=devdax "$1" >/dev/null 2>&1
    echo "$1" >> "$BATS_FILE_TMPDIR/devdax-ids"
}
vm_forget_dax_ids() {
    local d
    [[ -f $BATS_FILE_TMPDIR/devdax-ids ]] || return 0
    for d in $(sort -u "$BATS_FILE_TMPDIR/devdax-ids"); do
        echo "$d" > /sys/bus/dax/drivers/device_dax/remove_id 2>/dev/null || true
    done
    rm -f "$BATS_FILE_TMPDIR/devdax-ids"
}

# the region the tests share: created once per boot
ensure_region() {
    local r
    r=$(ls $CXL | grep -m1 '^region[0-9]') ||
        r=$(cxltier region create mem0 -j | jq -re '.regions[0].name') || return 1
    echo "$r"
}

# the preferred demotion targets the kernel last logged for a node, as "a,b"
kernel_demotion_targets() {
    local l list out= part
    l=$(dmesg | grep "Demotion targets for Node $1:" | tail -1)
    [[ $l == *preferred:* ]] || return 0
    list=${l#*preferred: }; list=${list%%, fallback*}
    for part in ${list//,/ }; do
        if [[ $part == *-* ]]; then
            for ((i = ${part%-*}; i <= ${part#*-}; i++)); do out+=${out:+,}$i; done
        else
            out+=${out:+,}$part
        fi
    done
    echo "$out"
}

# state and zone of every block of a dax device: "memory34=online:Movable ..."
blocks_state() {
    local b state zones
    for b in $(vm_blocks_of "$1"); do
        read -r state < $MEMSYS/$b/state; read -r zones < $MEMSYS/$b/valid_zones
        printf '%s=%s:%s ' "$b" "$state" "${zones// /,}"
    done
}

# every block of a dax device offline
offline_all() {
    local b state
    for b in $(vm_blocks_of "$1"); do
        read -r state < $MEMSYS/$b/state
        [[ $state == offline ]] || echo offline > $MEMSYS/$b/state
    done
}

# start_pinner NODE: pin-pages with its pages on NODE, pinned (coproc PIN,
# PIN_PID); waits for its "ready" and sets PINNED to its next line, the
# memory blocks its pages are in
start_pinner() {
    coproc PIN { exec numactl --membind="$1" pin-pages 3>&-; }
    read -r line <&"${PIN[0]}"
    assert_equal "$line" ready
    read -r PINNED <&"${PIN[0]}"
}

# wait_for SECONDS WHAT CMD...: poll CMD until it succeeds; on timeout fail
# saying what was waited for (no fixed sleep stands in for synchronisation).
# While it waits, $CXLTIER_VM_STATE/waiting names the wait, so that a test
# stopped by its per-test timeout (BATS_TEST_TIMEOUT) is reported with it.
wait_for() {
    local secs=$1 what=$2 deadline crumb=
    shift 2
    if [[ -n ${CXLTIER_VM_STATE:-} && -d ${CXLTIER_VM_STATE:-} ]]; then
        crumb=$CXLTIER_VM_STATE/waiting
        printf '%s\t%s\t%s\n' "${BATS_SUITE_TEST_NUMBER:-0}" "$secs" "$what" 2>/dev/null > "$crumb" || crumb=
    fi
    # bash's clock in microseconds (the guest's busybox date has no %N)
    deadline=$(( ${EPOCHREALTIME/./} + secs * 1000000 ))
    until "$@"; do
        if (( ${EPOCHREALTIME/./} > deadline )); then
            echo "timed out after ${secs}s waiting for $what" >&2
            [[ -z $crumb ]] || rm -f "$crumb"
            return 1
        fi
        sleep 0.05
    done
    [[ -z $crumb ]] || rm -f "$crumb"
    return 0
}

# is QEMU's device ID gone from /machine/peripheral?
qemu_lost_device() {
    ! host_qmp '{"execute":"qom-list","arguments":{"path":"/machine/peripheral"}}' | grep -q "\"name\": *\"$1\""
}

# unplug MEMDEV ID: QMP device_del; the kernel lets the memdev and its PCI
# device go, and QEMU finishes the unplug (the guest powered the slot off).
# The memory backend stays: QEMU's cxl-type3 leaves it mapped after unplug
# (object-del says "in use"), so a second device gets a backend of its own.
unplug() {
    local pci
    pci=$(basename "$(dirname "$(readlink -f "$CXL/$1")")")
    host_qmp "{\"execute\":\"device_del\",\"arguments\":{\"id\":\"$2\"}}" >/dev/null
    wait_for 120 "$1 to go after device_del" bash -c "! test -e $CXL/$1"
    wait_for 120 "PCI device $pci to go" bash -c "! test -e /sys/bus/pci/devices/$pci"
    wait_for 120 "QEMU to finish unplugging $2" qemu_lost_device "$2"
}

# weights_computed NODE...: `cxltier weights -j` (its output in WEIGHTS_JSON);
# each node's figures and the weight cxltier computes from them said on fd 3,
# and that weight in COMPUTED[NODE]
weights_computed() {
    local n
    run --separate-stderr cxltier weights -j
    assert_success
    WEIGHTS_JSON=$output
    declare -gA COMPUTED=()
    for n in "$@"; do
        echo "# node $n: $(jq -r --argjson n "$n" '.nodes[] | select(.node == $n) |
            "read \(.read_bandwidth_mbps // "-") MB/s, write \(.write_bandwidth_mbps // "-") MB/s (\(.bandwidth_source // "no figures")), computed weight \(.computed_weight) (\(.why))"' <<<"$WEIGHTS_JSON")" >&3
        COMPUTED[$n]=$(jq --argjson n "$n" '.nodes[] | select(.node == $n) | .computed_weight' <<<"$WEIGHTS_JSON")
    done
}
