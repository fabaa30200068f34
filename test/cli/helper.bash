# SPDX-License-Identifier: GPL-2.0-only
# Shared setup of the CLI tests: the binary under test and fixture trees.
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load
bats_require_minimum_version 1.5.0   # run --separate-stderr

CXLTIER=${CXLTIER:-$BATS_TEST_DIRNAME/../../build/cxltier}
CXLTIER_SRC=${CXLTIER_SRC:-$BATS_TEST_DIRNAME/../..}
FIXTURES=$CXLTIER_SRC/test/fixtures
export CXLTIER_NO_MAN=1

# fixture NAME: unpack test/fixtures/NAME.tar.gz once per file; prints its root
fixture() {
    local dir=$BATS_FILE_TMPDIR/fixture-$1
    if [[ ! -d $dir ]]; then
        mkdir -p "$dir"
        tar -xzf "$FIXTURES/$1.tar.gz" -C "$dir"
    fi
    echo "$dir"
}

cxltier() { "$CXLTIER" "$@"; }
