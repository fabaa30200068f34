#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fetch.sh - bring Debian's 6.12 kernel and QEMU 10 (bookworm-backports) into
# a cache directory without touching the machine's apt sources: a private apt
# configuration, `apt-get download`, `dpkg-deb -x`. Idempotent: a second run
# downloads nothing.
#
#   $CACHE/debs/      the downloaded .deb files
#   $CACHE/kernel/    boot/vmlinuz-*, lib/modules/*
#   $CACHE/qemu/      qemu-system-x86 + firmware
#   $CACHE/env.sh     KVER VMLINUZ MODDIR QEMU QEMU_DATADIR
#
# Exit 77 when the archive cannot be reached (the VM tier is then skipped).
set -euo pipefail
CACHE=${CXLTIER_VM_CACHE:-/var/cache/cxltier-vm}
SUITE=${SUITE:-bookworm-backports}
KSERIES=${KSERIES:-6.12}

mirror() {
    local u
    u=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -m1 '/debian/\?$' || true)
    [[ -n $u ]] || u=$(awk '$1=="deb" && $2 ~ /\/debian\/?$/ {print $2; exit}' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
    echo "${u%/}"
}
MIRROR=${MIRROR:-$(mirror)}
[[ -n $MIRROR ]] || { echo "fetch: no Debian mirror in the apt sources; set MIRROR" >&2; exit 77; }

APT=$CACHE/apt
mkdir -p "$CACHE/debs" "$APT/lists/partial" "$APT/cache/archives/partial"
printf 'deb %s %s main\n' "$MIRROR" "$SUITE" > "$APT/sources.list"
APTO=(-o Dir::Etc::sourcelist="$APT/sources.list" -o Dir::Etc::sourceparts=-
      -o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache"
      -o Debug::NoLocking=1 -o APT::Sandbox::User=root)

if [[ -f $CACHE/env.sh && -f $CACHE/.complete ]]; then
    echo "fetch: cache complete ($CACHE)" >&2
    exit 0
fi

if ! apt-get "${APTO[@]}" update -q >&2; then
    echo "fetch: cannot reach $SUITE at $MIRROR" >&2; exit 77
fi
KPKG=$(apt-cache "${APTO[@]}" search --names-only \
        "^linux-image-${KSERIES//./\\.}\\.[0-9]+\\+deb[0-9]+-amd64-unsigned\$" |
       awk '{print $1}' | sort -V | tail -1)
[[ -n $KPKG ]] || { echo "fetch: no linux-image-$KSERIES.*-amd64-unsigned in $SUITE" >&2; exit 77; }
KVER=${KPKG#linux-image-}; KVER=${KVER%-unsigned}
# QEMU's module packages come too, so QEMU 10 never loads the host's older modules
QPKGS=(qemu-system-x86 qemu-system-common qemu-system-data seabios
       qemu-system-gui qemu-system-modules-opengl qemu-system-modules-spice qemu-block-extra)

cd "$CACHE/debs"
for p in "$KPKG" "${QPKGS[@]}"; do
    v=$(apt-cache "${APTO[@]}" madison "$p" | awk -v s="$SUITE" '$0 ~ s {print $3; exit}')
    [[ -n $v ]] || { echo "fetch: $p not in $SUITE" >&2; exit 77; }
    if ls "${p}_${v//:/%3a}_"*.deb >/dev/null 2>&1; then continue; fi
    echo "fetch: downloading $p $v" >&2
    apt-get "${APTO[@]}" download -q "$p=$v" >&2
done

unpack() { # dir deb...
    local dir=$1; shift
    rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
    for d in "$@"; do dpkg-deb -x "$d" "$dir.tmp"; done
    rm -rf "$dir"; mv "$dir.tmp" "$dir"
}
unpack "$CACHE/kernel" "$CACHE"/debs/"$KPKG"_*.deb
qdebs=()
for p in "${QPKGS[@]}"; do qdebs+=("$(ls -1 "$CACHE"/debs/"$p"_*.deb | sort -V | tail -1)"); done
unpack "$CACHE/qemu" "${qdebs[@]}"

# qemu-system-data links firmware to /usr/share/seabios: point at our copy
Q=$CACHE/qemu
for l in "$Q"/usr/share/qemu/*; do
    [[ -L $l ]] || continue
    t=$(readlink "$l")
    case $t in /usr/share/seabios/*) [[ -e $Q$t ]] && ln -sfn "$Q$t" "$l" ;; esac
done
MODDIR=$CACHE/kernel/lib/modules/$KVER
[[ -s $MODDIR/modules.dep ]] || depmod -b "$CACHE/kernel" "$KVER"
QEMU=$Q/usr/bin/qemu-system-x86_64
if ! QEMU_MODULE_DIR="$Q/usr/lib/x86_64-linux-gnu/qemu" "$QEMU" --version >/dev/null 2>&1; then
    echo "fetch: the extracted QEMU does not run:" >&2
    ldd "$QEMU" | grep 'not found' >&2 || true
    exit 77
fi
cat > "$CACHE/env.sh" <<ENV
KVER=$KVER
VMLINUZ=$CACHE/kernel/boot/vmlinuz-$KVER
MODDIR=$MODDIR
QEMU=$QEMU
QEMU_DATADIR=$Q/usr/share/qemu
QEMU_MODULE_DIR=$Q/usr/lib/x86_64-linux-gnu/qemu
ENV
touch "$CACHE/.complete"
echo "fetch: kernel $KVER, $("$QEMU" --version | head -1)" >&2
