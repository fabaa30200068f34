#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The JSON contract: every command's -j output has a schema in docs/schema
# (draft 2020-12), the schemas are sound and of one version, cxltier names
# that version, and the checks every test runs through helper.bash catch a
# broken output.
load helper

SCHEMAS=$CXLTIER_SRC/docs/schema
# commands that print no JSON of their own: help shows a manual or usage;
# hotplug runs `online --policy` for udev's devices, whose output goes to
# the journal (-j refused: test/cli/hotplug.bats); run becomes its command
# (-j refused: test/cli/run.bats)
NO_JSON="help hotplug run"

@test "every schema is valid draft 2020-12, named by its file, of one version; every \$ref resolves" {
    run "$VALIDATE_JSON" --check-schemas
    assert_success
    assert_output ""
    for f in "$SCHEMAS"/*.json; do
        jq -e --arg n "$(basename "$f" .json)" \
            '."$schema" == "https://json-schema.org/draft/2020-12/schema" and (."$id" | endswith(":" + $n))' "$f" >/dev/null ||
            fail "$f: \$schema or \$id"
    done
}

@test "every command has its schema, and every schema a command (a new command brings its schema)" {
    local cmd missing= stray= f
    all_cmds
    for cmd in $CMDS; do
        [[ " $NO_JSON " == *" $cmd "* ]] && continue
        [[ -f $SCHEMAS/$cmd.json ]] || missing+=" $cmd"
    done
    [[ -z $missing ]] || fail "no schema for:$missing (docs/schema/CMD.json, in the same commit as the command)"
    for f in "$SCHEMAS"/*.json; do
        cmd=$(basename "$f" .json)
        [[ $cmd == common ]] && continue
        grep -qx "$cmd" <<<"$CMDS" || stray+=" $cmd"
    done
    [[ -z $stray ]] || fail "schemas of no command:$stray"
}

@test "cxltier --version -j and version -j name the schemas' version" {
    local v version
    v=$("$VALIDATE_JSON" --version)
    [[ $v =~ ^[0-9]+\.[0-9]+$ ]]
    run cxltier --version -j
    assert_success
    assert_equal "$(jq -r '.version[0].json_schema' <<<"$output")" "$v"
    version=$("$CXLTIER" --version)
    assert_equal "$(jq -r '.version[0].cxltier' <<<"$output")" "$version"
    run cxltier version -j
    assert_success
    assert_equal "$(jq -r '.version[0].json_schema' <<<"$output")" "$v"
    run cxltier -j version
    assert_success
    assert_equal "$(jq -r '.version[0].json_schema' <<<"$output")" "$v"
    run cxltier --version
    assert_success
    assert_output --regexp '^[0-9]+\.[0-9]+\.[0-9]+$'
}

@test "the validator: a key no schema names, a wrong type, a missing key, an unknown command" {
    local list
    list=$(cxltier list --sysroot "$(fixture lab-region-online)" -j)
    run --separate-stderr "$VALIDATE_JSON" list <<<"$(jq '.regions[0].dax_devices[0].surprise = 1' <<<"$list")"
    assert_failure 1
    [[ $stderr == *'$.regions[0].dax_devices[0]'*"'surprise' was unexpected"* ]] || fail "$stderr"
    run --separate-stderr "$VALIDATE_JSON" list <<<"$(jq '.memdevs[0].ram_size = -1' <<<"$list")"
    assert_failure 1
    [[ $stderr == *'$.memdevs[0].ram_size'* ]] || fail "$stderr"
    run --separate-stderr "$VALIDATE_JSON" list <<<"$(jq 'del(.memdevs[0].state)' <<<"$list")"
    assert_failure 1
    [[ $stderr == *"'state' is a required property"* ]] || fail "$stderr"
    run --separate-stderr "$VALIDATE_JSON" -- --sysroot /x no-such-command -j <<<'{}'
    assert_failure 3
    [[ $stderr == *"no schema for the command 'no-such-command'"* ]] || fail "$stderr"
    run --separate-stderr "$VALIDATE_JSON" list <<<'{"memdevs": [], "regions": []'
    assert_failure 1
    [[ $stderr == *"not one JSON value"* ]]
}

@test "events: every kind closed but for fields, open to what the kernel's format lists; --follow lines one by one" {
    local r e
    r=$BATS_TEST_TMPDIR/poison.bin
    # a General Media record (the UUID, length 128)
    printf 'fbcd0a77c260417f85a9088b1621eba680' | xxd -r -p > "$r"
    head -c $((128 - 17)) /dev/zero >> "$r"
    e=$(cxltier events --file "$r" -j)
    e=$(jq -c '.events[0]' <<<"$e")
    # a field the next kernel adds: fine
    "$VALIDATE_JSON" events <<<"{\"events\": [$(jq -c '.fields.field_no_kernel_has = 7' <<<"$e")]}"
    # a decoded key of another kind: not
    run --separate-stderr "$VALIDATE_JSON" events <<<"{\"events\": [$(jq -c '.trace_type = "List"' <<<"$e")]}"
    assert_failure 1
    [[ $stderr == *"'trace_type' was unexpected"* ]] || fail "$stderr"
    # --follow: one event per line, each checked, the bad line named
    printf '%s\n%s\n' "$e" "$(jq -c '.severity = "bad"' <<<"$e")" > "$BATS_TEST_TMPDIR/lines"
    run --separate-stderr "$VALIDATE_JSON" -i "$BATS_TEST_TMPDIR/lines" -- events --follow -j
    assert_failure 1
    [[ $stderr == *"line 2: \$.severity"* && $stderr != *"line 1"* ]] || fail "$stderr"
}

@test "a test whose cxltier breaks the contract fails, even when it expects the run to fail" {
    local fake=$BATS_TEST_TMPDIR/fake-cxltier t=$BATS_TEST_TMPDIR/inner.bats
    printf '#!/bin/sh\necho %s\nexit 1\n' "'{\"memdevs\": [], \"regions\": [], \"surprise\": 1}'" > "$fake"
    chmod +x "$fake"
    # (written as TEST: bats would take an @test line here for one of this file)
    sed 's/^TEST/@test/' > "$t" <<EOF
load $BATS_TEST_DIRNAME/helper
TEST "run, failure expected" { run cxltier list -j; assert_failure 1; }
TEST "command substitution" { x=\$(cxltier list -j); true; }
TEST "not JSON: unchecked" { run cxltier list; assert_failure 1; }
TEST "valid JSON, failure expected" { CXLTIER=$CXLTIER; run cxltier list -j --sysroot /nonexistent; assert_failure 1; }
EOF
    # a bats of its own: nothing of this run's BATS_* environment
    run env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$HOME" CXLTIER="$fake" CXLTIER_SRC="$CXLTIER_SRC" bats --tap "$t" 3>&-
    assert_failure 1
    assert_line "not ok 1 run, failure expected"
    assert_line "not ok 2 command substitution"
    assert_line "ok 3 not JSON: unchecked"
    assert_line "ok 4 valid JSON, failure expected"
    assert_output --partial "'surprise' was unexpected"
}

@test "the validator's --kept: many outputs in one run, each failing one named with what is wrong (the VM tier's check after a boot)" {
    local d=$BATS_TEST_TMPDIR/kept list
    mkdir -p "$d"
    list=$(cxltier list --sysroot "$(fixture lab-region-online)" -j)
    printf '%s' "$list" > "$d/good"
    printf 'list\0-j\0' > "$d/good.argv"
    jq '.surprise = 1' <<<"$list" > "$d/bad"
    printf -- '--sysroot\0/x\0list\0-j\0' > "$d/bad.argv"
    printf '{}' > "$d/unknown"
    printf 'no-such-command\0-j\0' > "$d/unknown.argv"
    printf '%s\n' "$d/good $d/good.argv" > "$d/all-good"
    run "$VALIDATE_JSON" --kept "$d/all-good"
    assert_success
    assert_output ''
    printf '%s\n' "$d/good $d/good.argv" "$d/bad $d/bad.argv" "$d/unknown $d/unknown.argv" > "$d/mixed"
    run "$VALIDATE_JSON" --kept "$d/mixed"
    assert_failure 1
    assert_equal "${#lines[@]}" 2
    [[ ${lines[0]} == "$d/bad"$'\t'*"'surprise' was unexpected"* ]] || fail "${lines[0]}"
    [[ ${lines[1]} == "$d/unknown"$'\t'*"no schema for the command 'no-such-command'"* ]] || fail "${lines[1]}"
}
