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

# (the checks below read sysfs with bash's own read and globs: a fork and
# exec costs tens of milliseconds under TCG, and they run at every kill point)

# rd FILE: VAL set to FILE's first line ("" when it cannot be read)
rd() { VAL=; read -r VAL < "$1" 2>/dev/null || true; }

# the regions there, oldest first (REGIONS, and one a line)
regions() {
    local r
    REGIONS=()
    for r in $CXL/region[0-9]*; do [[ -e $r ]] && REGIONS[${r##*/region}]=${r##*/}; done
    REGIONS=("${REGIONS[@]}")
    (( ${#REGIONS[@]} == 0 )) || printf '%s\n' "${REGIONS[@]}"
}

# what is wrong with the machine, one line each (nothing: clean)
# the endpoint decoders holding capacity for no region: "DIR SIZE" a line
held_decoders() {
    local p d size VAL
    for p in $CXL/decoder*.*/dpa_size; do   # (endpoint decoders have one)
        [[ -e $p ]] || continue
        rd "$p"
        (( VAL )) || continue
        d=${p%/dpa_size} size=$(( VAL ))
        rd "$d/region"
        [[ -n $VAL ]] || echo "$d $size"
    done
    return 0
}

state_problems() {
    local d r size VAL
    while read -r d size; do
        rd "$d/mode"
        echo "${d##*/} holds dpa_size $size outside a region (mode $VAL)"
    done < <(held_decoders)
    regions > /dev/null
    for r in "${REGIONS[@]}"; do
        rd "$CXL/$r/commit"
        [[ $VAL == 1 ]] || echo "$r left uncommitted (size $(cat $CXL/$r/size 2>/dev/null), target0 '$(cat $CXL/$r/target0 2>/dev/null)')"
    done
    # a killed run's record the recovery should have handled and removed
    for r in /run/cxltier/auto-online.held /run/cxltier/region-change.*; do
        [[ -e $r ]] && echo "$r left: $(tr '\n' ' ' < "$r")"
    done
    return 0
}

# the regions left, with their state, for the report
regions_left() {
    local r out= VAL
    regions > /dev/null
    for r in "${REGIONS[@]}"; do
        rd "$CXL/$r/commit"
        out+="${out:+, }$r (commit $VAL, $([[ -e $CXL/$r/driver ]] && echo bound || echo unbound))"
    done
    echo "${out:-none}"
}

# the machine put back by hand between kill points: a memdev an
# `offline --remove` disabled bound again, every region destroyed (the last
# created first), capacity held for no region freed (an endpoint gives it
# back last-allocated first), then nothing may be left
force_clean() {
    local d m i by_index=()
    for m in $(unbound_memdevs); do
        echo "$m" > /sys/bus/cxl/drivers/cxl_mem/bind 2>/dev/null || true
        vm_wait 60 "$m's endpoint, bound again" vm_endpoint_ready "$m" ||
            fail "the machine could not be put back by hand: $m, disabled, does not come back"
    done
    regions > /dev/null
    for (( i = ${#REGIONS[@]} - 1; i >= 0; i-- )); do
        cxltier region destroy "${REGIONS[i]}" --offline >/dev/null 2>&1 || true
    done
    while read -r d _; do by_index[${d##*.}]+=" $d"; done < <(held_decoders)
    local idx=("${!by_index[@]}")
    for (( i = ${#idx[@]} - 1; i >= 0; i-- )); do
        for d in ${by_index[idx[i]]}; do echo 0 > "$d/dpa_size" || true; done
    done
    [[ -z $(regions) && -z $(state_problems) ]] ||
        fail "the machine could not be put back by hand: regions $(regions_left); $(state_problems | tr '\n' ';')"
}

# a message on one line
one_line() {
    local m=${1//$'\n'/ }
    while [[ $m == *'  '* ]]; do m=${m//  / }; done
    echo "${m% }"
}

# the killed write: the last line of the crash log ("N what")
killed_at() {
    local line last="(no crash log)"
    [[ -f $1 ]] && while IFS= read -r line; do last=$line; done < "$1"
    echo "$last"
}

# the number of lines of a crash log
log_lines() { local l=(); [[ -f $1 ]] && mapfile -t l < "$1"; echo "${#l[@]}"; }

# the memdevs bound to no driver (an `offline --remove` disabled them), one a line
unbound_memdevs() { local m; for m in $CXL/mem[0-9]*; do [[ ! -e $m || -e $m/driver ]] || echo "${m##*/}"; done; }

# the driver DAX is bound to ("" none)
dax_driver() { local l; l=$(readlink "/sys/bus/dax/devices/$1/driver" 2>/dev/null) || true; echo "${l##*/}"; }

# what is not online movable among DAX's blocks, one line each naming them
# as OWNER's (default DAX); a device with no blocks is one such line
blocks_not_movable() {
    local dax=$1 owner=${2:-$1} b blocks state VAL
    blocks=$(vm_blocks_of "$dax")
    [[ -n $blocks ]] || { echo "$dax has no memory blocks (its driver: $(dax_driver "$dax"))"; return; }
    for b in $blocks; do
        rd $MEMSYS/$b/state; state=$VAL
        rd $MEMSYS/$b/valid_zones
        [[ $state == online && $VAL == Movable ]] || echo "$b of $owner: $state, zones $VAL"
    done
}

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
    local VAL
    rd $MEMSYS/auto_online_blocks
    AUTO_ONLINE=$VAL
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
    local VAL
    problems=$(state_problems)
    rd $MEMSYS/auto_online_blocks
    [[ $VAL == "$AUTO_ONLINE" ]] ||
        problems+="${problems:+$'\n'}auto_online_blocks is $VAL, was $AUTO_ONLINE"
    [[ -z $problems ]] || verdict="NOT CLEAN: $(one_line "$problems"); regions: $(regions_left)"
    echo "# $label N=$n killed at: $killed; recovery: exit $rs: $(one_line "$rmsg"); state: $verdict" >&3
    [[ $verdict == clean ]] || FAILED+=("N=$n ($killed): $verdict")
    # (a walk whose setup puts its region back as it was keeps it; a clean
    # machine with no region and every memdev bound needs nothing)
    [[ -n ${WALK_KEEPS_REGIONS:-} ]] || [[ $verdict == clean && -z $(regions) && -z $(unbound_memdevs) ]] || force_clean
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
        CXLTIER_CRASH_AT=$n CXLTIER_CRASH_LOG=$log run cxltier region create "$@"
        if [[ $status == 0 ]]; then
            steps=$((n - 1))
            assert_equal "$(log_lines "$log")" "$steps"
            echo "# $what: completes after $steps kernel writes: $(cut -d' ' -f2- "$log" | tr '\n' ';')" >&3
            break
        fi
        assert_equal "$status" 137   # SIGKILL, nothing else
        assert_equal "$(log_lines "$log")" "$n"
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
        CXLTIER_CRASH_AT=$n CXLTIER_CRASH_LOG=$log run cxltier region destroy "$r" --offline
        if [[ $status == 0 ]]; then
            steps=$((n - 1))
            assert_equal "$(log_lines "$log")" "$steps"
            [[ ! -e $CXL/$r ]] || fail "$r is still there after a destroy that completed"
            echo "# $what: completes after $steps kernel writes: $(cut -d' ' -f2- "$log" | tr '\n' ';')" >&3
            break
        fi
        assert_equal "$status" 137   # SIGKILL, nothing else
        assert_equal "$(log_lines "$log")" "$n"
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
    local r ep VAL
    ep=$(vm_endpoint_of "$1") || return 0   # (a memdev disabled: no endpoint, no region)
    for r in $(regions); do
        rd "$CXL/$r/target0"
        [[ $VAL == decoder${ep#endpoint}.* ]] && { echo "$r"; return; }
    done
    return 0
}

# what the policy's outcome lacks for MEMDEV: a committed region over it
# whose blocks are all online movable (one line each; nothing: complete)
policy_problems() {
    local r dax
    r=$(region_over "$1")
    [[ -n $r ]] || { echo "no region over $1"; return; }
    dax=$(vm_dax_of "$r" 2>/dev/null)
    [[ -n $dax ]] || { echo "$r has no dax device"; return; }
    blocks_not_movable "$dax" "$r"
}

# crash_walk_policy MEMDEV...: `online --policy MEMDEV...` for memdevs that
# back no region, the policy saying create-region = yes (a hot-added card, or
# cards hot-added together, as the watch runs it), killed at its kernel
# writes (crash_walk); after each, the recovery the watch's next run is (the
# same command again), then the machine checked: clean, a committed region
# over each MEMDEV with every block online movable, auto_online_blocks as it
# was. One memdev: the kill points are the region's first write and its
# commit (every create step between is walked by the create walk,
# crash-region-two-devices.bats) and every write after the commit, of the
# block onlines (one write each, all alike) the first and the last. (The
# first complete run leaves what every later one finds: the decoder's mode
# set to ram stays after its capacity is freed, one write fewer.) Several:
# the seams of the batch (batch_points).
crash_walk_policy() {
    POLICY_MEMDEVS=("$@") POLICY_CONF=$BATS_TEST_TMPDIR/policy.conf
    printf '[defaults]\ncreate-region = yes\n' > "$POLICY_CONF"
    walk_setup() { :; }   # (each point starts where force_clean leaves the machine: no region)
    walk_run() { cxltier online --policy --config "$POLICY_CONF" "${POLICY_MEMDEVS[@]}"; }
    walk_problems() { local m; for m in "${POLICY_MEMDEVS[@]}"; do policy_problems "$m"; done; }
    unset -f walk_points
    (( $# == 1 )) || walk_points() { batch_points "$1"; }
    crash_walk "online --policy $* (create-region = yes)" '/memory[0-9]+/state = online_movable$' \
        '/region[0-9]+/commit = 1$'
}

# batch_points LOG: the kill points of a policy run that makes several
# regions where the batch has seams of its own: each later region's first
# write (create_ram_region: the regions before it complete) and the last
# region's bind (every region made, none onlined); one number a line. (A
# region's steps, the first write and the block onlines, after the hold is
# let go as in a one-memdev run, are walked by crash_walk_policy MEMDEV:
# each point here is a dozen seconds of emulation.)
batch_points() {
    awk '{ w = $0; sub(/^[0-9]+ /, "", w) }
         w ~ /\/create_ram_region = / { if (creates++) print NR }
         w ~ /\/cxl_region\/bind = / { bind = NR }
         END { if (bind) print bind }' "$1" | sort -nu
}

# kill_points LOG ALIKE [FROM]: the kill points of a command whose complete
# run's writes LOG lists: every write, but of those matching ALIKE (an
# extended regular expression on "PATH = VALUE": the block changes, one
# write each, all alike and the costliest points under emulation) the first
# and the last only; with FROM, of the writes before the first that matches
# it only the first (the steps between are walked by another walk); one
# number a line. Status 3 when FROM matches no write.
kill_points() {
    local out
    out=$(awk -v re="$2" -v from="${3:-}" '{ w = $0; sub(/^[0-9]+ /, "", w)
                      if (from != "" && !seen) { if (w ~ from) seen = 1; else { if (NR == 1) print NR; next } }
                      if (w ~ re) { if (!first) first = NR; last = NR } else print NR }
                    END { if (first) { print first; print last }; if (from != "" && !seen) exit 3 }' "$1") || return
    sort -nu <<<"$out"
}

# crash_walk WHAT ALIKE [FROM]: a command killed at its kill points (kill_points;
# the test's walk_points LOG instead, when it defines one), the walk's three
# functions, defined by the test, doing the rest:
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
    local what=$1 alike=$2 from=${3:-} all=$BATS_TEST_TMPDIR/walk-all.log n log rs out points=() list
    walk_setup
    run walk_run
    assert_success
    [[ -n ${WALK_KEEPS_REGIONS:-} ]] || force_clean
    walk_setup
    CXLTIER_CRASH_AT=9999 CXLTIER_CRASH_LOG=$all run walk_run
    assert_success
    [[ -z $(walk_problems) ]] || fail "a run of $what that completed left: $(one_line "$(walk_problems)")"
    [[ -n ${WALK_KEEPS_REGIONS:-} ]] || force_clean
    if declare -F walk_points > /dev/null; then
        list=$(walk_points "$all")
    else
        list=$(kill_points "$all" "$alike" "$from") ||
            fail "no write of $what matches '$from': $(cut -d' ' -f2- "$all" | tr '\n' ';')"
    fi
    mapfile -t points <<<"$list"
    (( ${#points[@]} )) || fail "$what made no kernel write the crash points count"
    echo "# $what: $(wc -l < "$all") kernel writes, ${#points[@]} kill points walked (${points[*]}): $(cut -d' ' -f2- "$all" | tr '\n' ';')" >&3
    FAILED=()
    for n in "${points[@]}"; do
        log=$BATS_TEST_TMPDIR/walk-$n.log
        walk_setup
        CXLTIER_CRASH_AT=$n CXLTIER_CRASH_LOG=$log run walk_run
        assert_equal "$status" 137   # SIGKILL, nothing else
        assert_equal "$(log_lines "$log")" "$n"
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
