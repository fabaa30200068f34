#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-args: --append cxltier.init=systemd
# vm-test-timeout: 300 -- records injected over QMP under TCG, then the journal read
# cxltier-events.service under Debian's systemd as PID 1: each record the
# follower reads is a journal entry of its own, with a priority from its
# severity and fields (CXL_MEMDEV=, CXL_DPA=, ...), so that
# `journalctl -p warning CXL_MEMDEV=mem0` finds it.
load helper
load events

DEV=/machine/peripheral/cxl-mem0
GM_ID=1f3e5a25bb9348d5a758dd78e5e0c6a0

setup() {
    [[ $(cat /proc/1/comm) == systemd ]] ||
        fail "PID 1 is $(cat /proc/1/comm), not systemd: the boot did not take cxltier.init=systemd (guest/init)"
}

teardown() {
    systemctl stop cxltier-events.service 2>/dev/null || true
}

# the follower's own tracefs instance (named after its pid), recording
recording() {
    local pid i
    pid=$(systemctl show -P MainPID cxltier-events.service)
    [[ $pid != 0 ]] || return 1
    for i in $T/cxltier-follow-"$pid"-*; do
        [[ -d $i && $(cat "$i/tracing_on") == 1 ]] && return 0
    done
    return 1
}

# the journal's entries of the follower's records at DPA $1 (journalctl ARGS... after it), JSON lines
entries() {
    local dpa=$1
    shift
    journalctl --no-pager -o json -u cxltier-events.service "$@" | jq -c --arg d "$(printf '0x%x' "$dpa")" 'select(.CXL_DPA == $d)'
}
has_entry() { [[ -n $(entries "$@") ]]; }

@test "cxltier-events.service: each record a journal entry, its priority from its severity, its CXL_* fields" {
    run systemctl start cxltier-events.service
    assert_success
    wait_for 60 "cxltier-events.service's tracefs instance, recording" recording ||
        fail "$(journalctl --no-pager -o cat -u cxltier-events.service)"
    # the instance it made, said once, with its size
    wait_for 30 "the follower to say its instance" bash -c \
        "journalctl --no-pager -o cat -u cxltier-events.service | grep -q 'made the tracefs instance cxltier-follow-.*KiB of ring buffer a CPU'"
    inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"warning\",\"flags\":1,\"dpa\":53248,\"descriptor\":0,\"type\":0,\"transaction-type\":1}"
    gm_at 57344    # informational
    wait_for 120 "the journal to hold the record of dpa 57344" has_entry 57344
    wait_for 120 "the journal to hold the record of dpa 53248" has_entry 53248
    # the warning under -p warning and CXL_MEMDEV=mem0; the informational one not
    run entries 53248 -p warning CXL_MEMDEV=mem0
    assert_success
    assert_equal "$(wc -l <<<"$output")" 1
    e=$output
    serial=$(printf '0x%x' "$(cat $CXL/mem0/serial)")
    assert_equal "$(jq -c '[.PRIORITY, .MESSAGE_ID, .CXL_KIND, .CXL_SEVERITY, .CXL_MEMDEV, .CXL_SERIAL, .CXL_DPA, .CXL_EVENT, .SYSLOG_IDENTIFIER]' <<<"$e")" \
        "[\"4\",\"$GM_ID\",\"general_media\",\"warning\",\"mem0\",\"$serial\",\"0xd000\",\"cxl_general_media\",\"cxltier\"]"
    [[ $(jq -r .MESSAGE <<<"$e") == "mem0: warning general_media at DPA 0xd000"*": ecc_error on host_read" ]] ||
        fail "MESSAGE: $(jq -r .MESSAGE <<<"$e")"
    assert_equal "$(jq -r .CXL_JSON <<<"$e" | jq -c '[.kind, .severity, .dpa, .memdev]')" '["general_media","warning",53248,"mem0"]'
    run entries 57344 -p warning CXL_MEMDEV=mem0
    assert_output ''
    run entries 57344 -p info CXL_MEMDEV=mem0
    assert_equal "$(jq -c '[.PRIORITY, .CXL_SEVERITY]' <<<"$output")" '["6","informational"]'
    # the records are entries of their own, not lines of the follower's stdout
    ! journalctl --no-pager -o cat -u cxltier-events.service | grep -q '^{' ||
        fail "a record written as a JSON line too"
}
