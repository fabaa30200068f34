# SPDX-License-Identifier: GPL-2.0
# Helpers of the events VM tests (events.bats, events-aer.bats).

# one QMP command to this guest's QEMU: inject NAME ARGS-JSON
inject() { host_qmp "{\"execute\":\"$1\",\"arguments\":$2}" >/dev/null; }

# true when every field of tracepoint EVENT's format on the running kernel
# is a key of the "fields" of the JSON event on stdin; names those missing
all_fields() {
    local ev=$1 missing fields=()
    mapfile -t fields < <(grep -o 'field:[^;]*;' /sys/kernel/tracing/events/cxl/$ev/format |
                          sed 's/;$//; s/\[[0-9]*\]$//; s/.* //' | grep -v '^common_')
    # (one jq for them all: a jq start is a tenth of a second under TCG)
    missing=$(jq -r '.fields as $f | $ARGS.positional[] | select(. as $k | $f | has($k) | not)' --args "${fields[@]}") ||
        { echo "all_fields: jq failed on the event" >&2; return 1; }
    echo "# $ev: ${#fields[@]} fields in the kernel's format" >&3
    [[ ${#fields[@]} -gt 0 && -z $missing ]] ||
        { echo "cxl:$ev fields missing from cxltier events -j:" $missing >&2; return 1; }
}
