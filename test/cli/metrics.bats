#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier metrics` on the captured fixtures: every output passes
# `promtool check metrics` (helper.bash checks each run, -j against its
# schema), the figures are the fixture's, --output replaces a file whole and
# safely, and a node_exporter on loopback serves the series.
load helper

setup() {
    command -v promtool >/dev/null ||
        skip "promtool is not installed (Debian: apt install prometheus; tools/install-deps.sh installs it)"
}

teardown() {
    if [[ -n ${NE_PID:-} ]]; then
        kill "$NE_PID" 2>/dev/null || true
        wait "$NE_PID" 2>/dev/null || true
    fi
}

# wait_for SECS WHAT CMD...: until CMD succeeds, at most SECS seconds
wait_for() {
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

# a copy of a fixture whose memdev mem0 has the kernel's AER counts
aer_fixture() {
    local d=$BATS_TEST_TMPDIR/aer dev
    mkdir -p "$d"
    tar -xzf "$FIXTURES/lab-region-online.tar.gz" -C "$d"
    dev=$(dirname "$(readlink -f "$d/sys/bus/cxl/devices/mem0")")
    printf 'RxErr 0\nBadTLP 0\nBadDLLP 0\nRollover 0\nTimeout 0\nNonFatalErr 0\nCorrIntErr 3\nHeaderOF 0\nTOTAL_ERR_COR 3\n' \
        > "$dev/aer_dev_correctable"
    printf 'Undefined 0\nDLP 0\nSDES 0\nUncorrIntErr 1\nTOTAL_ERR_NONFATAL 1\n' > "$dev/aer_dev_nonfatal"
    printf 'Undefined 0\nDLP 0\nSDES 0\nUncorrIntErr 0\nTOTAL_ERR_FATAL 0\n' > "$dev/aer_dev_fatal"
    echo "$d"
}

@test "every fixture: promtool check metrics passes, text and JSON list the same families" {
    local fx names
    for fx in $(fixture_names); do
        run --separate-stderr cxltier metrics --sysroot "$(fixture "$fx")"
        assert_success
        [[ -z $stderr ]] || fail "$fx: $stderr"
        names=$(grep '^# TYPE' <<<"$output" | cut -d' ' -f3)
        [[ -n $names ]] || fail "$fx: no families"
        run cxltier metrics --sysroot "$(fixture "$fx")" -j
        assert_success
        assert_equal "$(jq -r '.families[].name' <<<"$output")" "$names"
    done
}

@test "lab-region-online: capacity by memdev, region and node, state and zone; tiers; block size" {
    run cxltier metrics --sysroot "$(fixture lab-region-online)"
    assert_success
    assert_line 'cxltier_memdev_info{memdev="mem0",serial="0x1234",host="0000:0d:00.0",state="enabled"} 1'
    assert_line 'cxltier_memdev_ram_bytes{memdev="mem0"} 1073741824'
    assert_line 'cxltier_region_info{region="region0",state="active"} 1'
    assert_line 'cxltier_region_size_bytes{region="region0"} 1073741824'
    assert_line 'cxltier_region_memory_bytes{region="region0",node="1",state="online",zone="movable"} 1073741824'
    assert_line 'cxltier_region_memory_bytes{region="region0",node="1",state="unplugged"} 0'
    assert_line 'cxltier_memdev_memory_bytes{memdev="mem0",region="region0",node="1",state="online",zone="movable"} 1073741824'
    assert_line 'cxltier_node_memory_bytes{node="1",state="online",zone="movable"} 1073741824'
    assert_line 'cxltier_node_cxl_memory_bytes{node="1",state="online"} 1073741824'
    assert_line 'cxltier_node_tier_info{node="0",tier="4"} 1'
    assert_line 'cxltier_node_tier_info{node="1",tier="8"} 1'
    assert_line 'cxltier_memory_block_size_bytes 134217728'
    assert_line 'cxltier_metrics_collector_success{collector="topology"} 1'
    # a captured tree: no device to ask for health, no AER counts captured
    refute_output --partial 'cxltier_memdev_health_status'
    refute_output --partial 'collector="health"'
    refute_output --partial 'collector="aer"'
}

@test "lab-region-offline: the region's memory is offline, nothing online in its node" {
    run cxltier metrics --sysroot "$(fixture lab-region-offline)" -j
    assert_success
    run jq -c '[.families[] | select(.name == "cxltier_region_memory_bytes") | .samples[]
                | select(.value > 0) | [.labels.state, .labels.zone, .value]]' <<<"$output"
    assert_output '[["offline",null,1073741824]]'
}

@test "lab-two-devices: each memdev's share of an interleaved region adds up to the region" {
    local j
    j=$(cxltier metrics --sysroot "$(fixture lab-two-devices)" -j)
    run jq -e '
        def total(f): [.families[] | select(.name == f) | .samples[].value] | add;
        total("cxltier_memdev_memory_bytes") as $shares
        | $shares == total("cxltier_region_memory_bytes") and $shares == total("cxltier_region_size_bytes")' <<<"$j"
    assert_success
}

@test "host-nocxl: no CXL series, the nodes' memory still" {
    run cxltier metrics --sysroot "$(fixture host-nocxl)"
    assert_success
    refute_output --partial 'cxltier_memdev_'
    refute_output --partial 'cxltier_region_'
    assert_output --partial 'cxltier_node_memory_bytes{node="0",state="online"'
}

@test "AER: the kernel's counts of the memdev's PCI device, by severity and kind" {
    run cxltier metrics --sysroot "$(aer_fixture)"
    assert_success
    assert_line '# TYPE cxltier_memdev_aer_errors_total counter'
    assert_line 'cxltier_memdev_aer_errors_total{memdev="mem0",severity="correctable",kind="CorrIntErr"} 3'
    assert_line 'cxltier_memdev_aer_errors_total{memdev="mem0",severity="correctable",kind="RxErr"} 0'
    assert_line 'cxltier_memdev_aer_errors_total{memdev="mem0",severity="nonfatal",kind="UncorrIntErr"} 1'
    assert_line 'cxltier_memdev_aer_errors_total{memdev="mem0",severity="fatal",kind="UncorrIntErr"} 0'
    refute_output --partial 'TOTAL_ERR'
    assert_line 'cxltier_metrics_collector_success{collector="aer"} 1'
}

@test "AER: a file that is not the kernel's counts: exit 64, the file named, the rest written" {
    local d dev
    d=$(aer_fixture)
    dev=$(dirname "$(readlink -f "$d/sys/bus/cxl/devices/mem0")")
    printf 'RxErr lots\n' > "$dev/aer_dev_correctable"
    run --separate-stderr cxltier metrics --sysroot "$d"
    assert_failure 64
    [[ $stderr == *aer*"aer_dev_correctable"*"not the kernel's AER counts"* ]] || fail "$stderr"
    assert_line 'cxltier_metrics_collector_success{collector="aer"} 0'
    assert_line 'cxltier_region_size_bytes{region="region0"} 1073741824'
}

@test "--output-file: the file replaced whole, mode 0644, no temporary file left, the same text as stdout" {
    local dir=$BATS_TEST_TMPDIR/out
    mkdir -m 0755 "$dir"
    echo old > "$dir/cxltier.prom"
    umask 077
    run --separate-stderr cxltier metrics --sysroot "$(fixture lab-region-online)" --output-file "$dir/cxltier.prom"
    assert_success
    assert_output ''
    assert_equal "$(stat -c %a "$dir/cxltier.prom")" 644
    printed=$(cxltier metrics --sysroot "$(fixture lab-region-online)")
    assert_equal "$(cat "$dir/cxltier.prom")" "$printed"
    assert_equal "$(ls -A "$dir")" cxltier.prom
    promtool check metrics < "$dir/cxltier.prom"
    # -j to a file: the JSON
    cxltier metrics --sysroot "$(fixture lab-region-online)" -j --output-file="$dir/m.json"
    "$VALIDATE_JSON" -i "$dir/m.json" -- metrics -j
}

@test "--output-file: a symbolic link in its place is replaced, never written through" {
    local dir=$BATS_TEST_TMPDIR/out
    mkdir -m 0755 "$dir"
    echo precious > "$BATS_TEST_TMPDIR/victim"
    ln -s "$BATS_TEST_TMPDIR/victim" "$dir/cxltier.prom"
    run cxltier metrics --sysroot "$(fixture lab-region-online)" --output-file "$dir/cxltier.prom"
    assert_success
    assert_equal "$(cat "$BATS_TEST_TMPDIR/victim")" precious
    [[ -f $dir/cxltier.prom && ! -L $dir/cxltier.prom ]]
}

@test "--output-file: a directory others may write to is refused unless sticky; nothing written" {
    local dir=$BATS_TEST_TMPDIR/open
    mkdir "$dir"
    chmod 0777 "$dir"
    run --separate-stderr cxltier metrics --sysroot "$(fixture lab-region-online)" --output-file "$dir/cxltier.prom"
    assert_failure 1
    [[ $stderr == *"$dir is writable by others and not sticky"* ]] || fail "$stderr"
    assert_equal "$(ls -A "$dir")" ''
    chmod 0775 "$dir"
    run cxltier metrics --sysroot "$(fixture lab-region-online)" --output-file "$dir/cxltier.prom"
    assert_failure 1
    # sticky (as /tmp): others cannot rename or remove our temporary file
    chmod 1777 "$dir"
    run cxltier metrics --sysroot "$(fixture lab-region-online)" --output-file "$dir/cxltier.prom"
    assert_success
    assert_equal "$(ls -A "$dir")" cxltier.prom
}

@test "--output-file: a missing directory or a directory name: exit 1, said" {
    run --separate-stderr cxltier metrics --sysroot "$(fixture lab-region-online)" --output-file "$BATS_TEST_TMPDIR/none/x.prom"
    assert_failure 1
    [[ $stderr == *"cannot open the directory $BATS_TEST_TMPDIR/none"* ]] || fail "$stderr"
    run --separate-stderr cxltier metrics --sysroot "$(fixture lab-region-online)" --output-file "$BATS_TEST_TMPDIR/"
    assert_failure 1
    [[ $stderr == *"name a file, not a directory"* ]] || fail "$stderr"
}

@test "usage: an argument is refused (exit 2); --list-opts names --output-file" {
    run cxltier metrics --sysroot "$(fixture lab-region-online)" mem0
    assert_failure 2
    run "$CXLTIER" metrics --list-opts
    assert_success
    assert_line '--output-file='
}

@test "-o is a table's columns everywhere: metrics, which has no table, refuses it and writes no file" {
    cd "$BATS_TEST_TMPDIR"
    run --separate-stderr cxltier metrics --sysroot "$(fixture lab-region-online)" -o NAME
    assert_failure 2
    assert_equal "$stderr" "cxltier metrics: error: -o chooses a table's columns, and metrics prints no table: to write a file, give --output-file FILE"
    [[ ! -e NAME ]] || fail "-o NAME wrote a file"
    run --separate-stderr cxltier metrics --sysroot "$(fixture lab-region-online)" --output "$BATS_TEST_TMPDIR/x.prom"
    assert_failure 2
    [[ ! -e x.prom ]]
}

# node_exporter serves the cxltier series (0), or it is gone (0, NE_GONE set)
node_exporter_serves_or_gone() {
    if ! kill -0 "$NE_PID" 2>/dev/null; then
        NE_GONE=1
        return 0
    fi
    curl -sf --max-time 5 "http://127.0.0.1:$NE_PORT/metrics" > "$BATS_TEST_TMPDIR/scrape" &&
        grep -q '^cxltier_region_memory_bytes{' "$BATS_TEST_TMPDIR/scrape"
}

@test "node_exporter's textfile collector serves the series on loopback" {
    command -v prometheus-node-exporter >/dev/null ||
        skip "prometheus-node-exporter is not installed (tools/install-deps.sh installs it)"
    command -v curl >/dev/null || skip "curl is not installed"
    local dir=$BATS_TEST_TMPDIR/textfile try
    mkdir -m 0755 "$dir"
    cxltier metrics --sysroot "$(fixture lab-two-devices)" --output-file "$dir/cxltier.prom"
    # a port free now; taken by someone else in between: try another
    for try in 1 2 3; do
        NE_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        prometheus-node-exporter --web.listen-address="127.0.0.1:$NE_PORT" \
            --collector.textfile.directory="$dir" --collector.disable-defaults --collector.textfile \
            > "$BATS_TEST_TMPDIR/ne.log" 2>&1 3>&- &
        NE_PID=$! NE_GONE=
        wait_for 60 "node_exporter on 127.0.0.1:$NE_PORT to serve cxltier_* (log: $BATS_TEST_TMPDIR/ne.log)" \
            node_exporter_serves_or_gone || break
        [[ -z $NE_GONE ]] && break
        # it exited (the port was taken meanwhile): another port
        wait "$NE_PID" 2>/dev/null || true
        NE_PID=
    done
    [[ -n $NE_PID && -z $NE_GONE ]] || { cat "$BATS_TEST_TMPDIR/ne.log"; fail "node_exporter never served the cxltier series"; }
    run cat "$BATS_TEST_TMPDIR/scrape"
    assert_line 'node_textfile_scrape_error 0'
    assert_line --regexp '^cxltier_region_size_bytes\{region="region0"\} 2\.147483648e\+09$'
    assert_line --regexp '^cxltier_memdev_info\{host="[^"]+",memdev="mem1",serial="0x[0-9a-f]+",state="enabled"\} 1$'
    # every family of the file
    for f in $(grep '^# TYPE' "$dir/cxltier.prom" | cut -d' ' -f3); do
        grep -q "^$f" "$BATS_TEST_TMPDIR/scrape" || fail "$f not served"
    done
}
