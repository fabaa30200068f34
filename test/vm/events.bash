# SPDX-License-Identifier: GPL-2.0
# Helpers of the events VM tests (events.bats, events-aer.bats, events-retire.bats).

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

T=/sys/kernel/tracing/instances
# the private instance of follower PID (named cxltier-follow-PID-START-PIDNS)
instance_of() { ls $T | grep -E "^cxltier-follow-$1(-|\$)"; }
# PID has exited (gone, or a zombie waiting for `wait`)
exited() { [[ ! -e /proc/$1 ]] || [[ $(cut -d' ' -f3 /proc/$1/stat) == Z ]]; }

# the private instance of follower PID records: every cxl event on, and its
# tracing (the follower makes the directory first, then turns them on)
recording_of() {
    local i
    i=$(instance_of "$1") && [[ $(cat "$T/$i/events/cxl/enable") == 1 && $(cat "$T/$i/tracing_on") == 1 ]]
}

# start a follower with fd 3 closed (one left behind must not keep bats
# waiting); sets $pid, and $inst once its instance records (a record
# injected before would be in the shared instance alone: a follower with a
# store takes it from there into the store, and shows it not)
start_follower() {
    cxltier events --follow -j "$@" > "$BATS_TEST_TMPDIR/follow.out" 2> "$BATS_TEST_TMPDIR/follow.err" 3>&- &
    pid=$!
    echo "$pid" >> "$BATS_FILE_TMPDIR/followers"
    wait_for 60 "the tracefs instance of follower $pid to record" recording_of "$pid"
    inst=$(instance_of "$pid")
    # 256 KiB per CPU, in whole ring-buffer pages (4080 bytes of data each)
    kb=$(cat "$T/$inst/buffer_size_kb")
    (( kb >= 256 && kb < 272 )) || fail "buffer_size_kb of $inst: $kb"
}
# the followers a failed test left, ended so that each removes its instance
end_followers() {
    local f=$BATS_FILE_TMPDIR/followers p
    [[ -f $f ]] || return 0
    for p in $(cat "$f"); do
        kill -TERM "$p" 2>/dev/null || continue
        wait_for 60 "follower $p to end on SIGTERM" exited "$p" || kill -9 "$p"
    done
    rm -f "$f"
}

# the records in the store at DB: at least N
stored_at_least() {
    local n
    n=$(cxltier events --history --store-path "$2" -j 2>/dev/null | jq '.events | length') || return 1
    (( n >= $1 ))
}
# a General Media record of mem0 (informational, invalid address, host scan) at DPA
gm_at() { inject cxl-inject-general-media-event "{\"path\":\"${DEV:-/machine/peripheral/cxl-mem0}\",\"log\":\"informational\",\"flags\":1,\"dpa\":$1,\"descriptor\":0,\"type\":1,\"transaction-type\":3}"; }

# the CXL node (the region's dax device's)
cxl_node() { cat /sys/bus/dax/devices/"$(vm_dax_of "$(ensure_region)")"/target_node; }

# a hog of 1 MiB on the CXL node; sets HOG_PID and PHYS (its first page)
start_cxl_hog() {
    coproc HOG { exec numactl --membind="$(cxl_node)" hog --small 1 3>&-; }
    read -r line <&"${HOG[0]}"
    [[ $line == phys\ 0x* ]] || fail "hog said '$line'"
    PHYS=$(( ${line#phys } ))
    read -r line <&"${HOG[0]}"
    assert_equal "$line" ready
}

# the DPA behind host address HPA (the region has one member, one way)
dpa_of() {
    local r dec
    r=$(ensure_region)
    dec=$(cat $CXL/$r/target0)
    echo $(( $(cat $CXL/$dec/dpa_resource) + $1 - $(cat $CXL/$r/resource) ))
}

# /proc/kpageflags' HWPOISON bit (19) of the page at PHYS: 1 or 0
hwpoison() { echo $(( ($(dd if=/proc/kpageflags bs=8 skip=$(( $1 / 4096 )) count=1 2>/dev/null | od -An -tu8) >> 19) & 1 )); }
corrupted_kb() { awk '/^HardwareCorrupted:/ {print $2}' /proc/meminfo; }
