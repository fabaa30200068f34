#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mkfixture-cxl.sh DIR BLOCKS [FIXTURE] - a captured CXL tree grown to BLOCKS
# memory blocks: FIXTURE (default test/fixtures/lab-region-online.tar.gz:
# one region, one dax device in system-ram, its blocks online Movable on
# node1) unpacked into DIR, then its region, dax device, decoders and memdev
# made BLOCKS 128 MiB blocks long (8 192 = 1 TiB, 32 768 = 4 TiB, 131 072 =
# 16 TiB) and every block of that range created online Movable on node1,
# files and links as the kernel has them. The companion of
# mkfixture-large.sh (many nodes, no CXL) for the hotplug planners' scale:
# test/bench/scale.sh and test/cli/scale.bats use it.
set -euo pipefail
D=$1 B=$2
HERE=$(cd "$(dirname "$0")" && pwd)
FX=${3:-$HERE/../fixtures/lab-region-online.tar.gz}
rm -rf "$D"; mkdir -p "$D"
tar -xzf "$FX" -C "$D"
python3 - "$D" "$B" <<'PY'
import os, sys
root, blocks = sys.argv[1], int(sys.argv[2])
bs = 0x8000000
mem = f"{root}/sys/devices/system/memory"
node = f"{root}/sys/devices/system/node/node1"
dax = os.path.realpath(f"{root}/sys/bus/dax/devices/dax0.0")
region = os.path.realpath(f"{root}/sys/bus/cxl/devices/region0")
start = int(open(f"{region}/resource").read(), 16)
size = blocks * bs

def put(path, text):
    with open(path, "w") as f:
        f.write(text + "\n")

# The region's blocks as captured go; the grown range replaces them.
first = start // bs
for name in os.listdir(node):
    if name.startswith("memory") and name[6:].isdigit():
        os.unlink(f"{node}/{name}")
        b = f"{mem}/{name}"
        for f in os.listdir(b):
            os.unlink(f"{b}/{f}")
        os.rmdir(b)
for i in range(first, first + blocks):
    b = f"{mem}/memory{i}"
    os.mkdir(b)
    put(f"{b}/state", "online")
    put(f"{b}/online", "1")
    put(f"{b}/phys_index", f"{i:08x}")
    put(f"{b}/valid_zones", "Movable")
    put(f"{b}/removable", "1")
    put(f"{b}/phys_device", "0")
    os.symlink("../../node/node1", f"{b}/node1")
    os.symlink("../../../../bus/memory", f"{b}/subsystem")
    os.symlink(f"../../memory/memory{i}", f"{node}/memory{i}")

# Every size that bounds the range, grown to it.
for path in (f"{region}/size", f"{dax}/../dax_region/size"):
    put(path, hex(size))
put(f"{dax}/size", str(size))
put(f"{dax}/mapping0/end", hex(start + size - 1))
cxl = f"{root}/sys/bus/cxl/devices"
for name in os.listdir(cxl):
    p = os.path.realpath(f"{cxl}/{name}")
    if name.startswith("decoder") and os.path.exists(f"{p}/size"):
        if int(open(f"{p}/size").read(), 16) != 0:
            put(f"{p}/size", hex(max(size, int(open(f"{p}/size").read(), 16))))
    if name.startswith("mem") and os.path.exists(f"{p}/ram/size"):
        put(f"{p}/ram/size", hex(size))
kb = size // 1024
meminfo = open(f"{node}/meminfo").read().splitlines()
out = []
for line in meminfo:
    if "MemTotal:" in line or "MemFree:" in line:
        key = line.split(":")[0]
        line = f"{key}:{kb:>16} kB"
    out.append(line)
put(f"{node}/meminfo", "\n".join(out))
PY
