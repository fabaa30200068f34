# SPDX-License-Identifier: GPL-2.0
# Helpers for scripts and bats tests inside the cxltier VM guest.
# Source it: . /usr/share/cxltier-vm/lib.sh

CXL=/sys/bus/cxl/devices
MEMSYS=/sys/devices/system/memory

# host_qmp JSON [TIMEOUT]: ask the host to run one QMP request against this
# guest's QEMU (e.g. to inject a CXL event); prints the reply.
host_qmp() {
    local req=$1 t=${2:-30} d=/share/qmp n i=0 resp
    mkdir -p "$d"
    n=$$-$RANDOM-$(date +%s)
    printf '%s\n' "$req" > "$d/$n.tmp" && mv "$d/$n.tmp" "$d/$n.req"
    while [ $i -lt $((t * 20)) ]; do
        if [ -f "$d/$n.resp" ]; then
            resp=$(cat "$d/$n.resp"); rm -f "$d/$n.resp"
            echo "$resp"
            case $resp in *'"error"'*) return 1 ;; esac
            return 0
        fi
        sleep 0.05; i=$((i + 1))
    done
    echo "host_qmp: no reply to $req" >&2
    return 1
}

# vm_create_ram_region [-r ROOTDECODER] MEMDEV...: a RAM region over the
# whole volatile capacity of each memdev, through sysfs (bookworm's libcxl
# cannot create RAM regions): create_ram_region on the root decoder (the
# first whose window reaches every memdev's host bridge, or -r), interleave
# ways and granularity, each endpoint decoder's mode and dpa_size, the
# region's size, targetN in the order the window's host bridges require,
# commit, bind. Prints the region name once its dax device is there. The dax
# device binds to kmem by itself; its blocks stay offline (the guest boots
# with memhp_default_state=offline).
vm_create_ram_region() {
    local root= r m ep dec size=0 i=0 ways gran ordered
    if [ "${1:-}" = -r ]; then root=$2; shift 2; fi
    [ $# -gt 0 ] || { echo "vm_create_ram_region: no memdev given" >&2; return 1; }
    ways=$#
    [ -n "$root" ] || root=$(vm_root_decoder_for "$@") || return 1
    ordered=$(vm_region_order "$root" "$@") || return 1
    # a window interleaving host bridges fixes the granularity
    gran=256
    [ "$(cat $CXL/$root/interleave_ways)" -gt 1 ] && gran=$(cat $CXL/$root/interleave_granularity)
    r=$(cat $CXL/$root/create_ram_region) || return 1
    echo "$r" > $CXL/$root/create_ram_region ||
        { echo "vm_create_ram_region: $root: cannot create $r" >&2; return 1; }
    echo "$gran" > $CXL/$r/interleave_granularity || return 1
    echo "$ways" > $CXL/$r/interleave_ways || return 1
    for m in $ordered; do
        ep=$(vm_endpoint_of "$m") || return 1
        dec=$(vm_free_decoder "$ep") || { echo "vm_create_ram_region: no free decoder on $ep ($m)" >&2; return 1; }
        echo ram > $CXL/$dec/mode || return 1
        printf '0x%x\n' "$(cat $CXL/$m/ram/size)" > $CXL/$dec/dpa_size || return 1
        size=$((size + $(cat $CXL/$m/ram/size)))
    done
    printf '0x%x\n' $size > $CXL/$r/size || return 1
    for m in $ordered; do
        ep=$(vm_endpoint_of "$m")
        dec=$(vm_decoder_for_region "$ep")
        echo "$dec" > $CXL/$r/target$i ||
            { echo "vm_create_ram_region: $r: $dec ($m) refused as target$i" >&2; return 1; }
        i=$((i + 1))
    done
    echo 1 > $CXL/$r/commit || { echo "vm_create_ram_region: commit of $r failed" >&2; return 1; }
    echo "$r" > /sys/bus/cxl/drivers/cxl_region/bind || return 1
    vm_wait 60 "the dax device of $r" vm_has_dax "$r" || return 1
    echo "$r"
}

vm_has_dax() { ls -d $CXL/$1/dax_region*/dax*.* >/dev/null 2>&1; }

# vm_wait SECONDS WHAT CMD...: poll CMD until it succeeds or the deadline
# passes (then say what was waited for, status 1)
vm_wait() {
    local secs=$1 what=$2 deadline
    shift 2
    deadline=$(( ${EPOCHREALTIME/./} + secs * 1000000 ))
    until "$@"; do
        if (( ${EPOCHREALTIME/./} > deadline )); then
            echo "timed out after ${secs}s waiting for $what" >&2
            return 1
        fi
        sleep 0.05
    done
}

# vm_host_bridge_of MEMDEV -> the host bridge's port (portN below root0)
vm_host_bridge_of() {
    local ep p
    ep=$(vm_endpoint_of "$1") || return 1
    p=$(readlink -f "$CXL/$ep")
    p=${p#*/root0/}
    echo "${p%%/*}"
}

# vm_host_bridge_id PORT -> the id root0 and its decoders' target_list use
vm_host_bridge_id() {
    local d u
    u=$(readlink -f "$CXL/$1/uport")
    for d in $CXL/root0/dport*; do
        [ "$(readlink -f "$d")" = "$u" ] && { echo "${d##*/dport}"; return 0; }
    done
    echo "vm_host_bridge_id: $1 is not a dport of root0" >&2; return 1
}

# vm_root_decoder_for MEMDEV... -> the first RAM-capable root decoder whose
# targets are exactly the memdevs' host bridges
vm_root_decoder_for() {
    local d m ids= want t n
    for m in "$@"; do
        t=$(vm_host_bridge_id "$(vm_host_bridge_of "$m")") || return 1
        case ",$ids," in *",$t,"*) ;; *) ids=${ids:+$ids,}$t ;; esac
    done
    want=$(echo "$ids" | tr , '\n' | sort | tr '\n' ' ')
    for d in $CXL/root0/decoder0.*; do
        [ "$(cat "$d/cap_ram" 2>/dev/null)" = 1 ] || continue
        n=$(tr , '\n' < "$d/target_list" | sort | tr '\n' ' ')
        [ "$n" = "$want" ] && { basename "$d"; return 0; }
    done
    echo "vm_root_decoder_for: no RAM window over host bridge(s) $ids" >&2; return 1
}

# vm_region_order ROOTDECODER MEMDEV... -> the memdevs in target order:
# position p must sit below the window's target (p mod ways), so memdevs go
# round-robin over the window's host bridges, in its target_list order
vm_region_order() {
    local root=$1 t m k more; shift
    local -a ms
    local -a targets
    local -A byhb=()
    IFS=, read -ra targets < "$CXL/$root/target_list"
    for m in "$@"; do
        t=$(vm_host_bridge_id "$(vm_host_bridge_of "$m")") || return 1
        byhb[$t]+="$m "
    done
    for ((k = 0; ; k++)); do
        more=0
        for t in "${targets[@]}"; do
            read -ra ms <<< "${byhb[$t]:-}"
            [ $k -lt ${#ms[@]} ] && { echo "${ms[$k]}"; more=1; }
        done
        [ $more = 1 ] || break
    done
}

# vm_hot_add_type3 ID SERIAL [SIZE [ROOTPORT]]: hot-add a Type-3 device over
# QMP (a memory backend, then device_add on ROOTPORT, default cxl_rp_hp of
# the hotplug topology); prints the memdev the kernel made of it once its
# endpoint port has its decoders
vm_hot_add_type3() {
    local id=$1 sn=$2 size=${3:-$((1 << 30))} port=${4:-cxl_rp_hp} m=
    host_qmp "{\"execute\":\"object-add\",\"arguments\":{\"qom-type\":\"memory-backend-ram\",\"id\":\"$id-mem\",\"size\":$size,\"share\":true}}" >/dev/null || return 1
    host_qmp "{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"cxl-type3\",\"bus\":\"$port\",\"volatile-memdev\":\"$id-mem\",\"id\":\"$id\",\"sn\":$((sn))}}" >/dev/null || return 1
    vm_wait 120 "a memdev with serial $sn" vm_memdev_by_serial "$sn" >/dev/null || return 1
    m=$(vm_memdev_by_serial "$sn")
    vm_wait 120 "the endpoint of $m with its decoders" vm_endpoint_ready "$m" || return 1
    echo "$m"
}

vm_memdev_by_serial() { # SERIAL -> memN
    local m
    for m in $CXL/mem[0-9]*; do
        [ -e "$m/serial" ] && [ $(( $(cat "$m/serial") )) -eq $(( $1 )) ] && { basename "$m"; return 0; }
    done
    return 1
}
vm_endpoint_ready() { # MEMDEV: its endpoint is bound and has decoders
    local ep
    ep=$(vm_endpoint_of "$1" 2>/dev/null) || return 1
    [ -e "$CXL/$ep/driver" ] && ls -d "$CXL/$ep"/decoder* >/dev/null 2>&1
}

vm_endpoint_of() { # memN -> endpointM
    local e
    # (-ef: the same sysfs directory, both links followed, by bash alone:
    # an exec costs tens of milliseconds under TCG)
    for e in $CXL/endpoint*; do
        [[ -e $CXL/$1 && $e/uport -ef $CXL/$1 ]] && { echo "${e##*/}"; return 0; }
    done
    echo "vm_endpoint_of: no endpoint for $1" >&2; return 1
}
vm_free_decoder() { # endpointM -> first decoder with dpa_size 0
    local d v
    for d in $CXL/$1/decoder[0-9]*; do
        read -r v < "$d/dpa_size" || continue
        (( v == 0 )) || continue
        echo "${d##*/}"; return 0
    done
    return 1
}
vm_decoder_for_region() { # endpointM -> decoder with dpa but no region
    local d mode region
    for d in $CXL/$1/decoder[0-9]*; do
        mode= region=
        read -r mode < "$d/mode" || true; read -r region < "$d/region" || true
        [[ $mode == ram && -z $region ]] && { echo "${d##*/}"; return 0; }
    done
    return 1
}

# vm_dax_of REGION -> daxN.M
vm_dax_of() {
    local d
    for d in $CXL/$1/dax_region*/dax*.*; do [[ -e $d ]] && { echo "${d##*/}"; return 0; }; done
    echo "vm_dax_of: $1 has no dax device" >&2   # (and prints nothing)
}

# vm_blocks_of DAX -> memoryN names (decimal ids), from resource and size
vm_blocks_of() {
    local d=/sys/bus/dax/devices/$1 bs start size first n i
    read -r bs < $MEMSYS/block_size_bytes; bs=$((0x$bs))
    read -r start < "$d/resource"; start=$((start)); read -r size < "$d/size"
    first=$(( (start + bs - 1) / bs )); n=$(( (start + size) / bs - first ))
    for ((i = first; i < first + n; i++)); do echo "memory$i"; done
}

# vm_online_movable DAX: the reference way (write online_movable by hand)
vm_online_movable() {
    local b state
    for b in $(vm_blocks_of "$1"); do
        read -r state < $MEMSYS/$b/state
        [[ $state == online ]] || echo online_movable > $MEMSYS/$b/state
    done
}
