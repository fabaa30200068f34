#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh - boot the cxltier VM guest: a Debian kernel (6.12 or 7.x) under
# QEMU 10 with emulated CXL Type-3 volatile memory, run a script inside,
# return its status.
#
# usage: run.sh -i INITRD -S SHAREDIR [options]
#   SHAREDIR/run.sh is the guest script (bash); the share is /share in the guest
#   -k KERNEL      the kernel to boot, by label (fetch.sh: 6.12, 7.x; default 6.12)
#   --topology T   the CXL machine (default: default):
#                  default           one host bridge, root port, Type-3 device
#                  two-devices       two devices on two root ports of one host bridge
#                  two-host-bridges  one device on each of two host bridges, one
#                                    fixed memory window interleaving both (2-way)
#                  switch            a switch (cxl-upstream/downstream) below the
#                                    root port, two devices below the switch
#                  two-regions       two devices, two fixed memory windows
#                  hotplug           one device and a free root port cxl_rp_hp on
#                                    cxl.1 for QMP device_add (serials 0x1234, 0x5678)
#                  hotplug4          one device and four free root ports cxl_rp_hp0..3
#                                    on cxl.1 (four cards hot-added at once)
#   --numa N       default: node0 CPUs+RAM, node1 the CXL memory
#                  two-socket: node0 cpu0+RAM, node1 cpu1+RAM, node2 the CXL
#                  memory, node3 a cpu-less RAM node (SLIT 21 across sockets)
#   --cdat FILE    the Type-3 device's CDAT (QEMU's built-in table otherwise)
#   --ram-node SZ  add a cpu-less RAM-only NUMA node of SZ (e.g. 1G)
#   -c SIZE        CXL memory per device (default 1G)
#   -m SIZE        guest RAM on node 0 (default 2G)
#   --disk FILE    a raw disk image as the guest's /dev/vda (virtio-blk)
#   --append STR   extra kernel command line
#   --memhp-default  leave out memhp_default_state=offline: hot-added memory is
#                  onlined as the kernel's build says (7.x: online; 6.12: offline)
#   --timeout S    stop QEMU after S seconds (default 600)
#   -v             echo the console while it runs (it is always in SHAREDIR/console.log)
# SHAREDIR/boot-seconds: seconds from starting QEMU to the guest script.
# $CXLTIER_VM_CACHE/ndctl81/root, when fetched, is exported read-only as the
# 9p tag ndctl81 (trixie's ndctl 81, the oracle the tests compare with).
# Exit: the guest script's status; 125 when QEMU died or timed out.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${CXLTIER_VM_CACHE:-/var/cache/cxltier-vm}
. "$CACHE/env.sh"
# CXLTIER_VM_QEMU: another qemu-system-x86_64 (a build of one's own; a wrapper
# that fails on purpose, to prove what vm-test.sh does when QEMU aborts)
QEMU=${CXLTIER_VM_QEMU:-$QEMU}

MEMHP=' memhp_default_state=offline' KERNEL=6.12 INITRD= SHARE= TOPO=default NUMAMODE=default CDAT= RAMNODE= CXLSIZE=1G RAM=2G APPEND= TIMEOUT=600 VERBOSE=0 DISK=
while [[ $# -gt 0 ]]; do
    case $1 in
        -k) KERNEL=$2; shift ;;
        -i) INITRD=$2; shift ;;
        -S) SHARE=$2; shift ;;
        --topology) TOPO=$2; shift ;;
        --numa) NUMAMODE=$2; shift ;;
        --cdat) CDAT=$(realpath "$2"); shift ;;
        --ram-node) RAMNODE=$2; shift ;;
        -c) CXLSIZE=$2; shift ;;
        -m) RAM=$2; shift ;;
        --append) APPEND="$APPEND $2"; shift ;;
        --disk) DISK=$(realpath "$2"); shift ;;
        --memhp-default) MEMHP= ;;
        --timeout) TIMEOUT=$2; shift ;;
        -v) VERBOSE=1 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[[ -n $INITRD && -n $SHARE && -f $SHARE/run.sh ]] || { echo "usage: run.sh -i INITRD -S SHAREDIR (with SHAREDIR/run.sh)" >&2; exit 2; }
SHARE=$(realpath "$SHARE")
# the kernel's files (fetch.sh writes one env file per kernel label)
if [[ -f $CACHE/kernel-$KERNEL.env ]]; then
    . "$CACHE/kernel-$KERNEL.env"
elif [[ $KERNEL != 6.12 ]]; then
    echo "run.sh: no kernel $KERNEL in $CACHE (run test/vm/fetch.sh)" >&2; exit 2
fi
mkdir -p "$SHARE/qmp"
# the kernel as the ELF inside the bzImage, entered at its PVH entry, when it
# has one (pvh-kernel.sh; made once per kernel file and kept in the cache):
# seconds less of emulated firmware and decompression a boot.
# Only with CXLTIER_VM_PVH=1: a loaded run booted so had two guests stall
# (one in early boot, one in a test), which runs of the bzImage did not show;
# not yet told apart from the load. A kernel pvh-kernel.sh could not unpack
# boots its bzImage (remembered as PVH.none, not tried again).
BOOTKERNEL=$VMLINUZ
if [[ ${CXLTIER_VM_PVH:-0} == 1 ]]; then
    pvh=$CACHE/pvh/vmlinux-${KVER:-$(basename "$VMLINUZ")}-$(stat -c %s-%Y "$VMLINUZ")
    if [[ ! -f $pvh && ! -f $pvh.none ]]; then
        mkdir -p "$CACHE/pvh"
        "$HERE/pvh-kernel.sh" "$VMLINUZ" "$pvh" || : > "$pvh.none"
    fi
    if [[ -f $pvh ]]; then BOOTKERNEL=$pvh; fi
fi

# KVM only where hardware virtualisation is really there (kvm_intel/kvm_amd);
# otherwise TCG. -cpu ...,hypervisor=off: the guest kernel refuses to commit a
# CXL region when CPUID says "hypervisor" (no cache invalidation in a VM).
# CXLTIER_VM_TCG_THREAD=single|multi: one host thread for the guest, or one
# per vCPU (default; vm-test.sh sets single when its boots' vCPUs outnumber
# the host's cores)
ACC=(-accel "tcg,thread=${CXLTIER_VM_TCG_THREAD:-multi}" -cpu max,hypervisor=off) ACCEL=tcg
# CXLTIER_VM_ICOUNT=shift=0,sleep=off: guest time counts instructions, not the
# host's wall clock (benchmarks on a busy host; one TCG thread)
[[ -n ${CXLTIER_VM_ICOUNT:-} ]] && ACC=(-accel tcg,thread=single -icount "$CXLTIER_VM_ICOUNT" -cpu max,hypervisor=off)
if [[ ${CXLTIER_VM_ACCEL:-auto} != tcg && -z ${CXLTIER_VM_ICOUNT:-} && ( -d /sys/module/kvm_intel || -d /sys/module/kvm_amd ) ]] &&
   { exec 9<>/dev/kvm; } 2>/dev/null; then
    exec 9>&-
    ACC=(-accel kvm -cpu host,hypervisor=off) ACCEL=kvm
fi

mib() { echo $(( $(numfmt --from=iec "$1") >> 20 )); }
# node 0: CPUs and RAM; node 1: the CXL host bridge's generic port (SRAT +
# HMAT), so that the CXL memory gets a node of its own with access figures.
# Without it QEMU 10.0.2 crashes when that memory is onlined into node 0.
lb() { # initiator target latency-ns bandwidth
    NUMA+=(-numa "hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-latency,latency=$3"
           -numa "hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-bandwidth,bandwidth=$4")
}
case $NUMAMODE in
default)
    NUMA=(-object "memory-backend-ram,id=ram0,size=$RAM"
          -numa node,nodeid=0,cpus=0-1,memdev=ram0
          -numa node,nodeid=1
          -object acpi-generic-port,id=gp0,pci-bus=cxl.1,node=1
          -numa dist,src=0,dst=1,val=20)
    GPNODE=1
    lb 0 0 100 20G; lb 0 1 150 16G
    TOTAL=$(mib "$RAM")
    if [[ -n $RAMNODE ]]; then
        NUMA+=(-object "memory-backend-ram,id=ram2,size=$RAMNODE"
               -numa node,nodeid=2,memdev=ram2
               -numa dist,src=0,dst=2,val=30 -numa dist,src=1,dst=2,val=30)
        lb 0 2 120 18G
        TOTAL=$((TOTAL + $(mib "$RAMNODE")))
    fi ;;
two-socket)
    half=$(( $(mib "$RAM") / 2 ))
    NUMA=(-object "memory-backend-ram,id=ram0,size=${half}M" -object "memory-backend-ram,id=ram1,size=${half}M"
          -object "memory-backend-ram,id=ram3,size=512M"
          -numa node,nodeid=0,cpus=0,memdev=ram0 -numa node,nodeid=1,cpus=1,memdev=ram1
          -numa node,nodeid=2 -numa node,nodeid=3,memdev=ram3
          -object acpi-generic-port,id=gp0,pci-bus=cxl.1,node=2
          -numa dist,src=0,dst=1,val=21 -numa dist,src=0,dst=2,val=24 -numa dist,src=0,dst=3,val=17
          -numa dist,src=1,dst=2,val=31 -numa dist,src=1,dst=3,val=28 -numa dist,src=2,dst=3,val=40)
    GPNODE=2
    lb 0 0 100 20G; lb 0 1 140 12G; lb 0 2 170 16G; lb 0 3 110 18G
    lb 1 0 140 12G; lb 1 1 100 20G; lb 1 2 230 10G; lb 1 3 150 10G
    TOTAL=$(( 2 * half + 512 )) ;;
*) echo "run.sh: unknown --numa $NUMAMODE" >&2; exit 2 ;;
esac

CXLDEV=(-device pxb-cxl,bus_nr=12,bus=pcie.0,id=cxl.1)
t3() { # index root-port serial
    local d="cxl-type3,bus=$2,volatile-memdev=cxl-vmem$1,id=cxl-mem$1,sn=$3"
    [[ -n $CDAT ]] && d="$d,cdat=$CDAT"
    CXLDEV+=(-object "memory-backend-ram,id=cxl-vmem$1,share=on,size=$CXLSIZE" -device "$d")
}
rp() { # root-port-id host-bridge port slot
    CXLDEV+=(-device "cxl-rp,port=$3,bus=$2,id=$1,chassis=0,slot=$4")
}
# a second host bridge, with its generic port in the CXL node's proximity domain
second_hb() {
    CXLDEV+=(-device pxb-cxl,bus_nr=222,bus=pcie.0,id=cxl.2
             -object "acpi-generic-port,id=gp1,pci-bus=cxl.2,node=$GPNODE")
}
FMW=(cxl-fmw.0.targets.0=cxl.1 cxl-fmw.0.size=4G)
case $TOPO in
    default)            # one host bridge, one root port, one device
        rp cxl_rp0 cxl.1 0 2
        t3 0 cxl_rp0 "${CXL_SN:-0x1234}" ;;
    two-devices)        # two devices behind one host bridge (a 2-way region)
        rp cxl_rp0 cxl.1 0 2; rp cxl_rp1 cxl.1 1 3
        t3 0 cxl_rp0 0x1234; t3 1 cxl_rp1 0x5678 ;;
    two-host-bridges)   # one device behind each of two host bridges, one 2-way window across both
        second_hb
        rp cxl_rp0 cxl.1 0 2; rp cxl_rp2 cxl.2 0 5
        t3 0 cxl_rp0 0x1234; t3 1 cxl_rp2 0x5678
        FMW=(cxl-fmw.0.targets.0=cxl.1 cxl-fmw.0.targets.1=cxl.2 cxl-fmw.0.size=4G) ;;
    switch)             # a CXL switch below the root port, two devices below it
        rp cxl_rp0 cxl.1 0 2
        CXLDEV+=(-device cxl-upstream,port=4,bus=cxl_rp0,id=cxl_us0,sn=0x4242
                 -device cxl-downstream,port=0,bus=cxl_us0,id=cxl_ds0,chassis=0,slot=4
                 -device cxl-downstream,port=1,bus=cxl_us0,id=cxl_ds1,chassis=0,slot=5)
        t3 0 cxl_ds0 0x1234; t3 1 cxl_ds1 0x5678 ;;
    two-regions)        # two devices, two fixed memory windows: a region in each
        rp cxl_rp0 cxl.1 0 2; rp cxl_rp1 cxl.1 1 3
        t3 0 cxl_rp0 0x1234; t3 1 cxl_rp1 0x5678
        FMW+=(cxl-fmw.1.targets.0=cxl.1 cxl-fmw.1.size=4G) ;;
    hotplug)            # one device, and a free root port for QMP device_add (id cxl_rp_hp)
        rp cxl_rp0 cxl.1 0 2; rp cxl_rp_hp cxl.1 1 3
        t3 0 cxl_rp0 0x1234 ;;
    hotplug4)           # one device, and four free root ports (ids cxl_rp_hp0..3)
        rp cxl_rp0 cxl.1 0 2
        for i in 0 1 2 3; do rp "cxl_rp_hp$i" cxl.1 $((i + 1)) $((i + 3)); done
        t3 0 cxl_rp0 0x1234 ;;
    *) echo "run.sh: unknown topology $TOPO" >&2; exit 2 ;;
esac
CXLDEV+=(-M "$(IFS=,; echo "${FMW[*]}")")

# On a loaded host the emulated CPUs get little time, and the kernel's boot
# calibrations misjudge it: no_timer_check (the IO-APIC timer check panicked),
# lpj= (the secondary CPU's delay-loop calibration hung the boot; the value
# is what a 2.4 GHz TSC gives at HZ=250, and only delay loops use it),
# tsc=reliable (no clocksource watchdog switching to a slower clock),
# clocksource=hpet: the guest's time is QEMU's virtual clock, the host's own;
# a TSC frequency misjudged at boot on a loaded host (the kernel keeps the
# early figure when the refined one differs by more than 1 %) made guest time
# run many times faster than the host's, and per-test timeouts fire early.
# memhp_default_state=offline: both kernels start alike (7.x onlines
# hot-added memory by default, 6.12 does not); --memhp-default drops it
KAPPEND="console=ttyS0,115200 panic=-1 quiet loglevel=4 no_timer_check lpj=9781740 tsc=reliable clocksource=hpet$MEMHP$APPEND"
Q=$CACHE/qemu
# trixie's ndctl 81 (fetch.sh), read-only: the guest mounts tag ndctl81 on
# /opt/ndctl81 when a test compares with it (ndctl-oracle.bash: oracle_ready). On the
# root bus, before the CXL devices (after them it would land on a pxb-cxl).
NDCTL81=()
[[ -d $CACHE/ndctl81/root ]] &&
    NDCTL81=(-virtfs "local,path=$CACHE/ndctl81/root,mount_tag=ndctl81,security_model=none,readonly=on,id=ndctl81")
# the disk, on the root bus too
DISKDEV=()
[[ -z $DISK ]] || DISKDEV=(-drive "file=$DISK,if=none,format=raw,id=disk0" -device "virtio-blk-pci,drive=disk0,bus=pcie.0,serial=cxltier-test")
CMD=(env QEMU_MODULE_DIR="$QEMU_MODULE_DIR" "$QEMU"
     -L "$Q/usr/share/qemu" -L "$Q/usr/share/seabios" -L /usr/lib/ipxe/qemu
     -machine q35,cxl=on,hmat=on "${ACC[@]}" -smp 2 -m "${TOTAL}M" "${NUMA[@]}"
     -nodefaults -display none -no-reboot
     -chardev stdio,id=con0,signal=off -serial chardev:con0
     -kernel "$BOOTKERNEL" -initrd "$INITRD" -append "$KAPPEND"
     -qmp "unix:$SHARE/qmp.sock,server=on,wait=off"
     -virtfs "local,path=$SHARE,mount_tag=share,security_model=none,id=share"
     "${NDCTL81[@]}" "${DISKDEV[@]}" "${CXLDEV[@]}")
printf '%q ' "${CMD[@]}" > "$SHARE/cmdline"

python3 "$HERE/qmp.py" "$SHARE/qmp.sock" --serve "$SHARE/qmp" 2>"$SHARE/qmp-agent.err" &
AGENT=$! QPID=
# stopped early (vm-test.sh interrupted): QEMU goes too (timeout passes the signal on)
trap 'kill $AGENT $QPID 2>/dev/null || true' EXIT
trap 'exit 143' TERM; trap 'exit 130' INT

: > "$SHARE/console.log"
rm -f "$SHARE/boot-seconds"
RC=
qrc=0
T0=$EPOCHREALTIME
exec {CON}< <(exec timeout "$TIMEOUT" "${CMD[@]}" </dev/null 2>&1)
QPID=$!
while IFS= read -r -u "$CON" line; do
    line=${line%$'\r'}
    printf '%s\n' "$line" >> "$SHARE/console.log"
    [[ $VERBOSE == 1 ]] && printf '%s\n' "$line" >&2
    case $line in
        "CXLTIER-VM: running"*)
            awk -v a="$T0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }' > "$SHARE/boot-seconds" ;;
        *"CXLTIER-VM: exit status "*) RC=${line##*exit status }; RC=${RC%% *} ;;
        *"KVM internal error"*) echo "run.sh: KVM cannot run this guest; set CXLTIER_VM_ACCEL=tcg" >&2 ;;
    esac
done
# (not a bare wait: under set -e QEMU's own non-zero status, e.g. 134 when it
# aborts on an assertion, would end run.sh here with nothing said)
wait "$QPID" || qrc=$?
QPID=
echo "CXLTIER-VM-HOST: qemu exit $qrc" >> "$SHARE/console.log"
if [[ -z $RC ]]; then
    echo "run.sh: the guest did not finish (QEMU status $qrc, accel $ACCEL); console: $SHARE/console.log" >&2
    tail -20 "$SHARE/console.log" >&2
    exit 125
fi
exit "$RC"
