#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run-share.sh - inside the VM guest: run the host's /share/run.sh, say its
# exit status on the console (the host's run.sh reads it there), power off.
# Run by /init itself, or by cxltier-vm.service when systemd is PID 1
# (kernel command line cxltier.init=systemd).
export PATH=/usr/sbin:/usr/bin HOME=/root
echo "CXLTIER-VM: running (guest uptime $(cut -d' ' -f1 /proc/uptime) s)" > /dev/console
rc=1
if [ -f /share/run.sh ]; then
    cd /share && bash /share/run.sh; rc=$?
    cd /
else
    echo "CXLTIER-VM: /share/run.sh missing" > /dev/console
fi
sync
echo "CXLTIER-VM: exit status $rc" > /dev/console
umount /share 2>/dev/null
poweroff -f
