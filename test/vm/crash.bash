# SPDX-License-Identifier: GPL-2.0
# crash.bash - the crash tests' walk (crash-region*.bats; needs the test-only
# build, "# vm-build: crash-points"): a command killed (SIGKILL, as by a power
# cut or the OOM killer) on entering each of its kernel writes in turn,
# N = 1, 2, ... until a run completes; after each, the recovery a user would
# run, then the machine checked: no endpoint decoder holding capacity
# (dpa_size) outside a region, no region left uncommitted, auto_online_blocks
# as it was; once a walk is over, a fresh create + destroy works (the
# capacity no kill point left held is usable). Each N is reported in a '#'
# line: the write killed (CXLTIER_CRASH_LOG), the recovery's status and
# message, the state found. A failing N does not stop the walk: the machine
# is put back by hand (every region destroyed, capacity freed) and the test
# fails at the end naming every N that did.
load helper

# no command may walk more kill points than this (a command that never
# completes would loop)
MAX_STEPS=40

# the regions there, oldest first
regions() { ls $CXL | grep '^region[0-9]' | sort -t n -k 2 -n; }

# what is wrong with the machine, one line each (nothing: clean)
state_problems() {
    local d r size
    for d in $(ls $CXL | grep '^decoder[0-9]*\.[0-9]*$'); do
        [[ -f $CXL/$d/dpa_size ]] || continue   # (endpoint decoders have one)
        size=$(( $(cat $CXL/$d/dpa_size) ))
        [[ $size == 0 || -n $(cat $CXL/$d/region 2>/dev/null) ]] ||
            echo "$d holds dpa_size $size outside a region (mode $(cat $CXL/$d/mode 2>/dev/null))"
    done
    for r in $(regions); do
        [[ $(cat $CXL/$r/commit 2>/dev/null) == 1 ]] ||
            echo "$r left uncommitted (size $(cat $CXL/$r/size 2>/dev/null), target0 '$(cat $CXL/$r/target0 2>/dev/null)')"
    done
    # a killed run's record the recovery should have handled and removed
    for r in $(ls /run/cxltier 2>/dev/null | grep -E '^(auto-online\.held|region-change\.)'); do
        echo "/run/cxltier/$r left: $(tr '\n' ' ' < /run/cxltier/$r)"
    done
}

# the regions left, with their state, for the report
regions_left() {
    local r out=
    for r in $(regions); do
        out+="${out:+, }$r (commit $(cat $CXL/$r/commit 2>/dev/null), $([[ -e $CXL/$r/driver ]] && echo bound || echo unbound))"
    done
    echo "${out:-none}"
}

# the machine put back by hand between kill points: a memdev an
# `offline --remove` disabled bound again, every region destroyed (the last
# created first), capacity held for no region freed (an endpoint gives it
# back last-allocated first), then nothing may be left
force_clean() {
    local r d m
    for m in $(ls $CXL | grep '^mem[0-9]*$'); do
        [[ ! -e $CXL/$m/driver ]] || continue
        echo "$m" > /sys/bus/cxl/drivers/cxl_mem/bind 2>/dev/null || true
        vm_wait 60 "$m's endpoint, bound again" vm_endpoint_ready "$m" ||
            fail "the machine could not be put back by hand: $m, disabled, does not come back"
    done
    for r in $(regions | sort -t n -k 2 -rn); do
        cxltier region destroy "$r" --offline >/dev/null 2>&1 || true
    done
    for d in $(ls $CXL | grep '^decoder[0-9]*\.[0-9]*$' | sort -t . -k 2 -rn); do
        [[ -f $CXL/$d/dpa_size && -z $(cat $CXL/$d/region 2>/dev/null) ]] || continue
        [[ $(( $(cat $CXL/$d/dpa_size) )) == 0 ]] || echo 0 > $CXL/$d/dpa_size || true
    done
    [[ -z $(regions) && -z $(state_problems) ]] ||
        fail "the machine could not be put back by hand: regions $(regions_left); $(state_problems | tr '\n' ';')"
}

# the last line of a message, on one line
one_line() { tr '\n' ' ' <<<"$1" | sed 's/  */ /g; s/ $//'; }

# the killed write: the last line of the crash log ("N what")
killed_at() { tail -1 "$1" 2>/dev/null || echo "(no crash log)"; }

# fresh_cycle MEMDEV...: a fresh create + destroy works: "ok" or what failed
fresh_cycle() {
    local out r err=$BATS_TEST_TMPDIR/fresh.err
    out=$(cxltier region create "$@" -j 2>"$err") || { echo "fresh create failed: $(one_line "$(cat "$err")")"; return 1; }
    r=$(jq -r '.regions[0].name' <<<"$out")
    out=$(cxltier region destroy "$r" --offline 2>&1) || { echo "fresh destroy of $r failed: $(one_line "$out")"; return 1; }
    echo ok
}

setup_file() {
    for r in $(ls $CXL | grep '^region[0-9]'); do cxltier region destroy "$r" --offline >/dev/null; done
}

setup() {
    AUTO_ONLINE=$(cat $MEMSYS/auto_online_blocks)
    AUTO_ONLINE_BEFORE=$AUTO_ONLINE   # (a walk may set another, AUTO_ONLINE then)
    force_clean
}

teardown() {
    echo "$AUTO_ONLINE_BEFORE" > $MEMSYS/auto_online_blocks
    force_clean
    vm_forget_dax_ids   # (a walk that switched a dax device to devdax)
}

# after_recovery LABEL N KILLED RSTATUS RMESSAGE: check the machine, report
# the kill point's line, and add it to FAILED when it is not clean
after_recovery() {
    local label=$1 n=$2 killed=$3 rs=$4 rmsg=$5 problems verdict=clean
    problems=$(state_problems)
    [[ $(cat $MEMSYS/auto_online_blocks) == "$AUTO_ONLINE" ]] ||
        problems+="${problems:+$'\n'}auto_online_blocks is $(cat $MEMSYS/auto_online_blocks), was $AUTO_ONLINE"
    [[ -z $problems ]] || verdict="NOT CLEAN: $(one_line "$problems"); regions: $(regions_left)"
    echo "# $label N=$n killed at: $killed; recovery: exit $rs: $(one_line "$rmsg"); state: $verdict" >&3
    [[ $verdict == clean ]] || FAILED+=("N=$n ($killed): $verdict")
    # (a walk whose setup puts its region back as it was keeps it)
    [[ -n ${WALK_KEEPS_REGIONS:-} ]] || force_clean
}

# the end of a walk: FAILED empty, and a fresh create + destroy over MEMDEV...
walk_verdict() {
    local what=$1 steps=$2 fresh
    shift 2
    [[ -n $steps ]] || fail "$what did not complete within $MAX_STEPS kill points"
    (( steps > 0 )) || fail "$what made no kernel write the crash points count"
    (( ${#FAILED[@]} == 0 )) || fail "after a killed $what, the recovery left the machine not clean at ${#FAILED[@]} of $steps kill points: ${FAILED[*]}"
    force_clean   # (what the run that completed made)
    fresh=$(fresh_cycle "$@") || fail "after the walk of $what: $fresh"
}

# crash_walk_create MEMDEV...: `region create MEMDEV...` killed at N = 1, 2,
# ... until it completes; after each, the recovery a user would run (the same
# create again, then destroy what it made) and the machine checked
crash_walk_create() {
    local n log r out rs steps= what="region create $*"
    FAILED=()
    for (( n = 1; n <= MAX_STEPS; n++ )); do
        log=$BATS_TEST_TMPDIR/create-$n.log
        run env CXLTIER_CRASH_AT=$n CXLTIER_CRASH_LOG="$log" cxltier region create "$@"
        if [[ $status == 0 ]]; then
            steps=$((n - 1))
            assert_equal "$(wc -l < "$log")" "$steps"
            echo "# $what: completes after $steps kernel writes: $(cut -d' ' -f2- "$log" | tr '\n' ';')" >&3
            break
        fi
        assert_equal "$status" 137   # SIGKILL, nothing else
        assert_equal "$(wc -l < "$log")" "$n"
        run --separate-stderr cxltier region create "$@" -j
        rs=$status out=$stderr
        if [[ $rs == 0 ]]; then
            r=$(jq -r '.regions[0].name' <<<"$output")
            run --separate-stderr cxltier region destroy "$r" --offline
            [[ $status == 0 ]] || { out+=" / then destroying $r: exit $status: $stderr"; rs="0 (destroy $status)"; }
        fi
        after_recovery "$what" "$n" "$(killed_at "$log")" "$rs" "$out"
    done
    walk_verdict "$what" "$steps" "$@"
}

# crash_walk_destroy [--online] MEMDEV...: a region over MEMDEV... created
# (--online: its memory onlined, so that the destroy offlines it block by
# block first), then `region destroy REGION --offline` killed at N = 1, 2,
# ... until it completes; after each, the recovery a user would run (the same
# destroy again) and the machine checked. Of the block offlines (one write
# each, all alike, the costliest points under emulation) the first and the
# last are kill points; the ones between are counted, not walked.
crash_walk_destroy() {
    local n log r rs out steps= online= what blocks=0
    [[ $1 != --online ]] || { online=1; shift; }
    what="region destroy (of a region over $*${online:+, its memory online})"
    FAILED=()
    for (( n = 1; n <= MAX_STEPS; n++ )); do
        (( n == 1 || n >= blocks )) || continue   # (a block offline between the first and the last)
        log=$BATS_TEST_TMPDIR/destroy-$n.log
        run --separate-stderr cxltier region create "$@" -j
        assert_success
        r=$(jq -r '.regions[0].name' <<<"$output")
        if [[ -n $online ]]; then
            run cxltier online "$r"
            assert_success
            (( blocks )) || blocks=$(( $(cat $CXL/$r/size) / $(( 0x$(cat $MEMSYS/block_size_bytes) )) ))
        fi
        run env CXLTIER_CRASH_AT=$n CXLTIER_CRASH_LOG="$log" cxltier region destroy "$r" --offline
        if [[ $status == 0 ]]; then
            steps=$((n - 1))
            assert_equal "$(wc -l < "$log")" "$steps"
            [[ ! -e $CXL/$r ]] || fail "$r is still there after a destroy that completed"
            echo "# $what: completes after $steps kernel writes: $(cut -d' ' -f2- "$log" | tr '\n' ';')" >&3
            break
        fi
        assert_equal "$status" 137   # SIGKILL, nothing else
        assert_equal "$(wc -l < "$log")" "$n"
        run --separate-stderr cxltier region destroy "$r" --offline
        rs=$status out=$stderr
        [[ $rs == 0 ]] || FAILED+=("N=$n ($(killed_at "$log")): the rerun failed, exit $rs: $(one_line "$out")")
        [[ ! -e $CXL/$r ]] || FAILED+=("N=$n ($(killed_at "$log")): $r still there after the rerun ($(regions_left))")
        after_recovery "$what" "$n" "$(killed_at "$log")" "$rs" "$out"
    done
    walk_verdict "$what" "$steps" "$@"
}

# the region over MEMDEV (its first target is a decoder of MEMDEV's endpoint), "" none
region_over() {
    local r ep
    ep=$(vm_endpoint_of "$1")
    for r in $(regions); do
        [[ $(cat $CXL/$r/target0 2>/dev/null) == decoder${ep#endpoint}.* ]] && { echo "$r"; return; }
    done
    return 0
}

# what the policy's outcome lacks for MEMDEV: a committed region over it
# whose blocks are all online movable (one line each; nothing: complete)
policy_problems() {
    local r dax b
    r=$(region_over "$1")
    [[ -n $r ]] || { echo "no region over $1"; return; }
    dax=$(basename "$(ls -d $CXL/$r/dax_region*/dax*.* 2>/dev/null | head -1)")
    [[ -n $dax ]] || { echo "$r has no dax device"; return; }
    for b in $(vm_blocks_of "$dax"); do
        [[ $(cat $MEMSYS/$b/state) == online && $(cat $MEMSYS/$b/valid_zones) == Movable ]] ||
            echo "$b of $r: $(cat $MEMSYS/$b/state), zones $(cat $MEMSYS/$b/valid_zones)"
    done
}

# crash_walk_policy MEMDEV: `online --policy MEMDEV` for a memdev that backs
# no region, the policy saying create-region = yes (a hot-added card as the
# udev unit runs it), killed at its kernel writes; after each, the recovery
# the unit's next start is (the same command again), then the machine
# checked: clean, a committed region over MEMDEV with every block online
# movable, auto_online_blocks as it was. A run that completes lists the
# writes first; the kill points are the region's first write and its commit
# (every create step between is walked by the create walk,
# crash-region-two-devices.bats) and every write after the commit, of the
# block onlines (one write each, all alike) the first and the last.
crash_walk_policy() {
    local m=$1 n log rs out what="online --policy $1 (create-region = yes)" all=$BATS_TEST_TMPDIR/policy-all.log
    local conf=$BATS_TEST_TMPDIR/policy.conf total commit blocks=() points=()
    printf '[defaults]\ncreate-region = yes\n' > "$conf"
    # twice: the first run leaves what every later one finds (the decoder's
    # mode set to ram stays after its capacity is freed: one write fewer)
    run cxltier online --policy --config "$conf" "$m"
    assert_success
    force_clean
    run env CXLTIER_CRASH_AT=9999 CXLTIER_CRASH_LOG="$all" cxltier online --policy --config "$conf" "$m"
    assert_success
    [[ -z $(policy_problems "$m") ]] || fail "a run that completed left: $(policy_problems "$m")"
    force_clean
    total=$(wc -l < "$all")
    commit=$(grep -n '/region[0-9]*/commit = 1$' "$all" | cut -d: -f1)
    [[ -n $commit ]] || fail "no region commit among the writes: $(cut -d' ' -f2- "$all" | tr '\n' ';')"
    points=(1 "$commit")
    for (( n = commit + 1; n <= total; n++ )); do
        if sed -n "${n}p" "$all" | grep -q '/memory[0-9]*/state = online_movable$'; then blocks+=("$n"); else points+=("$n"); fi
    done
    (( ${#blocks[@]} )) && points+=("${blocks[0]}" "${blocks[-1]}")
    mapfile -t points < <(printf '%s\n' "${points[@]}" | sort -nu)
    echo "# $what: $total kernel writes, ${#points[@]} kill points walked (${points[*]}): $(cut -d' ' -f2- "$all" | tr '\n' ';')" >&3
    FAILED=()
    for n in "${points[@]}"; do
        log=$BATS_TEST_TMPDIR/policy-$n.log
        run env CXLTIER_CRASH_AT=$n CXLTIER_CRASH_LOG="$log" cxltier online --policy --config "$conf" "$m"
        assert_equal "$status" 137   # SIGKILL, nothing else
        assert_equal "$(wc -l < "$log")" "$n"
        run --separate-stderr cxltier online --policy --config "$conf" "$m"
        rs=$status out=$stderr
        [[ $rs == 0 ]] || FAILED+=("N=$n ($(killed_at "$log")): the rerun failed, exit $rs: $(one_line "$out")")
        [[ -z $(policy_problems "$m") ]] ||
            FAILED+=("N=$n ($(killed_at "$log")): after the rerun: $(one_line "$(policy_problems "$m")")")
        after_recovery "$what" "$n" "$(killed_at "$log")" "$rs" "$out"
    done
    (( ${#FAILED[@]} == 0 )) || fail "after a killed $what, the recovery left the machine wrong at ${#FAILED[@]} kill points: ${FAILED[*]}"
}

# kill_points LOG ALIKE: the kill points of a command whose complete run's
# writes LOG lists: every write, but of those matching ALIKE (an extended
# regular expression on "PATH = VALUE": the block changes, one write each,
# all alike and the costliest points under emulation) the first and the
# last only; one number a line
kill_points() {
    awk -v re="$2" '{ w = $0; sub(/^[0-9]+ /, "", w)
                      if (w ~ re) { if (!first) first = NR; last = NR } else print NR }
                    END { if (first) { print first; print last } }' "$1" | sort -nu
}

# crash_walk WHAT ALIKE: a command killed at its kill points (kill_points),
# the walk's three functions, defined by the test, doing the rest:
#   walk_setup     the machine put where the command starts (before each run)
#   walk_run       the command, run as `walk_run` with CXLTIER_CRASH_AT set
#   walk_problems  what the outcome lacks (one line each; nothing: complete)
# and WALK_RECOVERY_SAYS, when set: what the rerun must say at every point (a
# regular expression; the record of the killed run found and handled).
# A complete run (after a first one, which leaves what every later one
# finds) lists the writes; at each kill point the command is killed, the
# same command run again is the recovery (the user's rerun, a unit's next
# start), then the outcome must be complete and the machine clean
# (after_recovery). Each point reported in a '#' line.
crash_walk() {
    local what=$1 alike=$2 all=$BATS_TEST_TMPDIR/walk-all.log n log rs out points=()
    walk_setup
    run walk_run
    assert_success
    [[ -n ${WALK_KEEPS_REGIONS:-} ]] || force_clean
    walk_setup
    CXLTIER_CRASH_AT=9999 CXLTIER_CRASH_LOG=$all run walk_run
    assert_success
    [[ -z $(walk_problems) ]] || fail "a run of $what that completed left: $(one_line "$(walk_problems)")"
    [[ -n ${WALK_KEEPS_REGIONS:-} ]] || force_clean
    mapfile -t points < <(kill_points "$all" "$alike")
    (( ${#points[@]} )) || fail "$what made no kernel write the crash points count"
    echo "# $what: $(wc -l < "$all") kernel writes, ${#points[@]} kill points walked (${points[*]}): $(cut -d' ' -f2- "$all" | tr '\n' ';')" >&3
    FAILED=()
    for n in "${points[@]}"; do
        log=$BATS_TEST_TMPDIR/walk-$n.log
        walk_setup
        CXLTIER_CRASH_AT=$n CXLTIER_CRASH_LOG=$log run walk_run
        assert_equal "$status" 137   # SIGKILL, nothing else
        assert_equal "$(wc -l < "$log")" "$n"
        run --separate-stderr walk_run
        rs=$status out=$stderr
        [[ $rs == 0 ]] || FAILED+=("N=$n ($(killed_at "$log")): the rerun failed, exit $rs: $(one_line "$out")")
        [[ -z $(walk_problems) ]] ||
            FAILED+=("N=$n ($(killed_at "$log")): after the rerun: $(one_line "$(walk_problems)")")
        [[ -z ${WALK_RECOVERY_SAYS:-} ]] || [[ $(one_line "$out") =~ $WALK_RECOVERY_SAYS ]] ||
            FAILED+=("N=$n ($(killed_at "$log")): the rerun did not say what it found of the killed run ($WALK_RECOVERY_SAYS)")
        after_recovery "$what" "$n" "$(killed_at "$log")" "$rs" "$out"
    done
    (( ${#FAILED[@]} == 0 )) || fail "after a killed $what, the recovery left the machine wrong at ${#FAILED[@]} of ${#points[@]} kill points: ${FAILED[*]}"
}
