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

# vm_create_ram_region MEMDEV...: a RAM region over the whole volatile
# capacity of each memdev, through sysfs (bookworm's libcxl cannot create RAM
# regions). Prints the region name. The dax device binds to kmem by itself;
# its blocks stay offline (the guest boots with memhp_default_state=offline).
vm_create_ram_region() {
    local root=decoder0.0 r m ep dec size=0 i=0 ways=$#
    r=$(cat $CXL/$root/create_ram_region) || return 1
    echo "$r" > $CXL/$root/create_ram_region || return 1
    echo 256 > $CXL/$r/interleave_granularity
    echo "$ways" > $CXL/$r/interleave_ways
    for m in "$@"; do
        ep=$(vm_endpoint_of "$m") || return 1
        dec=$(vm_free_decoder "$ep") || return 1
        echo ram > $CXL/$dec/mode
        printf '0x%x\n' "$(cat $CXL/$m/ram/size)" > $CXL/$dec/dpa_size
        size=$((size + $(cat $CXL/$m/ram/size)))
    done
    printf '0x%x\n' $size > $CXL/$r/size
    for m in "$@"; do
        ep=$(vm_endpoint_of "$m")
        dec=$(vm_decoder_for_region "$ep")
        echo "$dec" > $CXL/$r/target$i; i=$((i + 1))
    done
    echo 1 > $CXL/$r/commit || { echo "vm_create_ram_region: commit of $r failed" >&2; return 1; }
    echo "$r" > /sys/bus/cxl/drivers/cxl_region/bind || return 1
    # wait for the dax device
    i=0
    while [ $i -lt 50 ] && ! ls -d $CXL/$r/dax_region*/dax* >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
    echo "$r"
}

vm_endpoint_of() { # memN -> endpointM
    local e
    for e in $CXL/endpoint*; do
        [ "$(basename "$(readlink -f "$e/uport")")" = "$1" ] && { basename "$e"; return 0; }
    done
    echo "vm_endpoint_of: no endpoint for $1" >&2; return 1
}
vm_free_decoder() { # endpointM -> first decoder with dpa_size 0
    local d
    for d in $CXL/$1/decoder[0-9]*; do
        [ $(( $(cat "$d/dpa_size") )) -eq 0 ] || continue
        basename "$d"; return 0
    done
    return 1
}
vm_decoder_for_region() { # endpointM -> decoder with dpa but no region
    local d
    for d in $CXL/$1/decoder[0-9]*; do
        [ "$(cat "$d/mode")" = ram ] && [ -z "$(cat "$d/region")" ] && { basename "$d"; return 0; }
    done
    return 1
}

# vm_dax_of REGION -> daxN.M
vm_dax_of() { basename "$(ls -d $CXL/$1/dax_region*/dax*.* | head -1)"; }

# vm_blocks_of DAX -> memoryN names (decimal ids), from resource and size
vm_blocks_of() {
    local d=/sys/bus/dax/devices/$1 bs start size first n
    bs=$((0x$(cat $MEMSYS/block_size_bytes)))
    start=$(( $(cat "$d/resource") )); size=$(cat "$d/size")
    first=$(( (start + bs - 1) / bs )); n=$(( (start + size) / bs - first ))
    for ((i = first; i < first + n; i++)); do echo "memory$i"; done
}

# vm_online_movable DAX: the reference way (write online_movable by hand)
vm_online_movable() {
    local b
    for b in $(vm_blocks_of "$1"); do
        [ "$(cat $MEMSYS/$b/state)" = online ] || echo online_movable > $MEMSYS/$b/state
    done
}
