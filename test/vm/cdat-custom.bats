#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-args: --cdat @BUILD@/test/two-dsmas.cdat
# A custom CDAT given to QEMU's cdat= property (built by mkcdat, see
# test/meson.build): two DSMAS ranges, every HMAT data type, a cache, an
# initiator. cxltier must read back exactly the values it was built with.
load helper

setup_file() {
    cxltier cdat mem0 -j > "$BATS_FILE_TMPDIR/cdat.json"
}

q() { jq -c "$1" "$BATS_FILE_TMPDIR/cdat.json"; }

@test "header: sequence 3, checksum valid, 12 structures" {
    assert_equal "$(q '.tables[0] | [.sequence, .checksum_valid, (.structures | length)]')" '[3,true,12]'
}

@test "two DSMAS ranges of 512 MiB" {
    assert_equal "$(q '[.tables[0].structures[] | select(.type=="dsmas") | [.handle, .flags, .dpa_base, .dpa_length]]')" \
        '[[0,0,0,536870912],[1,0,536870912,536870912]]'
}

@test "handle 0: read/write latency 250/300 ns, read/write bandwidth 12000/8000 MB/s, on its DPA range" {
    assert_equal "$(q '[.tables[0].structures[] | select(.type=="dslbis" and .handle==0) | [.data_type, .entry_base_unit, .entries[0], (.latency_ns // .bandwidth_mbps), .dpa_base, .dpa_length]]')" \
        '[["read_latency",1000,250,250,0,536870912],["write_latency",1000,300,300,0,536870912],["read_bandwidth",1000,12,12000,0,536870912],["write_bandwidth",1000,8,8000,0,536870912]]'
}

@test "handle 1: access latency 400 ns and access bandwidth 7500 MB/s" {
    assert_equal "$(q '[.tables[0].structures[] | select(.type=="dslbis" and .handle==1) | [.data_type, .latency_ps, .latency_ns, .bandwidth_mbps]]')" \
        '[["access_latency",400000,400,null],["access_bandwidth",null,null,7500]]'
}

@test "DSMSCIS, DSIS and DSEMTS fields" {
    assert_equal "$(q '.tables[0].structures[] | select(.type=="dsmscis") | [.handle, .cache_size, .cache.level, .cache.write_policy, .cache.line_size]')" \
        '[0,1048576,1,"write_back",64]'
    assert_equal "$(q '.tables[0].structures[] | select(.type=="dsis") | [.flags, .handle]')" '[1,0]'
    assert_equal "$(q '[.tables[0].structures[] | select(.type=="dsemts") | [.handle, .efi_type_name, .dpa_base, .dpa_length]]')" \
        '[[0,"specific_purpose",0,536870912],[1,"conventional",536870912,536870912]]'
}

@test "the kernel took the same table" {
    ep=$(vm_endpoint_of mem0)
    run cxltier cdat "$ep" --hex -j
    assert_equal "$(jq -r '.tables[0].raw' <<<"$output")" "$(xxd -p "$CXL/$ep/CDAT" | tr -d '\n')"
}
