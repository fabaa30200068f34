#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mkfixture-usage.sh OUT.tar.gz BUILDDIR - capture the fixture of `cxltier
# usage`'s CLI tests in the VM guest: a CXL region onlined (node 1, a slower
# tier), three processes (one on node 0, one interleaved over 0 and 1, one on
# node 1), two of them in a cgroup v2 "db" with the memory controller; the
# usual sysfs capture plus those processes' /proc/PID/{comm,stat,numa_maps},
# init's and kthreadd's, and the cgroup's cgroup.procs and memory.numa_stat.
set -euo pipefail
OUT=$(realpath "$1") BUILD=$(realpath "${2:-build}")
HERE=$(cd "$(dirname "$0")" && pwd)
"$HERE/fetch.sh" >/dev/null
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/share"
"$HERE/mkinitramfs.sh" -o "$work/initrd.gz" -a "$BUILD/test/hog:/usr/bin/hog" \
    -a "$HERE/../capture-sysfs.sh:/usr/bin/capture-sysfs"
cat > "$work/share/run.sh" <<'GUEST'
set -e
. /usr/share/cxltier-vm/lib.sh
r=$(vm_create_ram_region mem0)
vm_online_movable "$(vm_dax_of "$r")"
mkdir -p /sys/fs/cgroup
mount -t cgroup2 none /sys/fs/cgroup
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir /sys/fs/cgroup/db
(echo $BASHPID > /sys/fs/cgroup/db/cgroup.procs; exec numactl --membind=0 hog 16) > /tmp/a &
a=$!
(echo $BASHPID > /sys/fs/cgroup/db/cgroup.procs; exec numactl --interleave=0,1 hog 16) > /tmp/b &
b=$!
numactl --membind=1 hog 8 > /tmp/c &
c=$!
for f in a b c; do until grep -q ready /tmp/$f; do sleep 0.1; done; done
capture-sysfs /tmp/base.tar.gz
mkdir /tmp/fx
tar -xzf /tmp/base.tar.gz -C /tmp/fx
for p in $a $b $c 1 2; do
    mkdir -p /tmp/fx/proc/$p
    for f in comm stat numa_maps; do cat /proc/$p/$f > /tmp/fx/proc/$p/$f; done
done
mkdir -p /tmp/fx/sys/fs/cgroup/db
for f in cgroup.procs memory.numa_stat; do cat /sys/fs/cgroup/db/$f > /tmp/fx/sys/fs/cgroup/db/$f; done
tar -czf /share/out.tar.gz -C /tmp/fx .
kill $a $b $c
GUEST
"$HERE/run.sh" -i "$work/initrd.gz" -S "$work/share" --timeout 900 >/dev/null && [[ -s $work/share/out.tar.gz ]] ||
    { tail -20 "$work/share/console.log"; exit 1; }
cp "$work/share/out.tar.gz" "$OUT"
echo "$OUT"
