#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install-deps.sh - install everything cxltier needs to build and test on
# Debian 12 (bookworm), from Debian's own archive. Idempotent.
set -euo pipefail
PKGS=(
    # build
    gcc clang meson ninja-build pkg-config
    libcxl-dev libdaxctl-dev libjson-c-dev libkmod-dev libsmartcols-dev libsqlite3-dev libudev-dev libsystemd-dev
    libtracefs-dev libtraceevent-dev libnuma-dev
    # docs
    asciidoctor
    # Debian package (tools/build-deb.sh, test/install/deb.sh)
    debhelper dpkg-dev lintian systemd
    # the Debian 13 tier: a trixie root (tools/trixie-root.sh)
    debootstrap
    # tests
    bats bats-assert bats-support jq valgrind bash-completion bc
    # the tables in a terminal (test/cli/terminal.bats)
    tmux
    # the JSON contract (tools/validate-json) and the metrics (promtool, a
    # node_exporter scraped in test/cli/metrics.bats)
    python3-jsonschema prometheus prometheus-node-exporter curl
    # VM tier: guest tools copied into the initramfs
    ndctl daxctl busybox-static numactl kmod cpio pciutils xxd python3 udev procps xz-utils
    # (CXLTIER_VM_PVH=1: the VM tier boots the kernel inside the bzImage, test/vm/pvh-kernel.sh)
    zstd binutils
    ipxe-qemu
    # runtime libraries of the QEMU 10 that test/vm/fetch.sh unpacks
    libaio1 libbpf1 libcapstone4 libfdt1 libfuse3-3 libibverbs1 libpmem1 librdmacm1
    libslirp0 liburing2 libvdeplug2 libpixman-1-0 libseccomp2 libjpeg62-turbo libpng16-16 libsasl2-2
)
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "install-deps: installing ${missing[*]}" >&2
    if [[ ! -f /var/lib/apt/periodic/.cxltier-updated ]] || ! apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
        apt-get update -q
        mkdir -p /var/lib/apt/periodic; touch /var/lib/apt/periodic/.cxltier-updated
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
else
    echo "install-deps: all packages present" >&2
fi
