#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The bash completion, driven by --list-cmds and --list-opts.
load helper

complete_words() { # words... ; prints COMPREPLY one a line
    local dir=$BATS_TEST_TMPDIR/bin
    mkdir -p "$dir"; ln -sf "$CXLTIER" "$dir/cxltier"
    PATH=$dir:$PATH bash -c '
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _cxltier; printf "%s\n" "${COMPREPLY[@]}"' _ "$CXLTIER_SRC/completion/cxltier" "$@"
}

@test "completes command names" {
    run complete_words cxltier li
    assert_success
    assert_output list
}

@test "completes every command from --list-cmds" {
    run complete_words cxltier ''
    assert_success
    all_cmds
    assert_equal "$output" "$CMDS"
}

@test "completes a command's long options" {
    run complete_words cxltier list --mem
    assert_success
    assert_output --memdev
}

@test "completes global options" {
    run complete_words cxltier --sys
    assert_success
    assert_output --sysroot
}

@test "completes help topics" {
    run complete_words cxltier help ver
    assert_success
    assert_output version
}

@test "region: completes its subcommands, then each one's options" {
    run complete_words cxltier region ''
    assert_success
    assert_line create
    assert_line destroy
    run complete_words cxltier region destroy --off
    assert_success
    assert_output --offline
    run complete_words cxltier region create --gran
    assert_success
    assert_output --granularity
}

@test "after -o: the command's columns, each item of a comma list" {
    run complete_words cxltier tiers -o RD-
    assert_success
    assert_line RD-LAT
    assert_line RD-BW
    run complete_words cxltier tiers -o NODE,CDAT-L
    assert_success
    assert_output NODE,CDAT-LAT
}

@test "an option's argument from the objects of the --sysroot given" {
    local root
    root=$(fixture lab-region-online)
    run complete_words cxltier --sysroot "$root" tiers --from ''
    assert_success
    assert_line 0
    assert_line 1
    # the words after an option that takes an argument are not the command
    run complete_words cxltier tiers --from 1 --mat
    assert_success
    assert_output --matrix
}

@test "an option that takes no words offers nothing" {
    run complete_words cxltier tiers --matrix ''
    assert_success
    assert_output ''
}

@test "poison: its subcommands beside its operands, then a subcommand's options" {
    local root
    root=$(fixture lab-region-online)
    run complete_words cxltier --sysroot "$root" poison ''
    assert_success
    assert_line inject
    assert_line clear
    assert_line mem0
    run complete_words cxltier poison inject --yes
    assert_success
    assert_output --yes-really
}
