# SPDX-License-Identifier: GPL-2.0
# hotplug-watch.bash - what cxltier-hotplug.service (`cxltier hotplug`) did,
# for the VM tests that run the chain under systemd: hotplug-systemd.bats,
# hotplug-four.bats. Its runs are known by its own journal lines
# (lib/jobs/hotplug-service.c): "cxltier hotplug: online --policy DEVICES:
# started (pid N)", then ": done", or "cxltier hotplug: error: online
# --policy DEVICES:" and "exit N (...)" or "killed by signal N ...".
HOTPLUG_UNIT=cxltier-hotplug.service
HOTPLUG_PROCS=/sys/fs/cgroup/system.slice/$HOTPLUG_UNIT/cgroup.procs

# the service's journal: its own lines and its runs'
runs_journal() { journalctl --no-pager -o cat -u $HOTPLUG_UNIT; }
show_journal() {
    echo "# journal of $HOTPLUG_UNIT:" >&3
    runs_journal | sed 's/^/#   /' >&3
}

# the processes of the service: the watch, and a run when one is under way
hotplug_procs() {
    local p n=0
    if [[ -e $HOTPLUG_PROCS ]]; then while read -r p; do n=$((n + 1)); done < $HOTPLUG_PROCS; fi
    echo $n
}

# udev has handled every event, systemd has no job for the service, and no
# run is under way
settled() {
    udevadm settle --timeout=0 || return 1
    [[ -z $(systemctl list-jobs --no-legend $HOTPLUG_UNIT 2>/dev/null) ]] || return 1
    (( $(hotplug_procs) <= 1 ))
}

# how each run over device $1 ended, a line each: done, exit N (...),
# killed by signal N ... (after the journal's first $2 lines: memdev names
# come back)
run_ends() {
    local l re="^cxltier hotplug: (error: )?online --policy (.+ )?$1( .+)?: (done|exit .*|killed .*)\$"
    while IFS= read -r l; do [[ $l =~ $re ]] && echo "${BASH_REMATCH[4]}"; done < <(runs_journal | tail -n +$((${2:-0} + 1)))
}
run_ended() { [[ -n $(run_ends "$@") ]]; }
# how the last run over $1 ended
run_result() { run_ends "$1" | tail -1; }
# the last run over $1 ended done; else a failure that names how it ended
# and the journal's last error and warning lines last, where a cut log
# (CI shows a run's end) still has them
assert_run_done() {
    local r
    r=$(run_result "$1")
    [[ $r == done ]] && return 0
    fail "the last run over $1 ended: ${r:-(no end in the journal)}; the journal's last errors and warnings:
$(runs_journal | grep -E ': (error|warning): ' | tail -8)"
}
# how many runs over $1 the service started (after the journal's first $2
# lines: memdev names come back)
run_starts() {
    local l n=0 re="^cxltier hotplug: online --policy (.+ )?$1( .+)?: started \\(pid [0-9]+\\)\$"
    while IFS= read -r l; do [[ $l =~ $re ]] && n=$((n + 1)); done < <(runs_journal | tail -n +$((${2:-0} + 1)))
    echo $n
}
journal_lines() { runs_journal | wc -l; }
# the watch found dax device $1's blocks all online movable when it came to
# it (a run made its region and onlined it meanwhile): no run over it
dropped() { runs_journal | grep -qxF "cxltier hotplug: $1: every block online movable already: no run for it"; }
# the run under way: its pid (a child of the service's main process)
run_pid() {
    local main c
    main=$(systemctl show -P MainPID $HOTPLUG_UNIT)
    [[ $main != 0 && -r /proc/$main/task/$main/children ]] || return 1
    # (the file has no newline: read's status is 1 at its end)
    read -r c _ < /proc/$main/task/$main/children || :
    [[ -n $c ]] && echo "$c"
}
