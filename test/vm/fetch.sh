#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fetch.sh - bring the VM tier's kernels and QEMU 10 into a cache directory
# without touching the machine's apt sources: a private apt configuration
# per suite, `apt-get download`, `dpkg-deb -x`. Idempotent: a second run
# downloads nothing.
#
#   6.12  Debian's 6.12 LTS kernel, bookworm-backports
#         (linux-image-6.12.N+debN-amd64-unsigned: boot/vmlinuz-*, lib/modules/*)
#   7.x   the newest kernel of trixie-backports (linux-binary-unsigned-<ver>-amd64:
#         usr/lib/modules/<ver>/vmlinuz.unsigned; linux-modules-<ver>-amd64:
#         .ko.xz modules under usr/lib/modules/<ver>; linux-base-<ver>-amd64:
#         modules.builtin, modules.order)
#   QEMU 10 and SeaBIOS from bookworm-backports (it boots both kernels)
#   ndctl 81  trixie's cxl and daxctl, the oracle the VM tests compare with
#
#   $CACHE/debs/               the downloaded .deb files
#   $CACHE/kernel/             the 6.12 kernel's files;  $CACHE/kernel-7.x/ the 7.x one's
#   $CACHE/qemu/               qemu-system-x86 + firmware
#   $CACHE/env.sh              QEMU QEMU_DATADIR QEMU_MODULE_DIR (+ the 6.12 kernel's
#                              KVER VMLINUZ MODDIR, as before)
#   $CACHE/kernel-LABEL.env    per kernel: KVER VMLINUZ MODDIR KROOT (the tree
#                              holding lib/modules/KVER)
#   $CACHE/kernels             the labels fetched, one a line
#   $CACHE/ndctl81/root        trixie's ndctl 81 (cxl, daxctl) with its own
#                              glibc and libraries, and the wrappers cxl81, daxctl81
#
# usage: fetch.sh [LABEL...]    (default: 6.12 7.x; QEMU always)
# Exit 77 when the archive cannot be reached (the VM tier is then skipped).
set -euo pipefail
CACHE=${CXLTIER_VM_CACHE:-/var/cache/cxltier-vm}
SUITE=${SUITE:-bookworm-backports}
KSERIES=${KSERIES:-6.12}
SUITE7=${SUITE7:-trixie-backports}
WANT=("$@")
[[ ${#WANT[@]} -gt 0 ]] || WANT=(6.12 7.x)

. "$(cd "$(dirname "$0")/../.." && pwd)/tools/debian-mirror.bash"

# apt_setup DIR SUITE: a private apt state in DIR for SUITE; sets APTO
apt_setup() {
    local dir=$1 suite=$2
    MIRROR=${MIRROR:-$(mirror)}
    [[ -n $MIRROR ]] || { echo "fetch: no Debian mirror in the apt sources; set MIRROR" >&2; exit 77; }
    mkdir -p "$CACHE/debs" "$dir/lists/partial" "$dir/cache/archives/partial"
    printf 'deb %s %s main\n' "$MIRROR" "$suite" > "$dir/sources.list"
    APTO=(-o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=-
          -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache"
          -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
    if ! apt-get "${APTO[@]}" update -q >&2; then
        echo "fetch: cannot reach $suite at $MIRROR" >&2; exit 77
    fi
}

# download SUITE PKG...: the suite's version of each package into $CACHE/debs
download() {
    local suite=$1 p v; shift
    cd "$CACHE/debs"
    for p in "$@"; do
        v=$(apt-cache "${APTO[@]}" madison "$p" | awk -v s="$suite" '$0 ~ s {print $3; exit}')
        [[ -n $v ]] || { echo "fetch: $p not in $suite" >&2; exit 77; }
        if ls "${p}_${v//:/%3a}_"*.deb >/dev/null 2>&1; then continue; fi
        echo "fetch: downloading $p $v" >&2
        apt-get "${APTO[@]}" download -q "$p=$v" >&2
    done
    cd - >/dev/null
}

unpack() { # dir deb...
    local dir=$1; shift
    rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
    for d in "$@"; do dpkg-deb -x "$d" "$dir.tmp"; done
    rm -rf "$dir"; mv "$dir.tmp" "$dir"
}

kernel_env() { # label kver vmlinuz kroot
    cat > "$CACHE/kernel-$1.env.tmp" <<ENV
KVER=$2
VMLINUZ=$3
MODDIR=$4/lib/modules/$2
KROOT=$4
ENV
    mv "$CACHE/kernel-$1.env.tmp" "$CACHE/kernel-$1.env"
}

# --- QEMU 10 and the 6.12 kernel (bookworm-backports) ---
if [[ ! -f $CACHE/env.sh || ! -f $CACHE/.complete ]]; then
    apt_setup "$CACHE/apt" "$SUITE"
    KPKG=$(apt-cache "${APTO[@]}" search --names-only \
            "^linux-image-${KSERIES//./\\.}\\.[0-9]+\\+deb[0-9]+-amd64-unsigned\$" |
           awk '{print $1}' | sort -V | tail -1)
    [[ -n $KPKG ]] || { echo "fetch: no linux-image-$KSERIES.*-amd64-unsigned in $SUITE" >&2; exit 77; }
    KVER=${KPKG#linux-image-}; KVER=${KVER%-unsigned}
    # QEMU's module packages come too, so QEMU 10 never loads the host's older modules
    QPKGS=(qemu-system-x86 qemu-system-common qemu-system-data seabios
           qemu-system-gui qemu-system-modules-opengl qemu-system-modules-spice qemu-block-extra)
    download "$SUITE" "$KPKG" "${QPKGS[@]}"
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
fi
if [[ ! -f $CACHE/kernel-6.12.env ]]; then
    # shellcheck source=/dev/null
    KVER=$(. "$CACHE/env.sh"; echo "$KVER")
    kernel_env 6.12 "$KVER" "$CACHE/kernel/boot/vmlinuz-$KVER" "$CACHE/kernel"
fi

# --- the newest kernel of trixie-backports ---
if [[ " ${WANT[*]} " == *" 7.x "* && ! -f $CACHE/.complete-7.x ]]; then
    apt_setup "$CACHE/apt-$SUITE7" "$SUITE7"
    P=$(apt-cache "${APTO[@]}" search --names-only '^linux-binary-unsigned-[0-9.]+\+deb[0-9]+-amd64$' |
        awk '{print $1}' | sort -V | tail -1)
    [[ -n $P ]] || { echo "fetch: no linux-binary-unsigned-*-amd64 in $SUITE7" >&2; exit 77; }
    K7=${P#linux-binary-unsigned-}
    [[ $K7 == 7.* ]] || { echo "fetch: the newest kernel of $SUITE7 is $K7, not a 7.x" >&2; exit 77; }
    # linux-base: modules.builtin{,.modinfo} and modules.order (libkmod's
    # view of built-in modules: CXL_BUS and CXL_PORT are built in on 7.x)
    download "$SUITE7" "$P" "linux-modules-$K7" "linux-base-$K7"
    unpack "$CACHE/kernel-7.x" "$CACHE/debs/${P}_"*.deb "$CACHE/debs/linux-modules-${K7}_"*.deb \
        "$CACHE/debs/linux-base-${K7}_"*.deb
    ln -sfn usr/lib "$CACHE/kernel-7.x/lib"     # lib/modules/KVER, as modprobe -d expects
    [[ -f $CACHE/kernel-7.x/usr/lib/modules/$K7/vmlinuz.unsigned ]] ||
        { echo "fetch: $P has no usr/lib/modules/$K7/vmlinuz.unsigned" >&2; exit 77; }
    depmod -b "$CACHE/kernel-7.x" "$K7"     # the packages ship no modules.dep
    kernel_env 7.x "$K7" "$CACHE/kernel-7.x/usr/lib/modules/$K7/vmlinuz.unsigned" "$CACHE/kernel-7.x"
    touch "$CACHE/.complete-7.x"
    echo "fetch: kernel $K7 ($SUITE7)" >&2
fi

# --- ndctl 81 of Debian 13 (trixie), the differential oracle ---
# cxl and daxctl with trixie's own libraries and loader in $CACHE/ndctl81/root
# (wrappers cxl81, daxctl81 run them from /opt/ndctl81, where the guest
# mounts it: run.sh exports it read-only as 9p tag ndctl81). Bookworm's 76.1
# cannot create RAM regions and its `cxl monitor` crashes on 6.12's events.
# (and the rest of what cxltier built on trixie needs: libsmartcols1,
# libnuma1; tools/trixie-test.sh's binary runs in the guest with them;
# and rasdaemon 0.8.3 with sqlite3 to read its database, the event store's
# peer: wrappers rasdaemon13, sqlite3-13)
NDCTL81_PKGS=(cxl daxctl libcxl1 libdaxctl1 libndctl6 libc6 libjson-c5 libkmod2 libssl3t64 libtraceevent1
              libtracefs1 libudev1 libuuid1 libzstd1 liblzma5 libiniparser4 libkeyutils1 libcap2 libgcc-s1 zlib1g
              libsmartcols1 libnuma1 libsqlite3-0 rasdaemon sqlite3 libreadline8t64 libtinfo6)
ndctl81_stamp=$(printf '%s\n' "${NDCTL81_PKGS[@]}" | sha256sum | cut -c1-16)
if [[ $(cat "$CACHE/.complete-ndctl81" 2>/dev/null) != "$ndctl81_stamp" ]]; then
    apt_setup "$CACHE/apt-trixie" trixie
    download trixie "${NDCTL81_PKGS[@]}"
    debs=()
    for p in "${NDCTL81_PKGS[@]}"; do
        v=$(apt-cache "${APTO[@]}" madison "$p" | awk '$0 ~ /trixie/ {print $3; exit}')
        debs+=("$(ls "$CACHE/debs/${p}_${v//:/%3a}_"*.deb | head -1)")
    done
    unpack "$CACHE/ndctl81" "${debs[@]}"
    N=$CACHE/ndctl81
    mkdir -p "$N/root"
    mv "$N/usr" "$N/root/"
    rm -rf "$N"/{etc,lib,lib64,sbin,bin,var} "$N/root/usr/share"/{doc,man,locale,lintian,bash-completion}
    L=/opt/ndctl81/usr/lib/x86_64-linux-gnu
    for t in cxl daxctl; do
        printf '#!/bin/sh\n# trixie'"'"'s %s (ndctl 81) with its own loader and libraries\nexec %s/ld-linux-x86-64.so.2 --library-path %s /opt/ndctl81/usr/bin/%s "$@"\n' \
            "$t" "$L" "$L" "$t" > "$N/root/${t}81"
        chmod 755 "$N/root/${t}81"
    done
    for t in sbin/rasdaemon:rasdaemon13 bin/sqlite3:sqlite3-13; do
        printf '#!/bin/sh\n# trixie'"'"'s %s with its own loader and libraries\nexec %s/ld-linux-x86-64.so.2 --library-path %s /opt/ndctl81/usr/%s "$@"\n' \
            "${t#*/}" "$L" "$L" "${t%%:*}" > "$N/root/${t#*:}"
        chmod 755 "$N/root/${t#*:}"
    done
    HL=$N/root/usr/lib/x86_64-linux-gnu
    if "$HL/ld-linux-x86-64.so.2" --library-path "$HL" --list "$N/root/usr/bin/cxl" | grep 'not found' >&2 ||
       [[ $("$HL/ld-linux-x86-64.so.2" --library-path "$HL" "$N/root/usr/bin/cxl" version) != 81 ]]; then
        echo "fetch: trixie's cxl does not run as ndctl 81 with its own libraries" >&2; exit 77
    fi
    if ! "$HL/ld-linux-x86-64.so.2" --library-path "$HL" "$N/root/usr/sbin/rasdaemon" --version | grep -q '0\.8\.3' ||
       ! "$HL/ld-linux-x86-64.so.2" --library-path "$HL" "$N/root/usr/bin/sqlite3" --version >/dev/null; then
        echo "fetch: trixie's rasdaemon 0.8.3 or sqlite3 does not run with their own libraries" >&2; exit 77
    fi
    echo "$ndctl81_stamp" > "$CACHE/.complete-ndctl81"
    echo "fetch: ndctl 81 (trixie) in $N/root" >&2
fi

labels=()
for l in 6.12 7.x; do [[ -f $CACHE/kernel-$l.env ]] && labels+=("$l"); done
printf '%s\n' "${labels[@]}" > "$CACHE/kernels.$$" && mv "$CACHE/kernels.$$" "$CACHE/kernels"   # (a file of its own: runs may overlap)
echo "fetch: cache complete ($CACHE: kernels ${labels[*]})" >&2
