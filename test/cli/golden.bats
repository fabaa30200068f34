#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Every command's JSON on every captured fixture, byte for byte as recorded in
# test/fixtures/golden (a change of shape updates them in the same commit:
# test/cli/update-golden.sh), and each valid against its schema in docs/schema.
load helper
load golden

@test "golden JSON outputs on the captured fixtures" {
    local bad=0 fx args slug rc
    while read -r fx args; do
        slug=$(golden_slug "$fx" $args)
        rc=0
        # shellcheck disable=SC2086
        "$CXLTIER" $args --sysroot "$(fixture "$fx")" -j > "$BATS_TEST_TMPDIR/out.json" 2>"$BATS_TEST_TMPDIR/err" || rc=$?
        if [[ $rc != "$(cat "$GOLDEN/$slug.rc")" ]]; then
            echo "$fx $args: exit $rc, expected $(cat "$GOLDEN/$slug.rc"): $(cat "$BATS_TEST_TMPDIR/err")"; bad=1
        fi
        if ! diff -u "$GOLDEN/$slug.json" "$BATS_TEST_TMPDIR/out.json"; then
            echo "$fx $args: JSON differs from $GOLDEN/$slug.json"; bad=1
        fi
        # shellcheck disable=SC2086
        if [[ -s $BATS_TEST_TMPDIR/out.json ]] &&
           ! "$VALIDATE_JSON" -i "$BATS_TEST_TMPDIR/out.json" -- $args -j; then
            echo "$fx $args: JSON does not match its schema (docs/schema)"; bad=1
        fi
    done < <(golden_cases)
    [[ $bad == 0 ]]
}
