# SPDX-License-Identifier: GPL-2.0
# Shared checks of the topology smoke tests (test/vm/topology-*.bats): what
# the kernel enumerated, and a region over the devices created and onlined
# through the guest helpers (lib.sh).
load helper
load ndctl-oracle

# memdevs present, sorted: "mem0 mem1"
topo_memdevs() { ls $CXL | grep '^mem[0-9]' | sort -V | tr '\n' ' ' | sed 's/ $//'; }

# topo_endpoints_ready MEMDEV...: each memdev has its endpoint port bound to
# cxl_port with at least one decoder
topo_endpoints_ready() {
    local m ep
    for m in "$@"; do
        ep=$(vm_endpoint_of "$m") || return 1
        [[ -e $CXL/$ep/driver ]] || { echo "$ep ($m) is not bound" >&2; return 1; }
        ls -d "$CXL/$ep"/decoder"${ep#endpoint}".* >/dev/null 2>&1 ||
            { echo "$ep ($m) has no decoders" >&2; return 1; }
    done
}

# dports of a port, sorted: "dport0 dport1"
topo_dports() { (cd "$CXL/$1" && ls -d dport* 2>/dev/null | sort -V | tr '\n' ' ' | sed 's/ $//'); }

# the host bridge ports below root0, sorted
topo_host_bridges() { (cd "$CXL/root0" && ls -d port[0-9]* 2>/dev/null | sort -V | tr '\n' ' ' | sed 's/ $//'); }

# topo_region_online REGION MEMDEV...: the region is committed over the
# memdevs (ways, size, one target per memdev), its dax device's blocks are
# onlined movable by hand (lib.sh's reference way) and all end up online in
# ZONE_MOVABLE
topo_region_online() {
    local r=$1 m size=0 i d b
    shift
    [[ $(cat $CXL/$r/commit) == 1 ]] || { echo "$r is not committed" >&2; return 1; }
    [[ $(cat $CXL/$r/interleave_ways) == "$#" ]] || { echo "$r: ways $(cat $CXL/$r/interleave_ways), not $#" >&2; return 1; }
    for m in "$@"; do size=$((size + $(cat $CXL/$m/ram/size))); done
    [[ $(( $(cat $CXL/$r/size) )) == "$size" ]] || { echo "$r: size $(cat $CXL/$r/size), not $size" >&2; return 1; }
    for ((i = 0; i < $#; i++)); do
        [[ -n $(cat $CXL/$r/target$i) ]] || { echo "$r: target$i empty" >&2; return 1; }
    done
    d=$(vm_dax_of "$r")
    [[ -n $d ]] || { echo "$r has no dax device" >&2; return 1; }
    vm_online_movable "$d"
    for b in $(vm_blocks_of "$d"); do
        [[ $(cat $MEMSYS/$b/state) == online ]] || { echo "$b of $d is $(cat $MEMSYS/$b/state)" >&2; return 1; }
        [[ $(cat $MEMSYS/$b/valid_zones) == Movable ]] || { echo "$b of $d: zones $(cat $MEMSYS/$b/valid_zones)" >&2; return 1; }
    done
}

# topo_list_shows REGION MEMDEV...: `cxltier list -j` shows the region once,
# with its ways, its memdevs as its targets, its size the sum of their
# shares, all its blocks online movable; each memdev names the region
topo_list_shows() {
    local r=$1 m json got want
    shift
    json=$(cxltier list -j) || return 1
    got=$(jq -c --arg r "$r" '[.regions[] | select(.name == $r)] | length' <<<"$json")
    [[ $got == 1 ]] || { echo "cxltier list: $r listed $got times" >&2; return 1; }
    got=$(jq -c --arg r "$r" '.regions[] | select(.name == $r)
          | [.interleave_ways, .state, (.dax_devices[0].memory_blocks | .total == .online and .online == .movable),
             .size == ([.targets[].dpa_size] | add), ([.targets[].memdev] | sort)]' <<<"$json")
    want=$(printf '%s\n' "$@" | sort | jq -R . | jq -sc .)
    [[ $got == "[$#,\"active\",true,true,$want]" ]] || { echo "cxltier list: $r: $got (want $# ways over $want)" >&2; return 1; }
    for m in "$@"; do
        got=$(jq -c --arg m "$m" --arg r "$r" '[.memdevs[] | select(.name == $m) | .regions[]? | select(. == $r)] | length' <<<"$json")
        [[ $got == 1 ]] || { echo "cxltier list: $m does not name $r" >&2; return 1; }
    done
}

# topo_oracle [--both-ways MEMDEV...]: ndctl 81 agrees with cxltier on this
# topology (ndctl-oracle.bash): every memdev, every region there now (made by
# the lab's sysfs steps); with --both-ways, those regions are taken down
# (cxltier region destroy --offline) and a region over MEMDEV... is made by
# cxl create-region, then by cxltier region create, each compared and
# destroyed: the file leaves no region behind then
topo_oracle() {
    local r
    oracle_ready || return 1
    oracle_memdevs || return 1
    for r in $(ls $CXL | grep '^region[0-9]'); do oracle_region "$r" || return 1; done
    [[ ${1:-} == --both-ways ]] || return 0
    shift
    for r in $(ls $CXL | grep '^region[0-9]'); do
        cxltier region destroy "$r" --offline >/dev/null || { echo "topo_oracle: cannot take $r down" >&2; return 1; }
    done
    oracle_regions_both_ways "$@"
}
