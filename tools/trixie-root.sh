#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# trixie-root.sh - a Debian 13 (trixie) root with what cxltier needs to build,
# test and package, made with debootstrap from the machine's Debian mirror and
# cached outside the tree (like the VM tier's kernels): the host's apt sources
# are not touched. Idempotent: a root made from the same package list is
# reused; the list changed (this file), it is made again.
#
#   tools/trixie-root.sh            print the root's path (made when needed)
#   CXLTIER_TRIXIE_ROOT=DIR         where (default /var/cache/cxltier-trixie/root)
# Exit 77 when the archive cannot be reached.
set -euo pipefail
ROOT=${CXLTIER_TRIXIE_ROOT:-/var/cache/cxltier-trixie/root}
HERE=$(cd "$(dirname "$0")" && pwd)
# what tools/install-deps.sh installs on Debian 12, less the VM tier's own
# (the Debian 13 tier builds, runs the unit and CLI tests and packages; the
# VM tier's Debian 13 guests take their userland from here: systemd, udev,
# ndctl, bats, numactl, jq, and pciutils and strace for the tests)
PKGS=(build-essential gcc clang meson ninja-build pkg-config git
      libcxl-dev libdaxctl-dev libjson-c-dev libkmod-dev libsmartcols-dev libsqlite3-dev libudev-dev libsystemd-dev
      libtracefs-dev libtraceevent-dev libnuma-dev
      asciidoctor debhelper dpkg-dev lintian systemd udev fakeroot
      bats bats-assert bats-support jq valgrind bash-completion bc procps kmod util-linux
      python3-jsonschema prometheus prometheus-node-exporter curl xxd ndctl daxctl numactl
      pciutils strace tmux)
stamp=$(printf '%s\n' "${PKGS[@]}" | sha256sum | cut -c1-16)

. "$HERE/debian-mirror.bash"

# apt-get install PKGS in the root DIR, in a mount namespace of its own
# (proc, sys, dev for the packages' scripts); nothing is mounted on the host
install_in() {
    unshare -m --propagation private bash -euo pipefail -c '
        r=$1; shift
        mount -t proc proc "$r/proc"; mount --rbind /sys "$r/sys"; mount --rbind /dev "$r/dev"
        cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
        # no package starts a service in the root (prometheus would listen
        # on the host'"'"'s network)
        printf "#!/bin/sh\nexit 101\n" > "$r/usr/sbin/policy-rc.d"; chmod 755 "$r/usr/sbin/policy-rc.d"
        chroot "$r" apt-get update -q
        DEBIAN_FRONTEND=noninteractive chroot "$r" apt-get install -y -q --no-install-recommends "$@"
        chroot "$r" apt-get clean' _ "$1" "${PKGS[@]}"
}

if [[ -f $ROOT/.cxltier-root && $(cat "$ROOT/.cxltier-root") == "$stamp" ]]; then
    echo "$ROOT"; exit 0
fi
# a root made from another list: what this one adds is installed in it
if [[ -f $ROOT/.cxltier-root ]]; then
    echo "trixie-root: the package list changed: installing it in $ROOT" >&2
    if install_in "$ROOT" > "$ROOT.log" 2>&1; then
        echo "$stamp" > "$ROOT/.cxltier-root"; echo "$ROOT"; exit 0
    fi
    tail -20 "$ROOT.log" >&2; echo "trixie-root: installing the packages failed; making the root again" >&2
fi
command -v debootstrap >/dev/null || { echo "trixie-root: no debootstrap (tools/install-deps.sh installs it)" >&2; exit 1; }
MIRROR=${MIRROR:-$(mirror)}
[[ -n $MIRROR ]] || { echo "trixie-root: no Debian mirror in the apt sources; set MIRROR" >&2; exit 77; }
new=$ROOT.new
rm -rf "$new"; mkdir -p "$(dirname "$ROOT")"
echo "trixie-root: debootstrap trixie from $MIRROR into $new" >&2
debootstrap --variant=minbase trixie "$new" "$MIRROR" > "$new.log" 2>&1 ||
    { tail -20 "$new.log" >&2; echo "trixie-root: debootstrap failed (the archive unreachable?)" >&2; exit 77; }
printf 'deb %s trixie main\n' "$MIRROR" > "$new/etc/apt/sources.list"
install_in "$new" >> "$new.log" 2>&1 ||
    { tail -20 "$new.log" >&2; echo "trixie-root: installing the packages in the trixie root failed" >&2; exit 1; }
echo "$stamp" > "$new/.cxltier-root"
rm -rf "$ROOT"; mv "$new" "$ROOT"; mv "$new.log" "$ROOT.log"
echo "trixie-root: $ROOT ready ($(du -sh "$ROOT" | cut -f1))" >&2
echo "$ROOT"
