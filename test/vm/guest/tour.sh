# SPDX-License-Identifier: GPL-2.0
# tour.sh - the main job inside the VM guest: set up a RAM region the way an
# administrator would, then show what cxltier sees. Output goes to the console.
. /usr/share/cxltier-vm/lib.sh
export COLUMNS=160   # the serial console is an 80-column tty; tables would wrap
run() { echo; echo "# $*"; "$@"; echo "# exit status $?"; }
r=$(vm_create_ram_region mem0) || { echo "tour: could not create a RAM region"; exit 1; }
run cxltier list
for c in $(cxltier --list-cmds); do
    case $c in
        online) run cxltier online "$r" ;;
    esac
done
command -v cxltier >/dev/null && cxltier --list-cmds | grep -qx online || vm_online_movable "$(vm_dax_of "$r")"
run cxltier list
run cxltier cdat mem0
cxltier --list-cmds | grep -qx tiers && run cxltier tiers
exit 0
