# SPDX-License-Identifier: GPL-2.0-only
# fixture-unpack.bash - a fixture tree unpacked into a directory, shared by
# the CLI tests (helper.bash) and test/cli/update-golden.sh.
#
# A fixture is test/fixtures/NAME.tar.gz, a sysfs/procfs tree captured from a
# real kernel, or test/fixtures/edited/NAME.sh, a captured tree edited to
# carry what the QEMU lab cannot make (an extended linear cache, a famfs
# device, a second switch level). An edit script names its base on a line
# "# base: FIXTURE", says which kernel ABI its edits follow, and is run as
# `bash NAME.sh ROOT` on the unpacked base (its edits in place).

# fixture_unpack NAME DIR: DIR (empty or new) holds fixture NAME
fixture_unpack() {
    local name=$1 dir=$2 src=${CXLTIER_SRC:?} base edit
    edit=$src/test/fixtures/edited/$name.sh
    mkdir -p "$dir"
    if [[ -f $src/test/fixtures/$name.tar.gz ]]; then
        tar -xzf "$src/test/fixtures/$name.tar.gz" -C "$dir"
    elif [[ -f $edit ]]; then
        base=$(sed -n 's/^# base: \([a-z0-9-]*\)$/\1/p' "$edit")
        if [[ -z $base || ! -f $src/test/fixtures/$base.tar.gz ]]; then
            echo "fixture_unpack: $edit names no captured base ('# base: FIXTURE')" >&2
            return 1
        fi
        tar -xzf "$src/test/fixtures/$base.tar.gz" -C "$dir"
        bash -euo pipefail "$edit" "$dir" || { echo "fixture_unpack: $edit failed on $base" >&2; return 1; }
    else
        echo "fixture_unpack: no fixture '$name' (test/fixtures/$name.tar.gz or edited/$name.sh)" >&2
        return 1
    fi
}

# fixture_names: every fixture, captured then edited, a name a line
fixture_names() {
    local f
    for f in "${CXLTIER_SRC:?}"/test/fixtures/*.tar.gz "$CXLTIER_SRC"/test/fixtures/edited/*.sh; do
        [[ -e $f ]] || continue
        f=${f##*/}; f=${f%.tar.gz}; echo "${f%.sh}"
    done
}
