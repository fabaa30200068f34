#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The CLI core: version, help, command table, unknown input, exit codes.
load helper

@test "--version prints a version" {
    run cxltier --version
    assert_success
    assert_output --regexp '^[0-9]+\.[0-9]+\.[0-9]+'
}

@test "--list-cmds lists every command, each with a man page source" {
    run cxltier --list-cmds
    assert_success
    assert_line list
    assert_line help
    # the whole command table, in its order
    assert_equal "$output" "$(cmd_table)"
    assert_equal "${#lines[@]}" "$(grep -c $'^\t&command_[a-z-]*,' "$CXLTIER_SRC/cxltier/main.c")"
    for c in $output; do
        [[ -f $CXLTIER_SRC/docs/cxltier-$c.txt ]] || fail "no docs/cxltier-$c.txt for command $c"
    done
}

@test "no command is a usage error" {
    run cxltier
    assert_failure 2
    assert_output --partial usage
}

@test "an unknown command says so and suggests the close one" {
    run cxltier lsit
    assert_failure 2
    assert_output --partial "'lsit' is not a cxltier command"
    assert_output --partial "Did you mean 'list'?"
}

@test "an unknown long option suggests the close one" {
    run cxltier list --jsno
    assert_failure 2
    assert_output --partial "unknown option '--jsno'"
    assert_output --partial "did you mean '--json'?"
}

@test "an unknown short option is a usage error" {
    run cxltier list -Z
    assert_failure 2
    assert_output --partial "'-Z'"
}

@test "an unknown global option is a usage error" {
    run cxltier --frobnicate list
    assert_failure 2
}

@test "COMMAND --list-opts prints its long options" {
    run cxltier list --list-opts
    assert_success
    assert_line --regexp '^--memdev=$'
    assert_line '--json'
    assert_line '--sysroot='
}

@test "help COMMAND prints usage when no man page is wanted" {
    run cxltier help list
    assert_success
    assert_output --partial "usage: cxltier list"
}

@test "help of an unknown command is a usage error" {
    run cxltier help nosuch
    assert_failure 2
}

@test "every command answers --help with exit 0" {
    all_cmds
    for c in $CMDS; do
        [[ $c == help || $c == version ]] && continue
        run cxltier "$c" --help
        [[ $status == 0 ]] || fail "$c --help: status $status: $output"
    done
}

@test "a missing sysroot names the directory" {
    run cxltier --sysroot /nonexistent/root list
    assert_failure 1
    assert_output --partial "/nonexistent/root"
}
