#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The systemd units as meson builds them (systemd/*.in): each sandboxed as
# `systemd-analyze security` scores it (offline, on the files alone), held
# under its ceiling, and `systemd-analyze verify` has nothing to say about
# any of them. A unit with its sandbox taken out scores above its ceiling:
# the check can fail.
load helper

# the ceilings: what `systemd-analyze security` calls the overall exposure
# (0 to 10, lower is safer), per unit
# (a function: bats loads the file's top level inside a function of its own)
ceiling_of() {
    case $1 in
    cxltier-metrics.service) echo 2.5 ;;
    cxltier-events.service) echo 3.5 ;;
    cxltier-hotplug.service) echo 3.5 ;;
    *) return 1 ;;
    esac
}
SERVICES=(cxltier-metrics.service cxltier-events.service cxltier-hotplug.service)

# the built units in a directory of their own, their ExecStart the build's
# binary (verify wants it executable)
setup_file() {
    local u
    UNITS=$BATS_FILE_TMPDIR/units
    mkdir -p "$UNITS"
    for u in cxltier-events.service cxltier-metrics.service cxltier-metrics.timer cxltier-hotplug.service; do
        [[ -f $CXLTIER_BUILD/$u ]] || { echo "the build has no $u" >&2; return 1; }
    done
    for u in cxltier-events.service cxltier-metrics.service cxltier-metrics.timer cxltier-hotplug.service; do
        with_build_binary < "$CXLTIER_BUILD/$u" > "$UNITS/$u"
    done
    export UNITS
}

with_build_binary() { sed "s|^ExecStart=[^ ]*/cxltier |ExecStart=$CXLTIER |"; }

# security FILE: `systemd-analyze security` of the unit file alone
security() { systemd-analyze security --offline=yes --man=no --no-pager "$1"; }

# the overall exposure in `systemd-analyze security`'s output ($output)
exposure_of_output() {
    sed -n 's/.*Overall exposure level for [^:]*: \([0-9][0-9]*\.[0-9]\) .*/\1/p' <<<"$output"
}

# at_most A B: the decimal A is not above the decimal B
at_most() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }

# assert_exposure_within UNIT: its figure parsed, and under its ceiling
assert_exposure_within() {
    local unit=$1 e ceiling
    ceiling=$(ceiling_of "$unit")
    run security "$UNITS/$unit"
    assert_success
    e=$(exposure_of_output)
    [[ -n $e ]] || fail "no overall exposure in the output for $unit: $output"
    echo "# $unit: exposure $e (ceiling $ceiling)" >&3
    at_most "$e" "$ceiling" ||
        fail "$unit: exposure $e is above its ceiling $ceiling: $(grep '✗' <<<"$output")"
}

# the unit with its sandbox taken out: every line from the comment that
# opens it ("# The sandbox") to the next section or the end
without_sandbox() { awk '/^# The sandbox/ { cut = 1 } /^\[/ { cut = 0 } !cut'; }

@test "cxltier-metrics.service: exposure at most 2.5" {
    assert_exposure_within cxltier-metrics.service
}

@test "cxltier-events.service: exposure at most 3.5" {
    assert_exposure_within cxltier-events.service
}

@test "cxltier-hotplug.service: exposure at most 3.5" {
    assert_exposure_within cxltier-hotplug.service
}

@test "each unit without its sandbox scores above its ceiling: the check can fail" {
    local unit e ceiling bare=$BATS_TEST_TMPDIR/bare n=0
    for unit in "${SERVICES[@]}"; do
        ceiling=$(ceiling_of "$unit")
        mkdir -p "$bare"
        grep -q '^# The sandbox' "$UNITS/$unit" || fail "$unit has no '# The sandbox' comment to cut from"
        without_sandbox < "$UNITS/$unit" > "$bare/$unit"
        ! grep -q '^CapabilityBoundingSet=' "$bare/$unit" || fail "$unit: the sandbox was not cut out"
        run security "$bare/$unit"
        assert_success
        e=$(exposure_of_output)
        [[ -n $e ]] || fail "no overall exposure in the output for the bare $unit: $output"
        ! at_most "$e" "$ceiling" ||
            fail "$unit without its sandbox scores $e, within its ceiling $ceiling: the check proves nothing"
        rm -r "$bare"
        n=$((n + 1))
    done
    assert_equal "$n" 3
}

# verify_clean FILE: systemd reads the unit whole: status 0 and not a word
# (a bad Type= is "Failed to parse service type, ignoring" with status 0)
verify_clean() {
    local out rc=0
    out=$(systemd-analyze verify --man=no "$1" 2>&1) || rc=$?
    [[ $rc == 0 && -z $out ]] || { echo "systemd-analyze verify: status $rc: $out"; return 1; }
}

@test "cxltier-events.service with the page retirement drop-in: clean, CAP_SYS_ADMIN its one capability, exposure at most 5.0" {
    local d=$BATS_TEST_TMPDIR/retire
    mkdir -p "$d"
    # the drop-in's [Service] lines after the unit's own, as systemd merges them
    cat "$UNITS/cxltier-events.service" "$CXLTIER_SRC/systemd/cxltier-events-retire.conf" > "$d/cxltier-events.service"
    run verify_clean "$d/cxltier-events.service"
    assert_success
    run security "$d/cxltier-events.service"
    assert_success
    e=$(exposure_of_output)
    echo "# cxltier-events.service with the drop-in: exposure $e" >&3
    at_most "$e" 5.0 || fail "exposure $e: $(grep '✗' <<<"$output")"
    assert_output --partial 'CAP_SYS_ADMIN'
    refute_output --regexp '✗ CapabilityBoundingSet=~CAP_(SYS_MODULE|SYS_RAWIO|SYS_PTRACE|NET_ADMIN|BPF)'
}

@test "systemd-analyze verify: every unit clean, nothing said" {
    local u n=0
    for u in "$UNITS"/*; do
        run verify_clean "$u"
        assert_success
        n=$((n + 1))
    done
    assert_equal "$n" 4
}

@test "the verify check fails on a unit systemd only half reads (Type=oneshott)" {
    sed 's/^Type=.*/Type=oneshott/' "$UNITS/cxltier-hotplug.service" > "$BATS_TEST_TMPDIR/cxltier-hotplug.service"
    grep -q '^Type=oneshott' "$BATS_TEST_TMPDIR/cxltier-hotplug.service"
    run verify_clean "$BATS_TEST_TMPDIR/cxltier-hotplug.service"
    assert_failure 1
    # (systemd 252: "Failed to parse service type, ignoring: oneshott";
    # 257: "Failed to parse Type=oneshott, ignoring: Invalid argument")
    assert_output --regexp ':16: Failed to parse (service type, ignoring: oneshott|Type=oneshott, ignoring)'
}

@test "the units keep what they are for: ExecStart, Restart=always for the follower, a bounded start at boot" {
    grep -qx "ExecStart=$CXLTIER metrics --output-file /var/lib/prometheus/node-exporter/cxltier.prom" "$UNITS/cxltier-metrics.service"
    grep -qx "ExecStart=$CXLTIER events --follow --store --json" "$UNITS/cxltier-events.service"
    grep -qx 'StateDirectory=cxltier' "$UNITS/cxltier-events.service"
    grep -qx 'StateDirectoryMode=0700' "$UNITS/cxltier-events.service"
    grep -qx 'Restart=always' "$UNITS/cxltier-events.service"
    grep -qx "ExecStart=$CXLTIER hotplug --timeout 60" "$UNITS/cxltier-hotplug.service"
    grep -qx 'Type=notify' "$UNITS/cxltier-hotplug.service"
    grep -qx 'Restart=on-failure' "$UNITS/cxltier-hotplug.service"
    grep -qx 'TimeoutStartSec=5min' "$UNITS/cxltier-hotplug.service"
}

# restart_stops_on_77 FILE: a unit that restarts its command (Restart= other
# than no) does not restart it after 77, "unsupported" (cxltier(1), EXIT
# STATUS): the same kernel would end it the same way, every RestartSec
restart_stops_on_77() {
    local restart
    restart=$(sed -n 's/^Restart=//p' "$1")
    [[ -z $restart || $restart == no ]] && return 0
    grep -Eqx 'RestartPreventExitStatus=([0-9A-Z]+ )*77( [0-9A-Z]+)*' "$1" ||
        { echo "$1: Restart=$restart without RestartPreventExitStatus=77"; return 1; }
}

@test "every unit that restarts its command stops on 77 (unsupported); the check fails on a unit without it" {
    local u n=0
    for u in "$UNITS"/*.service; do
        run restart_stops_on_77 "$u"
        assert_success
        grep -q '^Restart=' "$u" && n=$((n + 1))
    done
    assert_equal "$n" 2   # the follower and the hotplug watch
    sed '/^RestartPreventExitStatus=/d' "$UNITS/cxltier-events.service" > "$BATS_TEST_TMPDIR/cxltier-events.service"
    run restart_stops_on_77 "$BATS_TEST_TMPDIR/cxltier-events.service"
    assert_failure 1
    assert_output --partial 'Restart=always without RestartPreventExitStatus=77'
}
