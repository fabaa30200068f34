# SPDX-License-Identifier: GPL-2.0
# tour.sh - the main job inside the VM guest: set up a RAM region the way an
# administrator would, then what cxltier does with it. Output on the console.
. /usr/share/cxltier-vm/lib.sh
export COLUMNS=160   # the serial console is an 80-column tty; tables would wrap
run() { echo; echo "# $*"; "$@"; echo "# exit status $?"; }
r=$(vm_create_ram_region mem0) || { echo "tour: could not create a RAM region"; exit 1; }
d=$(vm_dax_of "$r")
run cxltier list
run cxltier doctor
run cxltier online "$r" --dry-run
run cxltier online "$r"
run cxltier list
run cxltier cdat mem0
run cxltier tiers
# a process demoted to the CXL node and promoted back, with where its memory
# is at each step (small: the lab's CXL memory is emulated, ~15 us an access)
n=$(cat /sys/bus/dax/devices/$d/target_node)
coproc HOG { exec numactl --membind=0 hog 2; }
read -r _ <&"${HOG[0]}"   # "ready": its memory is filled
echo; echo "# a workload (hog, pid $HOG_PID: 2 MiB written on node 0) moved to the CXL memory (node $n) and back"
run cxltier usage --pid $HOG_PID
run cxltier migrate --pid $HOG_PID --to $n
run cxltier usage --pid $HOG_PID
run cxltier migrate --pid $HOG_PID --to 0
kill $HOG_PID; wait $HOG_PID 2>/dev/null
run cxltier events
host_qmp '{"execute":"cxl-inject-general-media-event","arguments":{"path":"/machine/peripheral/cxl-mem0","log":"warning","flags":1,"dpa":4096,"descriptor":1,"type":0,"transaction-type":1}}' >/dev/null
# the kernel drains it into cxltier's trace instance (read without consuming)
vm_wait 30 "the injected event in cxltier's trace instance" \
    grep -q cxl_general_media /sys/kernel/tracing/instances/cxltier/trace
run cxltier events
run cxltier health
run cxltier offline "$r"
exit 0
