#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier cdat`: files built by mkcdat, and the kernel's CDAT in the lab fixture.
load helper

MKCDAT=${CXLTIER_BUILD:-$BATS_TEST_DIRNAME/../../build}/test/mkcdat

@test "the lab fixture's kernel CDAT decodes: QEMU's default table" {
    run cxltier --sysroot "$(fixture lab-region-online)" cdat mem0 -j
    assert_success
    run jq -c '.tables[0] | [.device, .memdev, .length, .checksum_valid,
        ([.structures[] | select(.type == "dslbis") | (.latency_ns // .bandwidth_mbps)])]' <<<"$output"
    assert_output '["endpoint2","mem0",160,true,[150,250,16000,16000]]'
}

@test "beside the CDAT: the kernel's qos_class and region/node access figures" {
    run cxltier --sysroot "$(fixture lab-region-online)" cdat endpoint2 -j
    assert_success
    run jq -c '.tables[0].kernel | [.ram_qos_class, (.figures[] | [.object, .access, .read_latency_ns, .read_bandwidth_mbps])]' <<<"$output"
    assert_output '[0,["region0",0,17300,16000],["region0",1,17300,16000],["node1",0,17300,16000],["node1",1,17300,16000]]'
}

@test "6.12: every kernel figure is flagged as the link latency counted in ps as ns, judged against this CDAT" {
    run cxltier --sysroot "$(fixture lab-region-online)" cdat mem0 -j
    assert_success
    run jq -c '[.tables[0].kernel.figures[] | [.object, .source, .latency_check.verdict, .latency_check.by, .latency_check.expected_read_latency_ns]] | unique' <<<"$output"
    assert_output '[["node1","node","link_latency_ps_as_ns","figures",150],["region0","region","link_latency_ps_as_ns","figures",150]]'
    run cxltier --sysroot "$(fixture lab-region-online)" cdat mem0
    assert_success
    assert_output --regexp 'NAME +QOS +ACCESS +SOURCE +RD-LAT +WR-LAT +RD-BW +WR-BW +LAT-CHECK'
    assert_output --regexp '`-node1 +1 node +17300 +17400 16000 16000 link_latency_ps_as_ns'
    assert_output --partial 'link_latency_ps_as_ns: the kernel adds the PCIe link latency in picoseconds to nanoseconds (Linux 6.12)'
}

@test "7.x: the node has no figures of its own; the region's stand in for it, named" {
    run cxltier --sysroot "$(fixture k7-region-online)" cdat mem0 -j
    assert_success
    run jq -c '.tables[0].kernel | [.ram_qos_class, (.figures[] | [.object, .access, .source, .region, .read_latency_ns, .write_latency_ns, .read_bandwidth_mbps, .latency_check.verdict])]' <<<"$output"
    assert_output '[0,["region0",0,"region",null,302,402,16000,"plausible"],["region0",1,"region",null,302,402,16000,"plausible"],["node1",0,"region","region0",302,402,16000,"plausible"],["node1",1,"region","region0",302,402,16000,"plausible"]]'
    run cxltier --sysroot "$(fixture k7-region-online)" cdat mem0
    assert_success
    assert_output --regexp '`-node1 +1 region0 +302 +402 16000 16000 plausible'
    refute_output --partial 'link_latency_ps_as_ns'
}

@test "7.x, region offline: no figures yet, the table as before" {
    run cxltier --sysroot "$(fixture k7-region-offline)" cdat -j
    assert_success
    [[ $(jq -c '.tables[0] | [.device, .memdev, .valid, .kernel.figures]' <<<"$output") == '["endpoint2","mem0",true,[]]' ]]
}

@test "the table groups structures by DSMAD handle with their DPA range" {
    "$MKCDAT" "$BATS_TEST_TMPDIR/t.cdat" dsmas:0:0:0:0x1000 dsmas:1:4:0x1000:0x1000 \
        dslbis:1:0:1:1000:250 dslbis:0:0:5:1000:8
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat"
    assert_success
    assert_line --index 2 --regexp '^\|-DSMAS +0 0x0-0xfff +volatile'
    assert_line --index 3 --regexp '^\|-DSLBIS +0 0x0-0xfff +write bandwidth 8000 MB/s'
    assert_line --index 4 --regexp '^\|-DSMAS +1 0x1000-0x1fff +non_volatile'
    assert_line --index 5 --regexp '^`-DSLBIS +1 0x1000-0x1fff +read latency 250 ns'
}

@test "a group starts with its DSMAS, whatever the table order" {
    "$MKCDAT" "$BATS_TEST_TMPDIR/t.cdat" dsemts:0:1:0:0x1000 dslbis:0:0:1:1000:250 dsmas:0:0:0:0x1000 \
        dsis:1:0 dslbis:1:0:4:1000:8 dsmas:1:0:0x1000:0x1000 sslbis:0:1000:0x100:1:100 dsmscis:0:0x1000:0
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat" -j
    assert_success
    run jq -c '[.tables[0].structures[] | [.type, .handle, .offset]]' <<<"$output"
    assert_output '[["dsmas",0,64],["dslbis",0,40],["dsmscis",0,168],["dsemts",0,16],["dsmas",1,120],["dslbis",1,96],["dsis",0,88],["sslbis",null,144]]'
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat"
    assert_success
    assert_line --index 2 --regexp '^\|-DSMAS +0 0x0-0xfff +volatile'
    assert_line --index 3 --regexp '^\|-DSLBIS +0 0x0-0xfff +read latency 250 ns'
}

@test "a DSEMTS is its own range: DSMAS base + DPA Offset for DPA Length, none when 0 bytes" {
    "$MKCDAT" "$BATS_TEST_TMPDIR/t.cdat" dsmas:0:0:0x10000000:0x10000000 dsemts:0:1:0x100000:0 \
        dsemts:0:0:0x200000:0x1000 dsemts:0:0:0xfffffffff0000000:0x1000
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat" -j
    assert_success
    # (the third's offset runs past 2^64 from the DSMAS base: no base)
    run jq -c '[.tables[0].structures[] | select(.type == "dsemts") | [.dpa_base, .dpa_length]]' <<<"$output"
    assert_output '[[269484032,0],[270532608,4096],[null,4096]]'
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat"
    assert_success
    assert_line --index 3 --regexp '^\|-DSEMTS +0 +EFI specific_purpose'
    assert_line --index 4 --regexp '^\|-DSEMTS +0 0x10200000-0x10200fff +EFI conventional'
    refute_output --partial '0x10000000-0x1fffffff +EFI'
}

@test "a DSMAS range past 2^64 is shown as base+length, not a wrapped end" {
    "$MKCDAT" "$BATS_TEST_TMPDIR/t.cdat" dsmas:0:0:0xffffffffffff0000:0x20000
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat"
    assert_success
    assert_line --index 2 --regexp '^`-DSMAS +0 0xffffffffffff0000\+0x20000 +volatile'
}

@test "FIGURE shows a latency with every digit, never in exponent form" {
    "$MKCDAT" "$BATS_TEST_TMPDIR/t.cdat" dsmas:0:0:0:0x1000 dslbis:0:0:1:1:65000 dslbis:0:0:2:1000000:1500 \
        dslbis:0:0:0:1:12345
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat"
    assert_success
    assert_line --index 3 --regexp '^\|-DSLBIS +0 0x0-0xfff +read latency 65 ns'
    assert_line --index 4 --regexp '^\|-DSLBIS +0 0x0-0xfff +write latency 1500000 ns'
    assert_line --index 5 --regexp '^`-DSLBIS +0 0x0-0xfff +access latency 12.345 ns'
    refute_output --partial 'e+'
}

@test "every field of every structure in JSON" {
    "$MKCDAT" "$BATS_TEST_TMPDIR/t.cdat" seq:9 dsmas:2:0x1c:0x0:0x40000000 dslbis:2:0:0:10000:15 \
        dsmscis:2:0x200000:0x00402212 dsis:1:5 dsemts:2:2:0x1000:0x2000 sslbis:4:1000:0x100:3:16:0xffff:0x100:0
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat" -j
    assert_success
    json=$output
    q() { jq -c "$1" <<<"$json"; }
    [[ $(q '.tables[0] | [.sequence, .revision, .checksum_valid, (.structures | length)]') == '[9,1,true,6]' ]]
    [[ $(q '.tables[0].structures[] | select(.type=="dsmas") | [.handle, .flags, .flag_names, .dpa_length]') == \
       '[2,28,["non_volatile","shareable","hw_managed_coherency"],1073741824]' ]]
    [[ $(q '.tables[0].structures[] | select(.type=="dslbis") | [.data_type, .entry_base_unit, .entries, .latency_ps, .latency_ns, .hierarchy]') == \
       '["access_latency",10000,[15,0,0],150000,150,"memory"]' ]]
    [[ $(q '.tables[0].structures[] | select(.type=="dsmscis") | [.cache_size, .cache]') == \
       '[2097152,{"total_levels":2,"level":1,"associativity":"complex","write_policy":"write_through","line_size":64}]' ]]
    [[ $(q '.tables[0].structures[] | select(.type=="dsis") | [.flags, .memory_attached, .handle]') == '[1,true,5]' ]]
    [[ $(q '.tables[0].structures[] | select(.type=="dsemts") | [.efi_type, .efi_type_name, .dpa_base, .dpa_length]') == \
       '[2,"reserved_memory",4096,8192]' ]]
    [[ $(q '.tables[0].structures[] | select(.type=="sslbis") | [.data_type, .entries[0].port_x, .entries[0].port_y, .entries[0].bandwidth_mbps, .entries[1].port_x, (.entries[1] | has("bandwidth_mbps"))]') == \
       '["read_bandwidth","upstream","downstream3",16000,"any",false]' ]]
}

@test "entries 0 and 0xffff are reported as absent" {
    "$MKCDAT" "$BATS_TEST_TMPDIR/t.cdat" dsmas:0:0:0:0x1000 dslbis:0:0:1:1000:0 dslbis:0:0:4:1000:0xffff
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat" -j
    assert_success
    run jq -c '[.tables[0].structures[] | select(.type=="dslbis") | has("latency_ns") or has("bandwidth_mbps")]' <<<"$output"
    assert_output '[false,false]'
}

@test "a value above 2^32 - 1 is shown, marked as one the kernel ignores" {
    "$MKCDAT" "$BATS_TEST_TMPDIR/t.cdat" dsmas:0:0:0:0x1000 dslbis:0:0:4:1000000:5000 dslbis:0:0:5:196611:21845
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat" -j
    assert_success
    run jq -c '[.tables[0].structures[] | select(.type=="dslbis") | [.bandwidth_mbps, .kernel_ignores]]' <<<"$output"
    assert_output '[[5000000000,true],[4294967295,null]]'
}

@test "a malformed table: exit 1, the offset and the rule; --force shows the valid part" {
    "$MKCDAT" "$BATS_TEST_TMPDIR/t.cdat" dsmas:0:0:0:0x1000 dslbis:0:0:1:1000:100
    printf '\x01\x00\x03\x00' >> "$BATS_TEST_TMPDIR/t.cdat"            # a structure of length 3
    len=$(stat -c %s "$BATS_TEST_TMPDIR/t.cdat")
    printf "$(printf '\\x%02x' $len)" | dd of="$BATS_TEST_TMPDIR/t.cdat" bs=1 seek=0 conv=notrunc 2>/dev/null
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat"
    assert_failure 1
    assert_output --partial "malformed CDAT at byte offset 64: dslbis structure length 3 is shorter than its own 4-byte header"
    run --separate-stderr cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat" --force -j
    assert_failure 1
    [[ $stderr == *"showing the 2 structures decoded before the fault"* ]]
    [[ $(jq -c '[.tables[0].valid, (.tables[0].structures | length)]' <<<"$output") == '[false,2]' ]]
}

@test "a bad checksum: exit 1, names offset 5 and the expected value" {
    "$MKCDAT" "$BATS_TEST_TMPDIR/t.cdat" dsmas:0:0:0:0x1000 badsum
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat"
    assert_failure 1
    assert_output --regexp 'offset 5: checksum 0x[0-9a-f]{2} does not make the table.s 40 bytes sum to 0'
}

@test "a short file: exit 1, offset 0" {
    printf 'abc' > "$BATS_TEST_TMPDIR/short"
    run cxltier cdat --file "$BATS_TEST_TMPDIR/short"
    assert_failure 1
    assert_output --partial "offset 0: the table is 3 bytes"
}

@test "a missing file names it" {
    run cxltier cdat --file /nonexistent.cdat
    assert_failure 1
    assert_output --partial "cannot open /nonexistent.cdat"
}

@test "--raw adds a hex dump (and a raw string in JSON)" {
    "$MKCDAT" "$BATS_TEST_TMPDIR/t.cdat" dsmas:0:0:0:0x1000
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat" --hex
    assert_success
    assert_line --regexp '^0000  28 00 00 00 01'
    run cxltier cdat --file "$BATS_TEST_TMPDIR/t.cdat" --hex -j
    assert_success
    [[ $(jq -r '.tables[0].raw' <<<"$output") == 28000000* ]]
}

@test "an unknown memdev or port is an error; a non-device word a usage error" {
    root=$(fixture lab-region-online)
    run cxltier cdat --sysroot "$root" mem7
    assert_failure 1
    assert_output --partial "no memdev 'mem7'"
    run cxltier cdat --sysroot "$root" port9
    assert_failure 1
    run cxltier cdat --sysroot "$root" banana
    assert_failure 2
}

@test "a port without CDAT support: exit 77 with the reason" {
    root=$(fixture lab-region-online)
    cp -a "$root" "$BATS_TEST_TMPDIR/nocdat"
    rm "$BATS_TEST_TMPDIR"/nocdat/sys/devices/platform/ACPI0017:00/root0/port1/endpoint2/CDAT
    run cxltier cdat --sysroot "$BATS_TEST_TMPDIR/nocdat" mem0
    assert_failure 77
    assert_output --partial "endpoint2 has no CDAT"
}

@test "an unbound port: says the driver is not bound" {
    root=$(fixture lab-region-online)
    cp -a "$root" "$BATS_TEST_TMPDIR/unbound"
    ep=$BATS_TEST_TMPDIR/unbound/sys/devices/platform/ACPI0017:00/root0/port1/endpoint2
    rm "$ep/CDAT" "$ep/driver"
    run cxltier cdat --sysroot "$BATS_TEST_TMPDIR/unbound" endpoint2
    assert_failure 1
    assert_output --partial "not bound to the cxl_port driver"
}

@test "an empty CDAT attribute: the kernel failed to read it" {
    root=$(fixture lab-region-online)
    cp -a "$root" "$BATS_TEST_TMPDIR/empty"
    : > "$BATS_TEST_TMPDIR"/empty/sys/devices/platform/ACPI0017:00/root0/port1/endpoint2/CDAT
    run cxltier cdat --sysroot "$BATS_TEST_TMPDIR/empty" mem0
    assert_failure 1
    assert_output --partial "the kernel failed to read or validate the table"
}

@test "some devices fine, one not: exit 64 naming the failed one" {
    root=$(fixture lab-region-online)
    run --separate-stderr cxltier cdat --sysroot "$root" mem0 mem5 -j
    assert_failure 64
    [[ $stderr == *"mem5"* ]]
    [[ $(jq '.tables | length' <<<"$output") == 1 ]]
}

@test "no CXL at all: empty, exit 0" {
    run --separate-stderr cxltier cdat --sysroot "$(fixture host-nocxl)" -j
    assert_success
    [[ $(jq -c . <<<"$output") == '{"tables":[]}' ]]
}

@test "not root: the CDAT attribute is root-only" {
    [[ $(id -u) == 0 ]] || skip "needs root to drop privileges"
    command -v setpriv >/dev/null || skip "no setpriv"
    root=$(fixture lab-region-online)
    d=$(mktemp -d "${TMPDIR:-/tmp}/cxltier-perm.XXXXXX")
    cp -a "$root" "$d/perm"
    chmod 755 "$d"; chmod -R a+rX "$d/perm"
    chmod 0400 "$d"/perm/sys/devices/platform/ACPI0017:00/root0/port1/endpoint2/CDAT
    run setpriv --reuid=65534 --regid=65534 --clear-groups "$CXLTIER" cdat --sysroot "$d/perm" mem0
    rm -rf "$d"
    assert_failure 1
    assert_output --partial "readable by root only"
}
