# SPDX-License-Identifier: GPL-2.0
# cxltier-args.bash - how cxltier reads a command line, for the output
# contract of the test wrappers (test/cli/helper.bash, test/vm/helper.bash in
# the guest) and the host's check after a VM boot (test/vm/vm-test.sh).
#
# cxltier_args ARGV...: sets (declare them local in the caller to keep them
# there) CXLTIER_ARGS_CMD, the command (the first word that is no option and
# no --sysroot value); CXLTIER_ARGS_JSON=1 with -j (alone or among short
# options, not as -o's value), --json or --format json; CXLTIER_ARGS_HELP=1
# with -h, --help, --list-opts or --list-cmds; CXLTIER_ARGS_FOLLOW=1 with
# events' -f/--follow (JSON lines, streamed).
cxltier_args() {
    local a prev=
    CXLTIER_ARGS_CMD= CXLTIER_ARGS_JSON= CXLTIER_ARGS_HELP= CXLTIER_ARGS_FOLLOW=
    for a; do
        case $a in
            -j|--json|--format=json) CXLTIER_ARGS_JSON=1 ;;
            -h|--help|--list-opts|--list-cmds) CXLTIER_ARGS_HELP=1 ;;
            -f|--follow) [[ $CXLTIER_ARGS_CMD == events ]] && CXLTIER_ARGS_FOLLOW=1 ;;
            -[a-zA-Z]*) [[ $prev != -o && $a =~ ^-[a-zA-Z]*j[a-zA-Z]*$ ]] && CXLTIER_ARGS_JSON=1 ;;
        esac
        [[ $prev == --format && $a == json ]] && CXLTIER_ARGS_JSON=1
        [[ -z $CXLTIER_ARGS_CMD && $a != -* && $prev != --sysroot ]] && CXLTIER_ARGS_CMD=$a
        prev=$a
    done
    return 0
}
