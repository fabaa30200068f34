#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# `cxltier poison` and `health --set-alert` where no device is needed: the
# refusals, usage errors and completion. The device side is in test/vm/.
load helper

complete_words() { # words... ; prints COMPREPLY one a line
    local dir=$BATS_TEST_TMPDIR/bin
    mkdir -p "$dir"; ln -sf "$CXLTIER" "$dir/cxltier"
    PATH=$dir:$PATH bash -c '
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _cxltier; printf "%s\n" "${COMPREPLY[@]}"' _ "$CXLTIER_SRC/completion/cxltier" "$@"
}

@test "poison --help: the list, and inject/clear marked as test tools" {
    run cxltier poison --help
    assert_success
    assert_output --partial 'trigger_poison_list'
    assert_output --partial 'inject MEMDEV DPA [LENGTH] --yes-really   (a test tool)'
    run cxltier poison inject --help
    assert_success
    assert_output --partial 'TEST TOOLS'
    assert_output --partial 'They destroy data'
}

@test "poison on a captured tree: refused, it reads live devices (exit 77)" {
    run --separate-stderr cxltier poison --sysroot "$(fixture lab-region-online)"
    assert_failure 77
    [[ $stderr == *"not possible on a captured tree (--sysroot)"* ]]
    run --separate-stderr cxltier --sysroot "$(fixture lab-region-online)" poison mem0 -j
    assert_failure 77
    run --separate-stderr cxltier poison inject mem0 0x1000 --yes-really --sysroot "$(fixture lab-region-online)"
    assert_failure 77
    [[ $stderr == *"acts on a live device"* ]]
    run --separate-stderr cxltier poison clear mem0 0x1000 --yes-really --sysroot "$(fixture lab-region-online)"
    assert_failure 77
}

@test "poison inject and clear refuse without --yes-really, saying what they destroy" {
    run --separate-stderr cxltier poison inject mem0 0x40000
    assert_failure 2
    [[ $stderr == *"test tool that destroys the data at mem0 DPA 0x40000"* ]]
    [[ $stderr == *"add --yes-really"* ]]
    run --separate-stderr cxltier poison clear mem0 4096 128
    assert_failure 2
    [[ $stderr == *"overwritten with zeroes"* ]]
}

@test "poison inject and clear: argument errors are usage errors" {
    run cxltier poison inject mem0 --yes-really
    assert_failure 2
    assert_output --partial 'poison inject MEMDEV DPA [LENGTH]'
    run cxltier poison inject mem0 0x1000 64 extra --yes-really
    assert_failure 2
    run cxltier poison clear mem0 0xzz --yes-really
    assert_failure 2
    assert_output --partial 'numbers'
    run cxltier poison inject mem0 0x1000 -64 --yes-really
    assert_failure 2
    run cxltier poison inject mem0 0x1000 1G --yes-really
    assert_failure 2
    run cxltier poison inject --bogus
    assert_failure 2
}

@test "poison: --list-opts for the list and for each test tool" {
    run cxltier poison --list-opts
    assert_success
    assert_line --json
    refute_line --yes-really
    run cxltier poison inject --list-opts
    assert_success
    assert_line --yes-really
}

@test "completion: poison's subcommands, their options, health --set-alert names" {
    run complete_words cxltier poison ''
    assert_success
    assert_line inject
    assert_line clear
    run complete_words cxltier poison inject --y
    assert_success
    assert_output --yes-really
    run complete_words cxltier poison clear mem0 0x1000 --ye
    assert_success
    assert_output --yes-really
    run complete_words cxltier poison --js
    assert_success
    assert_output --json
    run complete_words cxltier health --set-alert life-used=90,ov
    assert_success
    assert_output life-used=90,over-temperature=
    run complete_words cxltier health --set-alert p
    assert_success
    assert_output pmem-err=
}

@test "health --set-alert: what it takes is checked before any device is asked" {
    run --separate-stderr cxltier health --set-alert life-used=90,temperature=5 mem0
    assert_failure 2
    [[ $stderr == *"'temperature' is not an alert: life-used, over-temperature, under-temperature, volatile-mem-err, pmem-err"* ]]
    run --separate-stderr cxltier health --set-alert life-used=101 mem0
    assert_failure 2
    [[ $stderr == *"a whole number from 0 to 100, or off"* ]]
    run --separate-stderr cxltier health --set-alert over-temperature=-40000 mem0
    assert_failure 2
    run --separate-stderr cxltier health --set-alert life-used=90,life-used=off mem0
    assert_failure 2
    [[ $stderr == *"given twice"* ]]
    run --separate-stderr cxltier health --set-alert life-used=90
    assert_failure 2
    [[ $stderr == *"needs the memdevs to set: MEMDEV... or all"* ]]
    run --separate-stderr cxltier health --set-alert life-used=90 --file "$CXLTIER_SRC/test/fixtures/payloads/health-normal.bin"
    assert_failure 2
}

@test "health --set-alert on a captured tree: refused (exit 77)" {
    run --separate-stderr cxltier health --set-alert life-used=90,pmem-err=off mem0 --sysroot "$(fixture lab-region-online)"
    assert_failure 77
    [[ $stderr == *"captured tree"* ]]
}

@test "health: the alert thresholds as table columns" {
    P=$CXLTIER_SRC/test/fixtures/payloads
    run cxltier health --file "$P/health-normal.bin" --alert-file "$P/alert-config.bin" \
        -o MEMDEV,ALERTS,PROGRAMMABLE,LIFE-WARN,LIFE-CRIT,OVERTEMP-WARN,OVERTEMP-CRIT,UNDERTEMP-WARN,UNDERTEMP-CRIT,CORR-VOL-WARN,CORR-PERS-WARN
    assert_success
    assert_line --index 1 --regexp 'health-normal.bin +life-used=80,over-temperature=75,under-temperature=0,volatile-mem-err=10000,pmem-err=100 +life_used,over_temperature,corrected_volatile_errors +80 +95 +75 +85 +0 +-10 +10000 +100$'
    # ALERTS through -o +ALERTS (not a default column: the default fits 80
    # columns); without an alert payload it is empty
    run cxltier health --file "$P/health-normal.bin" -o +ALERTS
    assert_success
    assert_line --index 0 --regexp ' ALERTS$'
    assert_line --index 1 --regexp 'health-normal.bin +ok .* 0 *$'
}
