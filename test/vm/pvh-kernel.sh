#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# pvh-kernel.sh BZIMAGE OUT - unpack a bzImage's compressed kernel into the
# ELF vmlinux QEMU can boot at its PVH entry, when the kernel has one.
#
# Under TCG, booting a bzImage costs seconds of emulated real-mode setup and
# decompression before the kernel's first line (about 7 s a boot on a busy
# host); QEMU loads the ELF and enters it in 32-bit mode directly. Debian's
# kernels have the entry (CONFIG_PVH, the Xen ELF note PHYS32_ENTRY).
# The payload is found through the boot protocol header (setup_sects at
# 0x1f1, payload_offset/length at 0x248/0x24c, relative to the protected-mode
# code), not by searching for a magic number.
# Exit 0 with OUT written (atomically: two boots may make it at once), 1 when
# this kernel cannot be booted so (no PVH note, a compression not handled).
set -euo pipefail
IN=$1 OUT=$2
u8() { od -An -tu1 -j "$1" -N1 "$IN" | tr -d ' '; }
u32() { od -An -tu4 -j "$1" -N4 "$IN" | tr -d ' '; }
[[ $(od -An -c -j 0x202 -N4 "$IN" | tr -d ' ') == HdrS ]] || { echo "pvh-kernel: $IN: not a bzImage" >&2; exit 1; }
setup=$(u8 $((0x1f1))); (( setup )) || setup=4
off=$(( (setup + 1) * 512 + $(u32 $((0x248))) )) len=$(u32 $((0x24c)))
(( len > 4 && $(stat -c %s "$IN") >= off + len )) ||
    { echo "pvh-kernel: $IN: the payload ($len bytes at $off) is not all in the file" >&2; exit 1; }
magic=$(od -An -tx1 -j "$off" -N4 "$IN" | tr -d ' ')
# the payload's last 4 bytes are the kernel's size: zstd and xz payloads
# have them appended (cut off before decompressing), gzip's own trailer ends so
size=$(u32 $((off + len - 4))) cut=4
case $magic in
    28b52ffd) dec=(zstd -dcq) ;;
    1f8b*) dec=(gzip -dc) cut=0 ;;
    fd377a58) dec=(xz -dcq) ;;
    *) echo "pvh-kernel: $IN: payload compressed as $magic: not handled" >&2; exit 1 ;;
esac
command -v "${dec[0]}" >/dev/null || { echo "pvh-kernel: ${dec[0]} is not installed" >&2; exit 1; }
tmp=$(mktemp "$OUT.XXXXXX")
trap 'rm -f "$tmp"' EXIT
# (a short or failed decompression must not be cached: every later boot of
# this kernel would use it)
dd if="$IN" iflag=skip_bytes,count_bytes skip="$off" count=$((len - cut)) bs=1M status=none | "${dec[@]}" > "$tmp" ||
    { echo "pvh-kernel: $IN: ${dec[0]} failed" >&2; exit 1; }
[[ $(stat -c %s "$tmp") == "$size" ]] ||
    { echo "pvh-kernel: $IN: unpacked $(stat -c %s "$tmp") bytes, the header says $size" >&2; exit 1; }
[[ $(od -An -c -N4 "$tmp" | tr -d ' ') == 177ELF ]] || { echo "pvh-kernel: $IN: the payload is not an ELF kernel" >&2; exit 1; }
# the Xen PHYS32_ENTRY note (type 18): QEMU enters the kernel there
# (read whole: under pipefail, grep -q ending first gives readelf a SIGPIPE)
notes=$(LC_ALL=C readelf -n "$tmp" 2>/dev/null) || true
grep -Eq 'Xen +0x[0-9a-f]+[[:space:]]+(Unknown note type: \(0x00000012\)|NT_XEN_PHYS32_ENTRY|XEN_ELFNOTE_PHYS32_ENTRY)' <<< "$notes" ||
    { echo "pvh-kernel: $IN: no PVH entry" >&2; exit 1; }
chmod 644 "$tmp"
mv "$tmp" "$OUT"
trap - EXIT
