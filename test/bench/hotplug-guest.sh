# SPDX-License-Identifier: GPL-2.0
# hotplug-guest.sh - the guest side of test/bench/hotplug.sh (run as
# /share/run.sh's body under systemd as PID 1, topology hotplug4): Type-3
# cards hot-added over QMP until every block of each is online movable.
# Sides, rotating from round to round:
#   chain   device_add; udev (90-cxltier.rules) -> cxltier-hotplug.service
#           (`cxltier hotplug`, resident) -> cxltier online --policy does the rest
#   floor   the rule off; device_add, and a minimal script of the sysfs
#           writes (region over the card, committed, bound; each block
#           written online_movable), started with it (polling for the memdev)
#   kernel  the rule off, auto_online_blocks=online_movable; the same script
#           up to the region's bind, the kernel onlines the blocks
#   four    four cards at once through the chain
#   fourfloor  four cards at once, the floor's script for each (not by default)
# Time runs from the kernel's first sight of a card (pciehp's "Card
# present"; the guest is stopped while QEMU adds the cards) to the first
# poll (every POLL s) that finds every block of the window online movable
# and as many as the cards have. Each run is verified (every block
# of each card's region online movable) and torn down untimed (blocks
# offline, region deleted, device_del). Lines "BENCH ..." go to /share/bench.log.
# Settings (from run.sh's head): ROUNDS SIZE POLL SIDES PROFILE (profiled chain
# runs: udevadm monitor and cxltier -vv; their times are not counted).
. /usr/share/cxltier-vm/lib.sh
LOG=/share/bench.log
say() { echo "$*" >> $LOG; }
mkdir -p /etc /run/udev/rules.d
printf '%s\n' '[defaults]' 'create-region = yes' > /etc/cxltier.conf
read -r bs < $MEMSYS/block_size_bytes; BS=$((16#$bs))
NBLK=$(( SIZE / BS ))
# the window every card's region is made in, and the first block it holds
ROOTDEC=decoder0.0
read -r wstart < $CXL/$ROOTDEC/start
FIRST=$(( wstart / BS ))
read -r AUTO0 < $MEMSYS/auto_online_blocks
mkfifo /tmp/nap; exec {NAP}<>/tmp/nap
nap() { read -t "$POLL" -u $NAP _ || :; }   # a sleep without a fork
say "BENCH start blocks=$NBLK block=$BS window=$ROOTDEC first=$FIRST auto=$AUTO0 kernel=$(uname -r) poll=$POLL"

# every block of the window (id >= FIRST) online movable, and $1 of them
window_done() {
    local b n=0 s z
    for b in $MEMSYS/memory[0-9]*; do
        (( ${b##*memory} >= FIRST )) || continue
        read -r s < "$b/state"; [[ $s == online ]] || return 1
        read -r z < "$b/valid_zones"; [[ $z == Movable ]] || return 1
        n=$((n + 1))
    done
    (( n == $1 ))
}

# qmp_batch REQ...: the requests to the host's QMP agent at once; returns
# when every reply is there (status 1 when one is an error)
QN=0
qmp_batch() {
    local d=/share/qmp r i n names=() bad=0 left
    for r in "$@"; do
        n=b$$-$((QN++)); names+=("$n")
        printf '%s\n' "$r" > "$d/$n.tmp" && mv "$d/$n.tmp" "$d/$n.req"
    done
    for ((i = 0; i < 120000; i++)); do
        left=0
        for n in "${names[@]}"; do [[ -f $d/$n.resp ]] || left=1; done
        (( left )) || break
        read -t 0.005 -u $NAP _ || :
    done
    for n in "${names[@]}"; do
        [[ -f $d/$n.resp ]] || { echo "qmp_batch: no reply to $n" >&2; bad=1; continue; }
        r=$(< "$d/$n.resp"); rm -f "$d/$n.resp"
        [[ $r != *'"error"'* ]] || { echo "qmp_batch: $r" >&2; bad=1; }
    done
    return $bad
}
# plug REQ...: the device_add requests as one list, the guest stopped
# meanwhile ([stop, REQ..., reply, cont]: qmp.py): its clock stands still
# while QEMU adds the devices, and the reply is there when it runs again;
# polled every millisecond, it is seen within one of the devices' coming
plug() {
    local d=/share/qmp n=p$$-$((QN++)) r i
    r=$(IFS=,; echo "[{\"execute\":\"stop\"},$*,{\"agent\":\"reply\"},{\"execute\":\"cont\"}]")
    printf '%s\n' "$r" > "$d/$n.tmp" && mv "$d/$n.tmp" "$d/$n.req"
    for ((i = 0; i < 600000; i++)); do
        [[ -f $d/$n.resp ]] && break
        read -t 0.001 -u $NAP _ || :
    done
    [[ -f $d/$n.resp ]] || { echo "plug: no reply" >&2; return 1; }
    r=$(< "$d/$n.resp"); rm -f "$d/$n.resp"
    [[ $r != *'"error"'* ]] || { echo "plug: $r" >&2; return 1; }
}
CARD=0
backend() { # ID: a memory backend of SIZE (a device needs one of its own, QEMU keeps it after device_del)
    qmp_batch "{\"execute\":\"object-add\",\"arguments\":{\"qom-type\":\"memory-backend-ram\",\"id\":\"$1-mem\",\"size\":$SIZE,\"share\":true}}"
}
devadd() { # ID PORT SERIAL
    echo "{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"cxl-type3\",\"bus\":\"$2\",\"volatile-memdev\":\"$1-mem\",\"id\":\"$1\",\"sn\":$3}}"
}

# the floor: a minimal script of the sysfs writes for the card with serial
# $1: its memdev and endpoint (polled), a region over it on the window,
# committed and bound; then, unless $2 is "kernel", each block of its dax
# device online_movable
floor_script() {
    local sn=$1 m= ep= e s dec r size dax res n i
    until [[ -n $ep ]]; do
        for m in $CXL/mem[0-9]*; do
            [[ -e $m/serial ]] && read -r s < "$m/serial" && (( s == sn )) && break
            m=
        done
        if [[ -n $m ]]; then
            for e in $CXL/endpoint*; do
                [[ $e/uport -ef $m && -e $e/driver && -e $e/decoder${e##*endpoint}.0 ]] && { ep=$e; break; }
            done
        fi
        [[ -n $ep ]] || nap
    done
    dec=decoder${ep##*endpoint}.0
    read -r size < "$m/ram/size"
    # (another script may take the name first: the next one then)
    for ((i = 0; i < 100; i++)); do
        read -r r < $CXL/$ROOTDEC/create_ram_region
        echo "$r" 2>/dev/null > $CXL/$ROOTDEC/create_ram_region && break
    done
    (( i < 100 )) || return 1
    echo 256 > $CXL/$r/interleave_granularity || return 1
    echo 1 > $CXL/$r/interleave_ways || return 1
    echo ram > $CXL/$dec/mode || return 1
    echo "$size" > $CXL/$dec/dpa_size || return 1
    echo "$size" > $CXL/$r/size || return 1
    echo "$dec" > $CXL/$r/target0 || return 1
    echo 1 > $CXL/$r/commit || return 1
    echo "$r" > /sys/bus/cxl/drivers/cxl_region/bind || return 1
    [[ $2 == kernel ]] && return 0
    # its dax device (bound to kmem by the kernel), then its blocks
    for dax in $CXL/$r/dax_region*/dax*.*; do break; done
    until [[ -e $dax/driver ]]; do
        nap
        for dax in $CXL/$r/dax_region*/dax*.*; do break; done
    done
    dax=/sys/bus/dax/devices/${dax##*/}
    read -r res < "$dax/resource"; read -r n < "$dax/size"
    for ((i = res / BS; i < (res + n) / BS; i++)); do
        until [[ -e $MEMSYS/memory$i/state ]]; do nap; done
        echo online_movable > $MEMSYS/memory$i/state || return 1
    done
}

# verification: every block of the region over memdev M online movable
verify() { # SERIAL...: prints what is wrong
    local sn m s ep r d res n i st z bad=0
    for sn in "$@"; do
        ep= r=
        for m in $CXL/mem[0-9]*; do
            [[ -e $m/serial ]] && read -r s < "$m/serial" && (( s == sn )) && break
            m=
        done
        [[ -n $m ]] || { echo "no memdev with serial $sn"; bad=1; continue; }
        for r in $CXL/region[0-9]*; do
            [[ -e $r/target0 ]] || continue
            read -r s < "$r/target0"
            ep=endpoint${s#decoder}; ep=${ep%.*}   # (a decoder is named after its port's id)
            [[ $CXL/$ep/uport -ef $m ]] && break
            r=
        done
        [[ -n $r ]] || { echo "no region over ${m##*/}"; bad=1; continue; }
        d=$(compgen -G "$r/dax_region*/dax*.*") || { echo "no dax device in ${r##*/}"; bad=1; continue; }
        d=/sys/bus/dax/devices/${d##*/}
        read -r res < "$d/resource"; read -r n < "$d/size"
        (( n == SIZE )) || { echo "${d##*/}: size $n"; bad=1; }
        for ((i = res / BS; i < (res + n) / BS; i++)); do
            read -r st < $MEMSYS/memory$i/state; read -r z < $MEMSYS/memory$i/valid_zones
            [[ $st == online && $z == Movable ]] || { echo "memory$i ($sn): $st $z"; bad=1; }
        done
    done
    return $bad
}

# udev and systemd are done, and cxltier-hotplug.service has no run under
# way (its cgroup holds the watch alone, or nothing)
HPCG=/sys/fs/cgroup/system.slice/cxltier-hotplug.service/cgroup.procs
settled() {
    local n=0 p
    udevadm settle --timeout=0 || return 1
    [[ -z $(systemctl list-jobs --no-legend 'cxltier-hotplug.service' 2>/dev/null) ]] || return 1
    if [[ -e $HPCG ]]; then while read -r p; do n=$((n + 1)); done < $HPCG; fi
    (( n <= 1 ))
}
vwait() { vm_wait "$@" 2>&1 | sed 's/^/BENCH note: /' >> $LOG; return "${PIPESTATUS[0]}"; }

# teardown (untimed): every region of the window offline and deleted, then
# each card device_del'd until the kernel and QEMU let it go
teardown() { # ID...
    local r d res n i st id
    vwait 300 "udev and systemd to settle" settled || say "BENCH note: not settled before teardown"
    for r in $CXL/region[0-9]*; do
        [[ -e $r ]] || continue
        if d=$(compgen -G "$r/dax_region*/dax*.*"); then
            d=/sys/bus/dax/devices/${d##*/}
            read -r res < "$d/resource"; read -r n < "$d/size"
            for ((i = res / BS; i < (res + n) / BS; i++)); do
                read -r st < $MEMSYS/memory$i/state
                [[ $st == offline ]] || echo offline > $MEMSYS/memory$i/state ||
                    say "BENCH note: memory$i would not go offline"
            done
        fi
        echo "${r##*/}" > $CXL/$ROOTDEC/delete_region || say "BENCH note: ${r##*/} not deleted"
    done
    for id in "$@"; do
        qmp_batch "{\"execute\":\"device_del\",\"arguments\":{\"id\":\"$id\"}}" || say "BENCH note: device_del $id failed"
    done
    vwait 300 "the cards' memdevs to go" eval '! compgen -G "$CXL/mem[1-9]*" >/dev/null'
    for id in "$@"; do
        vwait 300 "QEMU to finish unplugging $id" eval "! host_qmp '{\"execute\":\"qom-list\",\"arguments\":{\"path\":\"/machine/peripheral\"}}' | grep -q '\"$id\"'"
    done
    vwait 300 "udev and systemd to settle after the unplug" settled || say "BENCH note: not settled after teardown"
    echo "$AUTO0" > $MEMSYS/auto_online_blocks
}

rule() { # on|off: cxltier's udev rule, overridden at run time by /dev/null
    if [[ $1 == off ]]; then ln -sf /dev/null /run/udev/rules.d/90-cxltier.rules
    else rm -f /run/udev/rules.d/90-cxltier.rules; fi
    udevadm control --reload
}

# mark NAME: a line in the kernel's log, and the realtime clock around it
# (microseconds): the kernel's log times placed on the guest's clock
mark() {
    local a=${EPOCHREALTIME/./}
    echo "hotplug-bench mark $1" > /dev/kmsg
    MARK_RT[$1]=$(( (a + ${EPOCHREALTIME/./}) / 2 ))
}
declare -A MARK_RT=()
# card_time A B: when the guest first got one of the cards, on the realtime
# clock: pciehp's first "Card present" between the marks A and B in the
# kernel's log, its time mapped through the marks' (status 1: none found)
card_time() {
    local l ta= tb= tc= re='^\[ *([0-9]+)\.([0-9]{6})\] (.*)$'
    while IFS= read -r l; do
        [[ $l =~ $re ]] || continue
        case ${BASH_REMATCH[3]} in
            "hotplug-bench mark $1") ta=$((10#${BASH_REMATCH[1]}${BASH_REMATCH[2]})) ;;
            "hotplug-bench mark $2") tb=$((10#${BASH_REMATCH[1]}${BASH_REMATCH[2]})) ;;
            *"pciehp: Slot("*"): Card present")
                [[ -n $ta && -z $tb && -z $tc ]] && tc=$((10#${BASH_REMATCH[1]}${BASH_REMATCH[2]})) ;;
        esac
    done < <(dmesg)
    [[ -n $ta && -n $tb && -n $tc ]] || return 1
    echo $(( MARK_RT[$1] + (tc - ta) * (MARK_RT[$2] - MARK_RT[$1]) / (tb - ta) ))
}

# one run of a side; says BENCH run SIDE MICROSECONDS (or BENCH drop). Its
# time runs from the kernel's first sight of the card (pciehp's "Card
# present", read back from the kernel's log afterwards: the guest hears of
# the QMP reply through the share, whose latency on the host shows in guest
# time as a jump to its next timer) to the poll that finds every block online
# movable; "BENCH seen" says how much later the guest saw the QMP reply.
run_side() { # SIDE ROUND
    local side=$1 k ids=() ports=() sns=() reqs=() t0 t1 seen n=1 ok=1 why fpid=
    [[ $side == four* ]] && n=4
    for ((k = 0; k < n; k++)); do
        CARD=$((CARD + 1))
        ids+=("hb$CARD"); ports+=("cxl_rp_hp$k"); sns+=($((0x9b00 + CARD)))
        backend "hb$CARD" || { say "BENCH drop $side $2 object-add failed"; return 1; }
        reqs+=("$(devadd "hb$CARD" "cxl_rp_hp$k" $((0x9b00 + CARD)))")
    done
    case $side in
        chain|four|profile) rule on ;;
        floor|fourfloor) rule off ;;
        kernel) rule off; echo online_movable > $MEMSYS/auto_online_blocks ;;
    esac
    mark "a$CARD"
    # the floor's script is started as the card is: before it (it polls
    # for the memdev), as the reply may be seen after the memdev came
    case $side in
        floor|kernel) floor_script "${sns[0]}" "$side" & fpid=$! ;;
        fourfloor) for k in "${sns[@]}"; do floor_script "$k" floor & fpid+=" $!"; done ;;
    esac
    plug "${reqs[@]}" 2>>$LOG || { say "BENCH drop $side $2 device_add failed"; [[ -z $fpid ]] || kill $fpid 2>/dev/null; teardown "${ids[@]}"; return 1; }
    seen=${EPOCHREALTIME/./}
    for k in $fpid; do wait "$k" || ok=0; done
    if (( ok )); then
        # (bounded: 600 s of guest time)
        for ((k = 0; ; k++)); do
            window_done $((n * NBLK)) && break
            (( ${EPOCHREALTIME/./} - seen > 600000000 )) && { ok=0; break; }
            nap
        done
    fi
    t1=${EPOCHREALTIME/./}
    mark "b$CARD"
    t0=$(card_time "a$CARD" "b$CARD") || { say "BENCH note: $side $2: no pciehp 'Card present' in the kernel's log: timed from the QMP reply"; t0=$seen; }
    if (( ok )) && why=$(verify "${sns[@]}"); then
        say "BENCH run $side $(( t1 - t0 )) round $2"
        say "BENCH seen $side $2 $(( seen - t0 ))"
        say "BENCH times $side $2 $t0 $t1"   # (the journal's lines placed by them)
    else
        say "BENCH drop $side $2 ${why//$'\n'/; }"
        journalctl --no-pager -o short-monotonic -u cxltier-hotplug.service | tail -20 | sed 's/^/BENCH note: /' >> $LOG
    fi
    [[ $side == profile ]] && say "BENCH t0 $side $2 $t0" && say "BENCH t1 $side $2 $t1"
    teardown "${ids[@]}"
}

# profiled chain runs: udevadm monitor's event times and cxltier -vv's
# phases in the journal (not counted in the timed sides)
exe=$(systemctl show -P ExecStart cxltier-hotplug.service | sed -n 's/.*path=\([^ ;]*\).*/\1/p')
profile() { # ROUND
    local mon
    mkdir -p /run/systemd/system/cxltier-hotplug.service.d
    printf '[Service]\nExecStart=\nExecStart=%s hotplug --timeout 60 -vv\n' "$exe" \
        > /run/systemd/system/cxltier-hotplug.service.d/vv.conf
    systemctl daemon-reload
    systemctl try-restart cxltier-hotplug.service
    vwait 300 "udev and systemd to settle after the restart" settled
    udevadm monitor --kernel --udev --subsystem-match=cxl --subsystem-match=dax > /tmp/mon.$1 &
    mon=$!
    sleep 1
    run_side profile "$1"
    say "BENCH t2 profile $1 ${EPOCHREALTIME/./}"
    kill $mon; wait $mon 2>/dev/null
    grep -E '(bind|add) +/.*/(mem[0-9]+|dax[0-9]+\.[0-9]+) \((cxl|dax)\)' /tmp/mon.$1 | sed "s/^/BENCH mon $1 /" >> $LOG
    rm -r /run/systemd/system/cxltier-hotplug.service.d
    systemctl daemon-reload
    systemctl try-restart cxltier-hotplug.service
    vwait 300 "udev and systemd to settle after the restart" settled
}

# the journal: systemd's and cxltier's lines of cxltier-hotplug.service,
# with both clocks (realtime and monotonic, microseconds)
journal() {
    journalctl --no-pager -o json -u cxltier-hotplug.service |
        jq -r '"BENCH journal \(.__REALTIME_TIMESTAMP) \(.__MONOTONIC_TIMESTAMP) \(.UNIT // ._SYSTEMD_UNIT // "-") \(.MESSAGE)"' >> $LOG
}

# what starting a unit costs, apart from what cxltier does (what a unit per
# device paid at every device, and cxltier-hotplug.service pays once):
# `cxltier --version` run by hand, as a oneshot service without a sandbox,
# and as one with cxltier-hotplug.service's sandbox (its unit file,
# ExecStart and Type replaced)
startup() {
    local i t u=/run/systemd/system
    sed -e "s|^ExecStart=.*|ExecStart=$exe --version|" -e 's/^Type=.*/Type=oneshot/' \
        -e '/^\(Description\|NotifyAccess\|Restart\|RestartSec\)=/d' \
        /usr/lib/systemd/system/cxltier-hotplug.service > $u/hb-sandboxed.service
    printf '[Service]\nType=oneshot\nExecStart=%s --version\n' "$exe" > $u/hb-bare.service
    systemctl daemon-reload
    for ((i = 0; i < 5; i++)); do
        t=${EPOCHREALTIME/./}; "$exe" --version > /dev/null; say "BENCH start-up exec $(( ${EPOCHREALTIME/./} - t ))"
        t=${EPOCHREALTIME/./}; systemctl start hb-bare.service; say "BENCH start-up bare-unit $(( ${EPOCHREALTIME/./} - t ))"
        t=${EPOCHREALTIME/./}; systemctl start hb-sandboxed.service; say "BENCH start-up sandboxed-unit $(( ${EPOCHREALTIME/./} - t ))"
    done
    # and each line of its [Service] section alone (but ExecStart and Type)
    local line k=0
    while IFS= read -r line; do
        k=$((k + 1))
        printf '[Service]\nType=oneshot\nExecStart=%s --version\n%s\n' "$exe" "$line" > $u/hb-one$k.service
    done < <(sed -n '/^\[Service\]/,$p' /usr/lib/systemd/system/cxltier-hotplug.service |
             grep -Ev '^(\[|#|$|ExecStart=|Type=|NotifyAccess=|Restart=|RestartSec=)')
    systemctl daemon-reload
    for ((i = 0; i < 3; i++)); do
        for ((j = 1; j <= k; j++)); do
            line=$(sed -n 4p $u/hb-one$j.service)
            t=${EPOCHREALTIME/./}; systemctl start hb-one$j.service
            say "BENCH start-up one-line $(( ${EPOCHREALTIME/./} - t )) ${line// /_}"
        done
    done
    rm $u/hb-bare.service $u/hb-sandboxed.service $u/hb-one*.service
    systemctl daemon-reload
}

settled || vwait 300 "udev and systemd to settle at boot" settled
# running, as on a machine that booted with a CXL memdev (udev's coldplug
# starts it; this guest boots without it): the first card does not pay its
# start (and the profile's runs, a warm-up, restart it with -vv anyway)
systemctl start cxltier-hotplug.service
for ((p = 0; p < PROFILE; p++)); do profile $p; done   # (the first: a warm-up too)
(( PROFILE == 0 )) || startup
journal
read -ra sides <<< "$SIDES"
for ((i = 0; i < ROUNDS; i++)); do
    for ((k = 0; k < ${#sides[@]}; k++)); do
        run_side "${sides[(i + k) % ${#sides[@]}]}" "$i"
    done
done
journal
say "BENCH end"
