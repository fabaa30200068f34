# SPDX-License-Identifier: GPL-2.0
# bats-timeout.sh - sourced by test/vm/helper.bash: the per-test time limit
# (BATS_TEST_TIMEOUT) without bats 1.8's race.
#
# bats 1.8's countdown sends SIGABRT to the test process and at the same
# moment kills that process's children. When the test is between two
# commands (a polling loop, say), the ABRT trap runs at once, and the kill
# lands on the subshells of bats' own exit trap instead: the test's report
# is lost and bats stops with "bats.N.out: No such file". When the test waits
# on a command substitution, killing the subshell alone leaves its command
# holding the pipe, and the test waits on.
#
# This countdown notes the time, sends SIGABRT, then ends every descendant of
# the test process that started before that time (the commands the test was
# blocked on, with their children), again every 0.1 s until the test process
# has run its exit trap -- never a process bats started for its report.
# Same protocol as bats' own (it is replaced only for the 1.8 series).

# descendants of PID started before TICKS (clock ticks since boot, as in
# /proc/PID/stat), leaving out the subtree of SKIP
_vm_old_descendants() { # PID TICKS SKIP
    local root=$1 before=$2 skip=$3 f rest pid ppid start
    local -A parent=() started=()
    for f in /proc/[0-9]*/stat; do
        { read -r rest < "$f"; } 2>/dev/null || continue
        pid=${rest%% *}
        rest=${rest##*) }          # after "(comm) ": state ppid ... (field 3 on)
        read -r _ ppid _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ start _ <<< "$rest"
        parent[$pid]=$ppid; started[$pid]=$start
    done
    local -a queue=("$root") out=()
    while ((${#queue[@]})); do
        local p=${queue[0]}; queue=("${queue[@]:1}")
        for pid in "${!parent[@]}"; do
            [[ ${parent[$pid]} == "$p" && $pid != "$skip" ]] || continue
            queue+=("$pid")
            (( started[$pid] < before )) && out+=("$pid")
        done
    done
    echo "${out[@]}"
}

if [[ ${BATS_VERSION:-} == 1.8.* ]]; then
bats_start_timeout_countdown() { # <timeout>
    local -ri timeout=$1
    local -ri target_pid=$$
    # shellcheck disable=SC2064
    trap "bats_timeout_trap $target_pid" ABRT
    (
        sleep "$timeout" &
        # shellcheck disable=SC2064
        trap "kill $! 2>/dev/null; exit 0" ABRT   # bats_abort_timeout_countdown: the test ended in time
        wait
        # now, in clock ticks: /proc/uptime has hundredths, USER_HZ is 100 on x86
        read -r up _ < /proc/uptime
        t=$(( 10#${up/./} ))
        kill -ABRT "$target_pid" 2>/dev/null || exit 0
        me=$BASHPID
        while kill -0 "$target_pid" 2>/dev/null; do
            # shellcheck disable=SC2046
            kill $(_vm_old_descendants "$target_pid" "$t" "$me") 2>/dev/null
            sleep 0.1 & wait $!
        done
    ) &
}
fi
