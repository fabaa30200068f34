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

# (each comparison is one `cxl list` and one jq: under TCG a start of
# either costs a tenth of a second, and the topology files compare often)

# jq definitions the comparisons share:
#   diff(w; a; b)      "W: KEY: cxltier V, ndctl 81 W" for each key whose
#                      values differ (a key one of them lacks is null there)
#   absent(w; o; ks)   "oracle: W: no KEY to compare: O" for each key of ks
#                      O lacks (a key both tools lack would compare equal)
ORACLE_JQ_DEFS='
def diff($w; $a; $b): ($a | keys) + ($b | keys) | unique[] as $k | select($a[$k] != $b[$k])
    | "\($w): \($k): cxltier \($a[$k] | tojson), ndctl 81 \($b[$k] | tojson)";
def absent($w; $o; $ks): $ks[] | select($o[.] == null) | "oracle: \($w): no \(.) to compare: \($o | tojson)";
'

# oracle_say OUT: OUT's lines (the differences found) on stderr; 1 if any
oracle_say() { [[ -z $1 ]] || { echo "$1" >&2; return 1; }; }

# oracle_region REGION [OURS]: ndctl 81 reports REGION as cxltier does (OURS:
# a region object cxltier printed; default: `cxltier list -j --region REGION`'s).
# ndctl's view is one `cxl list -R -T -D -r REGION`: the region with its
# mappings (-T), and its decoders, root and endpoint, wherever ndctl nests
# them (regions go under root decoders when both are listed)
oracle_region() {
    local r=$1 ours all out
    if [[ $# -ge 2 ]]; then ours=$2; else ours=$(cxltier list -j --region "$r" | jq -c '.regions[0]'); fi
    all=$($CXL81 list -R -T -D -r "$r") || { echo "oracle: cxl list could not report $r" >&2; return 1; }
    out=$(jq -rn --arg r "$r" --argjson ours "$ours" --argjson all "${all:-null}" "$ORACLE_JQ_DEFS"'
        ($all | [.. | objects | select(has("endpoint decoders")) | .["endpoint decoders"][]]) as $eps
        | ($all | [.. | objects | select(has("root decoders")) | .["root decoders"][] | .decoder]) as $roots
        | ($all | [.. | objects | select(has("mappings"))][0]) as $reg
        | if $reg == null then "oracle: cxl list -R -T -D -r \($r) shows no region: \($all | tojson)" else
          ($reg | {size, resource, interleave_ways, interleave_granularity, root_decoder: ($roots | join(",")),
            targets: [.mappings | sort_by(.position)[] | . as $m | {position, memdev, decoder,
                      dpa_resource: ([$eps[] | select(.decoder == $m.decoder)][0].dpa_resource),
                      dpa_size: ([$eps[] | select(.decoder == $m.decoder)][0].dpa_size)}]}) as $b
          | ($ours | {size, resource, interleave_ways, interleave_granularity, root_decoder,
              targets: [.targets | sort_by(.position)[] | {position, memdev, decoder, dpa_resource, dpa_size}]}) as $a
          | if ($b.targets | length) == 0 then "oracle: ndctl 81 shows \($r) with no targets: \($b | tojson)"
            else absent("\($r) (ndctl 81)"; $b; ["size", "resource", "interleave_ways", "interleave_granularity",
                        "root_decoder"]), diff($r; $a; $b) end
          end') || { echo "oracle: the comparison of $r failed (jq)" >&2; return 1; }
    oracle_say "$out"
}

# oracle_memdevs: every memdev, both tools, the same fields
oracle_memdevs() {
    local ours theirs out
    ours=$(cxltier list -j) || return 1
    theirs=$($CXL81 list -M) || { echo "oracle: cxl list -M failed" >&2; return 1; }
    out=$(jq -rn --argjson ours "$ours" --argjson theirs "${theirs:-null}" "$ORACLE_JQ_DEFS"'
        ([$ours.memdevs[] | {memdev: .name, serial, host, ram_size, pmem_size, firmware_version, ram_qos_class}]
         | sort_by(.memdev)) as $a
        | ([$theirs[] | {memdev, serial, host, ram_size: (.ram_size // 0), pmem_size: (.pmem_size // 0),
             firmware_version, ram_qos_class}] | sort_by(.memdev)) as $b
        | if ($a | map(.memdev)) != ($b | map(.memdev)) then
            "oracle: memdevs: cxltier \($a | map(.memdev) | tojson), ndctl 81 \($b | map(.memdev) | tojson)"
          elif ($a | length) == 0 then "oracle: no memdevs to compare"
          else range($a | length) as $i
            | absent("\($b[$i].memdev) (ndctl 81)"; $b[$i]; ["serial", "host", "ram_size", "firmware_version"]),
              diff($a[$i].memdev; $a[$i]; $b[$i])
          end') || { echo "oracle: the comparison of the memdevs failed (jq)" >&2; return 1; }
    oracle_say "$out"
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
