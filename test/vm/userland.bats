#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-boot-group: inject
# vm-userland: trixie -- the boot's userland, and the region path it takes, said and checked
# Which userland a boot has, and so which path cxltier's region changes take:
# a "[7.x trixie]" boot (vm-test.sh: # vm-userland: trixie) must be Debian
# 13's (systemd 257, ndctl/libcxl 81: region create through libcxl's
# create_ram_region); every other boot Debian 12's (systemd 252, libcxl
# 76.1, which cannot create RAM regions: through sysfs). A boot whose image
# was not the userland its label names fails here, not quietly elsewhere.
load helper

trixie_boot() { [[ ${CXLTIER_VM_KERNEL:-} == *trixie* ]]; }

@test "the userland is the one the boot's label names: Debian 13 (systemd 257, ndctl 81) or Debian 12 (systemd 252, ndctl 76.1)" {
    local want_os want_ndctl want_systemd VERSION_ID
    if trixie_boot; then want_os=13 want_ndctl=81 want_systemd=257; else want_os=12 want_ndctl=76.1 want_systemd=252; fi
    VERSION_ID=$(. /etc/os-release && echo "$VERSION_ID")
    assert_equal "$VERSION_ID" "$want_os"
    run cxl version
    assert_success
    assert_equal "$output" "$want_ndctl"
    run systemctl --version
    assert_success
    [[ ${lines[0]} == "systemd $want_systemd "* ]] || fail "systemctl --version: ${lines[0]} (want systemd $want_systemd)"
    echo "# Debian $VERSION_ID, ndctl $want_ndctl, ${lines[0]}" >&3
}

@test "region create and destroy take libcxl's path with libcxl 81 (Debian 13), sysfs with 76.1 (Debian 12)" {
    local want
    if trixie_boot; then want="through libcxl"; else want="through sysfs"; fi
    for r in $(ls $CXL | grep '^region[0-9]'); do cxltier region destroy "$r" --offline >/dev/null; done
    run --separate-stderr cxltier region create mem0 --dry-run
    assert_success
    [[ $stderr == *"$want"* ]] || fail "region create --dry-run does not plan $want: $stderr"
    echo "# region create: $want" >&3
}
