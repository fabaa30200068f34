#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier migrate` on this machine's own kernel (moves between nodes are
# tested in test/vm/migrate.bats, which has several).
load helper

@test "a dry run on a real process reports its memory per node and moves nothing" {
    sleep 30 & p=$!
    run --separate-stderr cxltier migrate --pid "$p" --to 0 --dry-run -j
    kill "$p"
    assert_success
    [[ $(jq -r '.processes[0] | [.comm, .mechanism, .dry_run, .bytes_moved] | @tsv' <<<"$output") == $'sleep\tmove_pages\ttrue\t0' ]]
    [[ $(jq '.processes[0].before.node0' <<<"$output") -gt 0 ]]
}

@test "a process that does not exist: named, exit 1" {
    run cxltier migrate --pid 999999 --to 0
    assert_failure 1
    assert_output --partial "process 999999 does not exist"
}

@test "usage errors" {
    run cxltier migrate --to 0
    assert_failure 2
    run cxltier migrate --pid 1
    assert_failure 2
    run cxltier migrate --pid 1 --to 0 --to-tier fastest
    assert_failure 2
    run cxltier migrate --pid x --to 0
    assert_failure 2
    run cxltier migrate --pid 1 --to 0 --max-bytes lots
    assert_failure 2
    run cxltier migrate --pid 1 --to 0 --hot --interval never
    assert_failure 2
}
