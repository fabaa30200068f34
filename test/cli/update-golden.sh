#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# update-golden.sh [CXLTIER]: rewrite test/fixtures/golden/ from the given
# binary (default build/cxltier). Only for intended changes of output shape;
# review `git diff test/fixtures/golden` before committing.
set -euo pipefail
CXLTIER_SRC=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(realpath "${1:-$CXLTIER_SRC/build/cxltier}")
. "$CXLTIER_SRC/test/cli/golden.bash"
. "$CXLTIER_SRC/test/tools/fixture-unpack.bash"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export CXLTIER_NO_MAN=1
golden_cases | while read -r fx args; do
    [[ -d $tmp/$fx ]] || fixture_unpack "$fx" "$tmp/$fx"
    slug=$(golden_slug "$fx" $args)
    mkdir -p "$GOLDEN/$fx"
    rc=0
    # shellcheck disable=SC2086
    "$BIN" $args --sysroot "$tmp/$fx" -j > "$GOLDEN/$slug.json" 2>/dev/null || rc=$?
    echo "$rc" > "$GOLDEN/$slug.rc"
done
echo "update-golden: $(golden_cases | wc -l) cases written under test/fixtures/golden"
