#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vm-topology: default
# vm-args: --cdat @BUILD@/test/bad-checksum.cdat
# A device whose CDAT checksum is wrong: the kernel refuses the table;
# cxltier must say so clearly instead of decoding nothing silently.
load helper

@test "a device with a broken CDAT: a clear error, not success" {
    run cxltier cdat mem0
    assert_failure 1
    assert_output --regexp 'endpoint[0-9]+: CDAT is empty: the kernel failed to read or validate'
    dmesg | grep -q 'Failed to read/validate CDAT'

}
