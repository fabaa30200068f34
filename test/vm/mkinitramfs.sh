#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh - build the VM tier's initramfs: busybox, bash, bats, kmod,
# ndctl's cxl/daxctl, numactl, jq, the CXL/DAX modules of one of the cached
# kernels, Debian's systemd/udevd (PID 1 when a boot asks: guest/init), plus
# whatever -a adds (the freshly built cxltier, the tests).
#
# usage: mkinitramfs.sh [-k KERNEL] [-r ROOT] -o OUT [-a SRC[:DST]]...
#   -k KERNEL   whose modules (a fetch.sh label: 6.12, 7.x; default 6.12)
#   -r ROOT     the userland from the Debian root ROOT (tools/trixie-root.sh:
#               Debian 13's systemd, udev, ndctl, bash, bats, ...) instead of
#               this machine's: every program and library is ROOT's, found
#               by ROOT's own ldd and ldconfig (run chrooted); busybox is
#               this machine's static one
#   ELF files added with -a bring their shared libraries along (an ASan
#   build's libasan/libubsan too; with -r, ROOT's).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${CXLTIER_VM_CACHE:-/var/cache/cxltier-vm}
. "$CACHE/env.sh"
OUT= ADDS=() KERNEL=6.12 SYS=
while getopts "k:o:a:r:" o; do
    case $o in k) KERNEL=$OPTARG ;; o) OUT=$OPTARG ;; a) ADDS+=("$OPTARG") ;; r) SYS=$(realpath "$OPTARG") ;; *) exit 2 ;; esac
done
[[ -n $OUT ]] || { echo "usage: $0 [-k KERNEL] [-r ROOT] -o OUT [-a SRC[:DST]]..." >&2; exit 2; }
[[ -z $SYS || -x $SYS/usr/bin/bash ]] || { echo "mkinitramfs: $SYS is no Debian root" >&2; exit 2; }
if [[ -f $CACHE/kernel-$KERNEL.env ]]; then
    . "$CACHE/kernel-$KERNEL.env"
elif [[ $KERNEL != 6.12 ]]; then
    echo "mkinitramfs: no kernel $KERNEL in $CACHE (run test/vm/fetch.sh)" >&2; exit 2
fi

ROOT=$(mktemp -d /tmp/cxltier-initramfs.XXXXXX)
chmod 755 "$ROOT"   # the guest's /: non-root tests must traverse it
# with -r: ELF files from elsewhere are looked at by ROOT's ldd from here
LDDTMP=
[[ -z $SYS ]] || LDDTMP=$(mktemp -d "$SYS/tmp/cxltier-ldd.XXXXXX")
trap 'rm -rf "$ROOT" ${LDDTMP:+"$LDDTMP"}' EXIT
mkdir -p "$ROOT"/usr/{bin,sbin,lib,lib64} "$ROOT"/{dev,proc,sys,tmp,run,share,root,etc,var/lock}
for d in bin sbin lib lib64; do ln -s "usr/$d" "$ROOT/$d"; done
chmod 1777 "$ROOT/tmp"

# copy a file to the same canonical path inside ROOT; never write through a
# link that already exists in ROOT (it could point at the host's file)
put() {
    local src=$1 dst=${2:-$1} d
    d=$(realpath -m "$(dirname "$dst")")
    mkdir -p "$ROOT$d"
    cp -L --remove-destination --preserve=mode "$src" "$ROOT$d/$(basename "$dst")"
}
# a file of the userland (this machine's, or ROOT's with -r) to the same path
put_sys() { put "$SYS$1" "${2:-$1}"; }
# ldd FILE, by the userland's loader: with -r, ROOT's ldd chrooted, FILE
# (a path of the userland's, or with outside=1 one of this machine's) seen
# through ROOT; the libraries it prints are paths of the userland
sys_ldd() {
    local f=$1 outside=${2:-0} t
    if [[ -z $SYS ]]; then ldd "$f" 2>/dev/null; return 0; fi
    if (( outside )); then
        t=$LDDTMP/$(basename "$f"); cp -L "$f" "$t"; f=${t#"$SYS"}
    fi
    chroot "$SYS" ldd "$f" 2>/dev/null || true
}
sys_test() { [[ -x $SYS$1 ]]; }
declare -A SEEN=()
is_elf() { [[ -f $1 && $(head -c4 "$1" | od -An -tx1 | tr -d ' ') == 7f454c46 ]]; }
# put_libs FILE [OUTSIDE]: FILE's shared libraries, the userland's
put_libs() {
    local lib
    while read -r lib; do
        [[ -n $lib && -z ${SEEN[$lib]:-} ]] || continue
        SEEN[$lib]=1; put_sys "$lib"
    done < <(sys_ldd "$1" "${2:-0}" | awk '/=> \//{print $3} /^[ \t]*\/[^ ]+ \(/{print $1}')
}
# a program of the userland, with its libraries
put_bin() { put_sys "$@"; if is_elf "$SYS$1"; then put_libs "$1"; fi; }
# a file from this machine (-a), with the userland's libraries when an ELF file
put_host_bin() { put "$@"; if is_elf "$1"; then put_libs "$1" 1; fi; }
# the libraries an ELF file names for dlopen: cxltier loads libcxl, libsqlite3
# and others on first use (tools/gen-lazy-stubs.py), so ldd does not list
# them; their sonames are strings in the binary, found where ldconfig says
# (ldconfig's cache read once, whole: an awk that stopped at the first
# match would leave ldconfig a SIGPIPE, and pipefail would end the script)
LDCACHE=
put_dlopened() {
    local so path
    if [[ -z $LDCACHE ]]; then
        if [[ -n $SYS ]]; then LDCACHE=$(chroot "$SYS" ldconfig -p); else LDCACHE=$(ldconfig -p); fi
    fi
    for so in $(strings -a "$1" | grep -xE 'lib[A-Za-z0-9_+-]+\.so\.[0-9]+' | sort -u); do
        path=$(awk -v s="$so" '$1 == s && /x86-64/ && !found { print $NF; found = 1 }' <<<"$LDCACHE")
        [[ -n $path && -z ${SEEN[$path]:-} ]] || continue
        SEEN[$path]=1; put_bin "$path"
    done
}

BB=/bin/busybox
ldd "$BB" >/dev/null 2>&1 && { echo "mkinitramfs: $BB is not static (install busybox-static)" >&2; exit 1; }
put "$BB" /usr/bin/busybox
for a in $("$BB" --list); do
    [[ $a == busybox ]] || ln -sf busybox "$ROOT/usr/bin/$a"
done
for b in /usr/bin/bash /usr/bin/kmod /usr/bin/cxl /usr/bin/daxctl /usr/bin/numactl \
         /usr/bin/migratepages /usr/bin/jq /usr/bin/xxd /usr/bin/setpci /usr/bin/strace /usr/bin/flock \
         /usr/bin/setpriv /usr/bin/timeout /usr/bin/pkill /usr/bin/date; do
    if sys_test "$b"; then put_bin "$b"; fi
done
# GNU find, xargs and cp in place of busybox's: capture-sysfs lists a tree
# with find -printf and copies links with cp -P --parents, as on a real machine
for b in /usr/bin/find /usr/bin/xargs /usr/bin/cp; do put_bin "$b"; done
for l in modprobe insmod rmmod lsmod modinfo depmod; do
    rm -f "$ROOT/usr/sbin/$l" "$ROOT/usr/bin/$l"; ln -s ../bin/kmod "$ROOT/usr/sbin/$l"
done
ln -sf bash "$ROOT/usr/bin/sh"
# bats and its helper libraries
put_sys /usr/bin/bats
mkdir -p "$ROOT/usr/libexec"
cp -a "$SYS/usr/lib/bats-core" "$ROOT/usr/lib/"; cp -a "$SYS/usr/libexec/bats-core" "$ROOT/usr/libexec/"
for l in bats-support bats-assert; do
    [[ -d $SYS/usr/lib/bats/$l ]] && { mkdir -p "$ROOT/usr/lib/bats"; cp -a "$SYS/usr/lib/bats/$l" "$ROOT/usr/lib/bats/"; }
done

# systemd as PID 1 for the files that ask for it (kernel command line
# cxltier.init=systemd, guest/init): Debian's systemd, journald and udevd with
# the units they need, started as Debian starts them, and systemctl and
# journalctl; only what cxltier-vm.target pulls in runs (no .wants of a full
# boot), and a boot without cxltier.init=systemd never starts any of it
if sys_test /usr/lib/systemd/systemd; then
    SD=/usr/lib/systemd/system
    for b in /usr/lib/systemd/systemd /usr/lib/systemd/systemd-journald /usr/lib/systemd/systemd-udevd \
             /usr/bin/systemctl /usr/bin/journalctl /usr/bin/udevadm; do
        put_bin "$b"
    done
    # systemd 255 and later start every unit's process through its executor
    # (without it PID 1 fails: "Failed to allocate manager object")
    if sys_test /usr/lib/systemd/systemd-executor; then put_bin /usr/lib/systemd/systemd-executor; fi
    mkdir -p "$ROOT$SD" "$ROOT/usr/lib/udev/rules.d" "$ROOT/etc/systemd"
    for u in "$SYS$SD"/*.target "$SYS$SD"/systemd-udevd{.service,-control.socket,-kernel.socket} \
             "$SYS$SD"/systemd-journald{.service,.socket,-dev-log.socket,-audit.socket}; do
        [[ -e $u ]] && cp -L "$u" "$ROOT$SD/"
    done
    cp "$HERE"/guest/cxltier-vm.{target,service} "$ROOT$SD/"
    cp "$SYS/usr/lib/os-release" "$ROOT/usr/lib/os-release" 2>/dev/null && ln -sf ../usr/lib/os-release "$ROOT/etc/os-release"
fi

# kernel modules with their dependencies; depmod inside the image. 7.x ships
# them xz-compressed: they go in uncompressed (no decompression at boot, and
# no dependence on the guest kmod's or the kernel's decompressors)
MODS=(cxl_acpi cxl_pci cxl_mem cxl_pmem device_dax dax_cxl kmem dax_hmem 9pnet_virtio 9p virtio_blk ext4)
KROOT=${KROOT:-$CACHE/kernel} MD=lib/modules/$KVER
mkdir -p "$ROOT/usr/$MD"
for m in "${MODS[@]}"; do
    # -C /dev/null: the host's modprobe.d "install" rules must not hide deps
    while read -r kw path _; do
        [[ $kw == insmod ]] || continue
        rel=${path#"$KROOT"/}; rel=${rel#usr/}
        mkdir -p "$ROOT/usr/$(dirname "$rel")"
        case $path in
            *.ko.xz) xz -dc "$path" > "$ROOT/usr/${rel%.xz}" ;;
            *.ko.zst) zstd -qdc "$path" > "$ROOT/usr/${rel%.zst}" ;;
            *.ko.gz) gzip -dc "$path" > "$ROOT/usr/${rel%.gz}" ;;
            *) cp "$path" "$ROOT/usr/$rel" ;;
        esac
    done < <(modprobe -C /dev/null -d "$KROOT" -S "$KVER" --show-depends "$m")
done
cp "$KROOT/$MD"/modules.{builtin,builtin.modinfo,order} "$ROOT/usr/$MD/"
depmod -b "$ROOT" "$KVER"

printf 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' > "$ROOT/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$ROOT/etc/group"
ln -s /proc/self/mounts "$ROOT/etc/mtab"
put "$HERE/guest/init" /init
chmod 755 "$ROOT/init"
mkdir -p "$ROOT/usr/share/cxltier-vm"
cp "$HERE"/guest/*.sh "$HERE/guest/bats-format-vm" "$HERE/../tools/cxltier-args.bash" \
    "$HERE/../tools/udev-check.bash" "$ROOT/usr/share/cxltier-vm/"
chmod 755 "$ROOT/usr/share/cxltier-vm/bats-format-vm"

for spec in "${ADDS[@]}"; do
    src=${spec%%:*} dst=${spec#*:}
    [[ $spec == *:* ]] || dst=$src
    [[ -e $src ]] || { echo "mkinitramfs: $src does not exist" >&2; exit 1; }
    if [[ -d $src ]]; then
        mkdir -p "$ROOT$dst"; cp -a "$src/." "$ROOT$dst/"
        while IFS= read -r -d '' f; do is_elf "$f" && { put_libs "$f" 1; put_dlopened "$f"; }; done < <(find "$src" -type f -print0)
    else
        put_host_bin "$src" "$dst"
        if is_elf "$src"; then put_dlopened "$src"; fi
    fi
done

# OUT ending in .gz: compressed (a third of the size); otherwise a plain cpio,
# which the guest kernel unpacks without inflating 40 MB under TCG first
# (seconds of every boot: the VM tier's many boots use .cpio)
if [[ $OUT == *.gz ]]; then
    (cd "$ROOT" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet -R 0:0) | gzip -1 > "$OUT.tmp"
else
    (cd "$ROOT" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet -R 0:0) > "$OUT.tmp"
fi
mv "$OUT.tmp" "$OUT"
