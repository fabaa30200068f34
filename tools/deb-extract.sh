#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# deb-extract.sh DEB DIR - the files of a .deb under DIR, laid out as on a
# merged-/usr system (the package's lib/, bin/, sbin/ under usr/), so that
# DIR can be laid over such a root: test/vm/mkinitramfs.sh -a DIR:/
# Maintainer scripts are not run: nothing to run for cxltier's files to work.
set -euo pipefail
[[ $# == 2 && -f $1 ]] || { echo "usage: $0 DEB DIR" >&2; exit 2; }
deb=$1 dir=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cxltier-extract.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp"
for d in bin sbin lib lib32 lib64 libx32; do
    [[ -d $tmp/$d && ! -L $tmp/$d ]] || continue
    mkdir -p "$tmp/usr/$d"
    cp -a "$tmp/$d/." "$tmp/usr/$d/"
    rm -rf "${tmp:?}/$d"
done
mkdir -p "$dir"
cp -a "$tmp/." "$dir/"
