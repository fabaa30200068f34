# SPDX-License-Identifier: GPL-2.0-only
# udev-check.bash - what the CLI tests (test/cli/helper.bash) and the VM
# tests (test/vm/helper.bash, copied into the guest) check of `udevadm test`.

# rules_parsed_clean NAME: in udevadm test's output ($output, as `run`
# leaves it) the rules file NAME is named only to say it is read; any other
# line naming it is a complaint (udevadm 252 prints "FILE:LINE Invalid key
# 'X'" and exits 0)
rules_parsed_clean() {
    local complaints
    complaints=$(grep -F "$1" <<< "$output" | grep -v '^Reading rules file: ' || true)
    [[ -z $complaints ]] || { echo "udev complains about $1: $complaints"; return 1; }
}
