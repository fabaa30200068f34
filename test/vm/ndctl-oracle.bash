# SPDX-License-Identifier: GPL-2.0
# ndctl-oracle.bash - trixie's ndctl 81 (cxl, with its own libraries; fetch.sh)
# as the differential oracle of cxltier's views: both read the same kernel,
# so every field both show must agree. A mismatch names the object and the
# field, with both values.
#
# What is compared (ndctl's names on the right):
#   region   size, resource, interleave_ways, interleave_granularity, root
#            decoder (cxl list -D -d root -r), targets by position: memdev,
#            decoder (mappings, -T), the decoder's dpa_resource, dpa_size
#            (cxl list -D -d endpoint -r)
#   memdev   serial, host, ram_size, pmem_size, firmware_version, ram_qos_class
#   poison   each record's dpa, length, source (cxl list -L media_errors:
#            offset, length, source)

CXL81=/opt/ndctl81/cxl81

# oracle_ready: ndctl 81 mounted on /opt/ndctl81 (run.sh exports it read-only
# as the 9p tag ndctl81); fails saying what is missing
oracle_ready() {
    if [[ ! -x $CXL81 ]]; then
        mkdir -p /opt/ndctl81
        mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose ndctl81 /opt/ndctl81 ||
            { echo "oracle: no 9p tag ndctl81 (test/vm/fetch.sh fetches trixie's ndctl 81, run.sh exports it)" >&2; return 1; }
    fi
    [[ $($CXL81 version) == 81 ]] || { echo "oracle: $CXL81 is not ndctl 81: $($CXL81 version 2>&1)" >&2; return 1; }
}

# oracle_present WHAT JSON KEY...: each KEY of the object JSON has a value (a
# key both tools lack would compare equal)
oracle_present() {
    local what=$1 json=$2 k
    shift 2
    for k in "$@"; do
        jq -e --arg k "$k" '.[$k] != null' <<<"$json" >/dev/null ||
            { echo "oracle: $what: no $k to compare: $json" >&2; return 1; }
    done
}

# oracle_diff WHAT OURS THEIRS: OURS and THEIRS are JSON objects; prints
# "WHAT: KEY: cxltier V, ndctl 81 W" for each key whose values differ (a key
# one of them lacks is null there); 1 if any differs
oracle_diff() {
    local out
    out=$(jq -rn --arg w "$1" --argjson a "$2" --argjson b "$3" '
        ($a | keys) + ($b | keys) | unique[] as $k | select($a[$k] != $b[$k])
        | "\($w): \($k): cxltier \($a[$k] | tojson), ndctl 81 \($b[$k] | tojson)"') || return 1
    [[ -z $out ]] || { echo "$out" >&2; return 1; }
}

# the decoders `cxl list -D` prints, whatever its grouping ([{"root decoders":
# [...]}, ...] when several kinds, a plain array when one), one array
oracle_decoders() {
    $CXL81 list -D "$@" | jq -c '[.[] | if has("decoder") then . else (to_entries[].value[]) end]'
}

# ndctl's view of REGION, in cxltier's keys
oracle_region_theirs() {
    local r=$1 root eps
    root=$(oracle_decoders -d root -r "$r") || return 1
    eps=$(oracle_decoders -d endpoint -r "$r") || return 1
    $CXL81 list -R -T -r "$r" | jq -c --argjson root "$root" --argjson eps "$eps" '.[0] | {size, resource,
        interleave_ways, interleave_granularity, root_decoder: ($root | map(.decoder) | join(",")),
        targets: [.mappings | sort_by(.position)[] | . as $m | {position, memdev, decoder,
                  dpa_resource: ([$eps[] | select(.decoder == $m.decoder)][0].dpa_resource),
                  dpa_size: ([$eps[] | select(.decoder == $m.decoder)][0].dpa_size)}]}'
}

# cxltier's region JSON (list's or region create's) in the compared keys
oracle_region_ours() {
    jq -c '{size, resource, interleave_ways, interleave_granularity, root_decoder,
            targets: [.targets | sort_by(.position)[] | {position, memdev, decoder, dpa_resource, dpa_size}]}'
}

# oracle_region REGION [OURS]: ndctl 81 reports REGION as cxltier does (OURS:
# a region object cxltier printed; default: `cxltier list -j -r REGION`'s)
oracle_region() {
    local r=$1 ours theirs
    if [[ $# -ge 2 ]]; then ours=$(oracle_region_ours <<<"$2"); else
        ours=$(cxltier list -j -r "$r" | jq -c '.regions[0]' | oracle_region_ours); fi
    theirs=$(oracle_region_theirs "$r") || { echo "oracle: cxl list could not report $r" >&2; return 1; }
    [[ $(jq -r '.targets | length' <<<"$theirs") -gt 0 ]] || { echo "oracle: ndctl 81 shows $r with no targets: $theirs" >&2; return 1; }
    oracle_present "$r (ndctl 81)" "$theirs" size resource interleave_ways interleave_granularity root_decoder || return 1
    oracle_diff "$r" "$ours" "$theirs"
}

# oracle_memdevs: every memdev, both tools, the same fields
oracle_memdevs() {
    local ours theirs m bad=0
    ours=$(cxltier list -j | jq -c '[.memdevs[] | {memdev: .name, serial, host, ram_size, pmem_size, firmware_version,
                                       ram_qos_class}] | sort_by(.memdev)')
    theirs=$($CXL81 list -M | jq -c '[.[] | {memdev, serial, host, ram_size: (.ram_size // 0),
                                       pmem_size: (.pmem_size // 0), firmware_version, ram_qos_class}] | sort_by(.memdev)')
    [[ $(jq -c 'map(.memdev)' <<<"$ours") == "$(jq -c 'map(.memdev)' <<<"$theirs")" ]] ||
        { echo "oracle: memdevs: cxltier $(jq -c 'map(.memdev)' <<<"$ours"), ndctl 81 $(jq -c 'map(.memdev)' <<<"$theirs")" >&2; return 1; }
    [[ $(jq length <<<"$ours") -gt 0 ]] || { echo "oracle: no memdevs to compare" >&2; return 1; }
    for m in $(jq -r '.[].memdev' <<<"$ours"); do
        oracle_present "$m (ndctl 81)" "$(jq -c --arg m "$m" '.[] | select(.memdev == $m)' <<<"$theirs")" \
            serial host ram_size firmware_version || bad=1
        oracle_diff "$m" "$(jq -c --arg m "$m" '.[] | select(.memdev == $m)' <<<"$ours")" \
            "$(jq -c --arg m "$m" '.[] | select(.memdev == $m)' <<<"$theirs")" || bad=1
    done
    return $bad
}

# oracle_poison MEMDEV: its poison list, both tools: the same records
oracle_poison() {
    local m=$1 ours theirs
    ours=$(cxltier poison "$m" -j | jq -c '[.poison[] | {dpa, length, source}] | sort_by(.dpa)') || return 1
    theirs=$($CXL81 list -m "$m" -L | jq -c '[.[0].media_errors[]? | {dpa: .offset, length, source: (.source | ascii_downcase)}] | sort_by(.dpa)')
    [[ $ours == "$theirs" ]] || { echo "$m: poison: cxltier $ours, ndctl 81 $theirs" >&2; return 1; }
}

# oracle_regions_both_ways MEMDEV...: (a) a region over the memdevs made by
# ndctl 81 (cxl create-region, in the root decoder cxltier would choose) is
# what cxltier lists; destroyed with cxl destroy-region -f. (b) one made by
# cxltier region create is what cxl list reports, field by field as cxltier
# printed it; destroyed by cxltier. No region of theirs is left either way.
oracle_regions_both_ways() {
    local root r out plan n=$# order
    plan=$(cxltier region create "$@" --dry-run -j) || return 1
    root=$(jq -r '.regions[0].root_decoder' <<<"$plan")
    # ndctl takes the memdevs in interleave position order, as given (it
    # refuses them otherwise: "failed to set target0"); cxltier works the
    # order out: ndctl is given cxltier's
    order=$(jq -r '.regions[0].targets | sort_by(.position) | .[].memdev' <<<"$plan" | tr '\n' ' ')
    # shellcheck disable=SC2086
    out=$($CXL81 create-region -m -t ram -d "$root" -w "$n" $order 2>"$BATS_TEST_TMPDIR/create-region.err") ||
        { echo "oracle: cxl create-region -m -t ram -d $root -w $n $order failed: $(cat "$BATS_TEST_TMPDIR/create-region.err")" >&2; return 1; }
    r=$(jq -r '.region' <<<"$out")
    [[ $r == region* ]] || { echo "oracle: cxl create-region printed no region: $out" >&2; return 1; }
    oracle_region "$r" || { $CXL81 destroy-region -f "$r" >/dev/null 2>&1; return 1; }
    $CXL81 destroy-region -f "$r" >/dev/null 2>&1 || { echo "oracle: cxl destroy-region -f $r failed" >&2; return 1; }
    [[ ! -e $CXL/$r ]] || { echo "oracle: $r still there after cxl destroy-region" >&2; return 1; }
    out=$(cxltier region create "$@" -j) || { echo "oracle: cxltier region create $* failed" >&2; return 1; }
    r=$(jq -r '.regions[0].name' <<<"$out")
    oracle_region "$r" "$(jq -c '.regions[0]' <<<"$out")" || { cxltier region destroy "$r" >/dev/null 2>&1; return 1; }
    cxltier region destroy "$r" >/dev/null || { echo "oracle: cxltier region destroy $r failed" >&2; return 1; }
}

# cxltier built on Debian 13 (tools/trixie-test.sh build: gcc 14 against
# libcxl 81, so `region create` goes through libcxl's create_ram_region),
# run with trixie's loader and libraries from the ndctl81 export; vm-test.sh
# puts it in the share when given CXLTIER_VM_TRIXIE_BIN (tools/test.sh does)
CXLTIER13=/share/cxltier-trixie
cxltier13() {
    local l=/opt/ndctl81/usr/lib/x86_64-linux-gnu
    "$l/ld-linux-x86-64.so.2" --library-path "$l" "$CXLTIER13" "$@"
}
# cxltier13_ready: the binary is there and runs (skips the test when the
# boot was given none: a run of tools/test.sh always gives it)
cxltier13_ready() {
    [[ -f $CXLTIER13 ]] || skip "no cxltier built on Debian 13 in this boot (CXLTIER_VM_TRIXIE_BIN; tools/test.sh gives it)"
    oracle_ready || return 1
    cxltier13 --version >/dev/null || { echo "cxltier built on Debian 13 does not run with trixie's libraries" >&2; return 1; }
}
