#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# test/skips.py: a skip is named, and one not on the list fails the run

load helper

setup() {
    SKIPS=$CXLTIER_SRC/test/skips.py
    D=$BATS_TEST_TMPDIR
    cat > "$D/expected" <<'X'
# comment
cli | hotplug | - | udev: memory blocks start nothing* | the host has none
vm | metrics | 7.x | AER* | 7.x counts none
X
    mkdir -p "$D/vm"
    printf '# vm-topology: two-devices\n' > "$D/vm/metrics.bats"
}

# a meson testlog.json whose test FILE printed LINES (one TAP line each)
meson_log() { # out file lines...
    local out=$1 file=$2; shift 2
    python3 -c 'import json,sys; print(json.dumps({"name": "cxltier:cli / " + sys.argv[1], "result": "OK", "stdout": "\n".join(sys.argv[2:]) + "\n"}))' "$file" "$@" > "$out"
}

@test "skips: a listed skip is named and allowed; the run passes" {
    meson_log "$D/cli.json" hotplug "ok 1 a" "ok 4 udev: memory blocks start nothing, however # skip no offline block"
    printf 'ok 1 [7.x] metrics: AER counts # skip 7.x counts none\nok 2 [7.x] metrics: other\n' > "$D/vm.tap"
    run python3 "$SKIPS" --expected "$D/expected" --vm-src "$D/vm" unit+cli="$D/cli.json" vm="$D/vm.tap"
    assert_success
    assert_output --partial "skip: cli hotplug: udev: memory blocks start nothing, however -- no offline block [allowed ($D/expected:2)]"
    assert_output --partial "skip: vm metrics [7.x, topology two-devices]: AER counts -- 7.x counts none [allowed ($D/expected:3)]"
    assert_output --partial "skips: 2 skipped, 0 not on the list"
}

@test "skips: a planted skip not on the list fails the run, named" {
    meson_log "$D/cli.json" list "ok 1 a" "ok 2 planted # skip because"
    run python3 "$SKIPS" --expected "$D/expected" --vm-src "$D/vm" unit+cli="$D/cli.json"
    assert_failure 1
    assert_output --partial "skip: cli list: planted -- because [NOT ON THE LIST ($D/expected)]"
    assert_output --partial "skips: 1 skipped, 1 not on the list"
}

@test "skips: the same test skipped on a kernel the list does not name fails" {
    printf 'ok 1 [6.12] metrics: AER counts # skip 6.12 too\n' > "$D/vm.tap"
    run python3 "$SKIPS" --expected "$D/expected" --vm-src "$D/vm" vm="$D/vm.tap"
    assert_failure 1
    assert_output --partial "NOT ON THE LIST"
}

@test "skips: a listed skip that no longer skips is said, in a tier that ran" {
    printf 'ok 1 [7.x] metrics: AER counts\n' > "$D/vm.tap"
    run python3 "$SKIPS" --expected "$D/expected" --vm-src "$D/vm" vm="$D/vm.tap"
    assert_success
    assert_output --partial "skips: $D/expected:3 no longer skips: metrics | 7.x | AER*"
    refute_output --partial "expected:2 no longer"
}

@test "skips: a skipped VM test without its kernel and file, or a list line without its reason, is an error" {
    printf 'ok 1 nameless # skip why\n' > "$D/vm.tap"
    run python3 "$SKIPS" --expected "$D/expected" vm="$D/vm.tap"
    assert_failure 2
    assert_output --partial "a skipped test without its kernel and file"
    printf 'cli | list | - | x |\n' > "$D/bad"
    run python3 "$SKIPS" --expected "$D/bad"
    assert_failure 2
    assert_output --partial "every field given"
}

@test "skips: the repository's list is well formed" {
    run python3 "$SKIPS"
    assert_success
    assert_output --partial "skips: 0 skipped, 0 not on the list"
}

# vm-test.sh's header check alone (no boot)
vm_headers() { CXLTIER_VM_CHECK_HEADERS=1 "$CXLTIER_SRC/test/vm/vm-test.sh" "$D" "$@"; }

@test "vm headers: a kernel left out without a reason, an unknown kernel, or none, is refused; the repository's pass" {
    printf '# vm-kernels: 6.12\n@test "x" { :; }\n' > "$D/a.bats"
    run vm_headers "$D/a.bats"
    assert_failure 1
    assert_output --partial "leaves a kernel out without a reason"
    printf '# vm-kernels: 6.21 -- typo\n' > "$D/b.bats"
    run vm_headers "$D/b.bats"
    assert_failure 1
    assert_output --partial "names kernel '6.21'"
    printf '# vm-kernels: -- nothing\n' > "$D/c.bats"
    run vm_headers "$D/c.bats"
    assert_failure 1
    assert_output --partial "names no kernel"
    printf '# vm-kernels: 6.12 -- a reason\n' > "$D/d.bats"
    run vm_headers "$D/d.bats"
    assert_success
    run vm_headers
    assert_success
}

@test "vm headers: an ASan filter (vm-asan-tests) that matches no test is refused; one that matches passes" {
    printf '# vm-asan-tests: no such test -- a typo\n@test "moves pages" { :; }\n' > "$D/f.bats"
    run vm_headers "$D/f.bats"
    assert_failure 1
    assert_output --partial "'# vm-asan-tests: no such test' matches no test"
    printf '# vm-asan-tests: moves -- the one\n@test "moves pages" { :; }\n' > "$D/g.bats"
    run vm_headers "$D/g.bats"
    assert_success
}

@test "vm headers: vm-build names a known build and a reason; a file that needs crash points without that build is refused before anything boots" {
    printf '# vm-build: crashpoints -- typo\n@test "x" { :; }\n' > "$D/h.bats"
    run vm_headers "$D/h.bats"
    assert_failure 1
    assert_output --partial "names build 'crashpoints'"
    printf '# vm-build: crash-points\n@test "x" { :; }\n' > "$D/i.bats"
    run vm_headers "$D/i.bats"
    assert_failure 1
    assert_output --partial "gives no reason"
    printf '# vm-build: crash-points -- kills at every step\n@test "x" { :; }\n' > "$D/j.bats"
    run vm_headers "$D/j.bats"
    assert_success
    # (not the header check alone: the refusal comes before fetch.sh and any boot)
    run env -u CXLTIER_VM_ASAN_BUILD "$CXLTIER_SRC/test/vm/vm-test.sh" "$D" "$D/j.bats"
    assert_failure 1
    assert_output --partial "needs the test-only build (# vm-build: crash-points)"
    mkdir -p "$D/plain"
    printf '#!/bin/sh\n' > "$D/plain/cxltier"
    run env CXLTIER_VM_ASAN_BUILD="$D/plain" "$CXLTIER_SRC/test/vm/vm-test.sh" "$D" "$D/j.bats"
    assert_failure 1
    assert_output --partial "$D/plain/cxltier has none: configure it with -Dcrash_points=true"
}

@test "vm headers: the files of a boot group share one boot per kernel, in name order; a member on another machine is refused" {
    printf '# vm-topology: default\n# vm-boot-group: g1\n@test "x" { :; }\n' > "$D/b.bats"
    printf '# vm-topology: default\n# vm-boot-group: g1\n@test "y" { :; }\n' > "$D/a.bats"
    printf '# vm-topology: default\n@test "z" { :; }\n' > "$D/c.bats"
    run env CXLTIER_VM_LIST_BOOTS=1 CXLTIER_VM_KERNELS="6.12 7.x" "$CXLTIER_SRC/test/vm/vm-test.sh" "$D" "$D/b.bats" "$D/c.bats" "$D/a.bats"
    assert_success
    assert_output "$(printf '%s\n' '6.12: a.bats b.bats' '6.12: c.bats' '7.x: a.bats b.bats' '7.x: c.bats')"
    # a member on another topology, or kernels, would run on a machine it did not ask for
    printf '# vm-topology: two-devices\n# vm-boot-group: g1\n@test "y" { :; }\n' > "$D/a.bats"
    run vm_headers "$D/a.bats" "$D/b.bats"
    assert_failure 1
    assert_output --partial "share boot group 'g1' but not their '# vm-topology:' line"
    printf '# vm-topology: default\n# vm-kernels: 6.12 -- a reason\n# vm-boot-group: g1\n@test "y" { :; }\n' > "$D/a.bats"
    run vm_headers "$D/a.bats" "$D/b.bats"
    assert_failure 1
    assert_output --partial "not their '# vm-kernels:' line"
    printf '# vm-topology: default\n# vm-boot-group: G 1\n@test "y" { :; }\n' > "$D/a.bats"
    run vm_headers "$D/a.bats"
    assert_failure 1
    assert_output --partial "a group is named with a-z, 0-9 and -"
}

@test "vm headers: a file booted again after others (# vm-reboot) needs its group, a file before it in the run, a reason; a disk is the group's" {
    printf '# vm-topology: default\n# vm-boot-group: h\n# vm-disk: 64M -- why\n@test "x" { :; }\n' > "$D/h1.bats"
    printf '# vm-topology: default\n# vm-boot-group: h\n# vm-disk: 64M -- why\n# vm-reboot: before -- why\n@test "y" { :; }\n' > "$D/h2.bats"
    run env CXLTIER_VM_LIST_BOOTS=1 CXLTIER_VM_KERNELS="6.12" "$CXLTIER_SRC/test/vm/vm-test.sh" "$D" "$D/h2.bats" "$D/h1.bats"
    assert_success
    assert_output '6.12: h1.bats h2.bats'
    # alone: the disk it reads would be empty
    run vm_headers "$D/h2.bats"
    assert_failure 1
    assert_output --partial "h2.bats reboots after the files of group 'h' before it, and none is in this run"
    printf '# vm-topology: default\n# vm-boot-group: h\n# vm-disk: 64M -- why\n# vm-reboot: before\n@test "y" { :; }\n' > "$D/h2.bats"
    run vm_headers "$D/h1.bats" "$D/h2.bats"
    assert_failure 1
    assert_output --partial "write '# vm-reboot: before -- WHY'"
    printf '# vm-topology: default\n# vm-reboot: before -- why\n@test "y" { :; }\n' > "$D/h2.bats"
    run vm_headers "$D/h1.bats" "$D/h2.bats"
    assert_failure 1
    assert_output --partial "reboots before it runs (# vm-reboot) but is in no boot group"
    printf '# vm-topology: default\n# vm-boot-group: h\n# vm-disk: 1G -- why\n# vm-reboot: before -- why\n@test "y" { :; }\n' > "$D/h2.bats"
    run vm_headers "$D/h1.bats" "$D/h2.bats"
    assert_failure 1
    assert_output --partial "not their '# vm-disk:' line"
}

@test "skips: a skip allowed in the ASan tier is not allowed in the plain tier" {
    printf 'asan | scale | - | * | valgrind cannot run ASan binaries\n' > "$D/e2"
    meson_log "$D/a.json" scale "ok 1 counts # skip no valgrind for ASan"
    run python3 "$SKIPS" --expected "$D/e2" asan="$D/a.json"
    assert_success
    run python3 "$SKIPS" --expected "$D/e2" unit+cli="$D/a.json"
    assert_failure 1
    assert_output --partial "NOT ON THE LIST"
}
