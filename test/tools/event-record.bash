# SPDX-License-Identifier: GPL-2.0-only
# event_record UUID OFFSET:HEX...: one 128-byte CXL event record on stdout,
# zero but for the record UUID (hex, 32 digits), its length (128) and the
# bytes given at their offsets (test/cli/events.bats, events-store.bats)
event_record() {
    local hex p off val
    hex=$(printf '%0256d' 0)
    hex=${1}80${hex:34}
    shift
    for p in "$@"; do
        off=${p%%:*} val=${p#*:}
        hex=${hex:0:$((off * 2))}$val${hex:$((off * 2 + ${#val}))}
    done
    xxd -r -p <<<"$hex"
}
