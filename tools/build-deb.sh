#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# build-deb.sh - build the Debian package of this source tree, out of tree.
#
# usage: tools/build-deb.sh [-q] [OUTDIR]
#
# The source (git: tracked and untracked-but-not-ignored files; else the tree)
# is copied without build directories or packaging leftovers to a temporary
# directory; there `dpkg-source --build` and `dpkg-buildpackage -us -uc -b`
# run, and lintian checks the source and the binary package, failing on any
# error or warning that debian/*lintian-overrides does not justify. The .deb is
# left in OUTDIR (default: the current directory); nothing is written to the
# source tree. As root, missing packaging tools and build dependencies
# (debian/control) are installed with apt-get; nothing else is installed.
#   -q   quiet: print the build and lintian output only when they fail
#   CXLTIER_DEB_KEEP=1   keep the temporary directory (its path is printed)
set -euo pipefail

quiet=0
[[ ${1:-} == -q ]] && { quiet=1; shift; }
[[ $# -le 1 && ${1:-} != -* ]] || { sed -n '5p' "$0" >&2; exit 2; }
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$PWD}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
say() { echo "build-deb: $*" >&2; }
die() { say "$*"; exit 1; }

# The package version is the project's: one number, checked before building.
meson_version=$(sed -n "s/^[[:space:]]*version[[:space:]]*:[[:space:]]*'\([^']*\)'.*/\1/p" "$SRC/meson.build" | head -1)
deb_version=$(sed -n '1s/^cxltier (\([^)]*\)).*/\1/p' "$SRC/debian/changelog")
[[ -n $meson_version && $deb_version == "$meson_version" ]] ||
    die "debian/changelog says $deb_version, meson.build says $meson_version: add a changelog entry (dch -v $meson_version)"

need_tools=()
command -v dpkg-buildpackage >/dev/null || need_tools+=(dpkg-dev)
command -v dh >/dev/null || need_tools+=(debhelper)
command -v lintian >/dev/null || need_tools+=(lintian)
if [[ ${#need_tools[@]} -gt 0 ]]; then
    [[ $(id -u) == 0 ]] || die "missing ${need_tools[*]}: apt-get install ${need_tools[*]} (as root)"
    say "installing ${need_tools[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need_tools[@]}" >&2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/cxltier-deb.XXXXXX")
if [[ ${CXLTIER_DEB_KEEP:-0} == 1 ]]; then say "keeping $work"
else trap 'rm -rf "$work"' EXIT; fi
pkg=$work/cxltier-$deb_version
mkdir "$pkg"

# Copy the source: never build trees, packaging output or objects.
skip() {
    case $1 in
        build*/* | obj-*/* | debian/.debhelper/* | debian/cxltier/* | debian/tmp/* | \
        debian/files | debian/*.substvars | debian/*debhelper.log | debian/debhelper-build-stamp | \
        *.deb | *.ddeb | *.buildinfo | *.changes | *.o | .git | .git/*) return 0 ;;
    esac
    return 1
}
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    list() { git -C "$SRC" ls-files -z --cached --others --exclude-standard; }
else
    list() { (cd "$SRC" && find . \( -type f -o -type l \) -printf '%P\0'); }
fi
while IFS= read -r -d '' f; do
    [[ -e $SRC/$f || -L $SRC/$f ]] && ! skip "$f" && printf '%s\0' "$f"
done < <(list) | tar -C "$SRC" --null -T - -cf - | tar -C "$pkg" -xf -

cd "$pkg"
if ! dpkg-checkbuilddeps >/dev/null 2>&1; then
    # (dpkg 1.21 says "Unmet", 1.22 "unmet"; the check's own status is 1 here)
    missing=$(dpkg-checkbuilddeps 2>&1 | sed -n 's/.*[Uu]nmet build dependencies: //p' || true)
    [[ $(id -u) == 0 ]] || die "unmet build dependencies: $missing; as root: apt-get build-dep $SRC"
    say "installing build dependencies: $missing"
    DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q --no-install-recommends "$pkg" >&2
fi

run() { # log-name command...: all output to the terminal, or with -q to a log shown on failure
    if [[ $quiet == 0 ]]; then "${@:2}"; return; fi
    "${@:2}" >"$work/$1.log" 2>&1 || { tail -n 150 "$work/$1.log" >&2; say "$1 failed (${*:2})"; return 1; }
}
say "building in $work"
run source dpkg-source --build . || die "dpkg-source failed"
run build dpkg-buildpackage -us -uc -b --jobs-try=auto || die "dpkg-buildpackage failed"
deb=$(ls "$work"/cxltier_"$deb_version"_*.deb)
changes=$(ls "$work"/cxltier_"$deb_version"_*.changes)

say "lintian"
cd "$work"
# findings are shown even with -q, overridden ones too (O:)
lintian=(lintian --fail-on error,warning --display-info --show-overrides "cxltier_$deb_version.dsc" "$changes")
if [[ $(id -u) == 0 ]] && command -v setpriv >/dev/null; then
    # lintian unpacks and inspects; it need not be root to do that
    chmod 755 "$work"
    lintian=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent "${lintian[@]}")
fi
run lintian "${lintian[@]}" ||
    die "lintian found errors or warnings (fix them, or override each with its reason in debian/cxltier.lintian-overrides or debian/source/lintian-overrides)"

[[ $quiet == 0 ]] || cat "$work/lintian.log" >&2
cp "$deb" "$OUT/"
say "built $OUT/$(basename "$deb")"
echo "$OUT/$(basename "$deb")"
