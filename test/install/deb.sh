#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# deb.sh - the Debian package, end to end. TAP on stdout.
#   1. tools/build-deb.sh builds it out of tree, lintian clean, and leaves the
#      source tree as it was;
#   2. its files are exactly those expected, where this release's udev,
#      systemd and bash-completion (their .pc files) and Debian expect them;
#   3. tools/deb-extract.sh lays it out for a merged-/usr root (the VM tier's
#      guest) and the binary runs from there;
#   4. it is installed with apt into a throw-away root (an overlay of this
#      system in a private mount namespace, chrooted: nothing reaches the
#      host), checked and run there, then purged and checked gone.
# Needs root, dpkg-buildpackage, debhelper, lintian, unshare and overlayfs;
# skipped otherwise, and inside a package build (this test builds the package).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=${CXLTIER_SRC:-$(cd "$HERE/../.." && pwd)}
. "$HERE/tap.bash"

skip_all() { echo "1..0 # SKIP $*"; exit 0; }
[[ -z ${DEB_RULES_REQUIRES_ROOT:-} ]] || skip_all "inside a package build"
[[ $(id -u) == 0 ]] || skip_all "needs root (dpkg in a throw-away root)"
for t in dpkg-buildpackage dh lintian unshare chroot pkg-config; do
    command -v $t >/dev/null || skip_all "no $t (tools/install-deps.sh installs it)"
done
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null ||
    skip_all "no overlayfs for the throw-away root"

work=$(mktemp -d "${TMPDIR:-/tmp}/cxltier-debtest.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# 1: build
tree_before=$(git -C "$SRC" status --porcelain --ignored 2>/dev/null)
host_before=$(dpkg-query -W -f='${Status}' cxltier 2>&1; ls -l /usr/bin/cxltier 2>&1)
if "$SRC/tools/build-deb.sh" -q "$work/out" >"$work/build.log" 2>&1; then
    tap_ok "tools/build-deb.sh: built, lintian clean"
    sed -n '/^build-deb: lintian$/,/^build-deb: built/p' "$work/build.log" | sed 's/^/# /'
else
    tap_fail "tools/build-deb.sh" <"$work/build.log"
    tap_done
fi
deb=$(ls "$work"/out/cxltier_*.deb)
# CXLTIER_DEB_OUT=DIR: the package is kept there (tools/test.sh boots the VM
# tier with the cxltier it installs)
if [[ -n ${CXLTIER_DEB_OUT:-} ]]; then
    mkdir -p "$CXLTIER_DEB_OUT" && rm -f "$CXLTIER_DEB_OUT"/cxltier_*.deb && cp "$deb" "$CXLTIER_DEB_OUT/"
fi
[[ $(git -C "$SRC" status --porcelain --ignored 2>/dev/null) == "$tree_before" ]] &&
    tap_ok "the source tree is as it was" ||
    tap_fail "the source tree changed" < <(diff <(echo "$tree_before") <(git -C "$SRC" status --porcelain --ignored))

# 2: the files, each where expected
root=$work/extract
tools_extract=$SRC/tools/deb-extract.sh
dpkg-deb -x "$deb" "$work/x"
cmds=$("$work/x/usr/bin/cxltier" --list-cmds 2>/dev/null)
completions=$(pkg-config --variable=completionsdir bash-completion)
udevrules=$(pkg-config --variable=udevdir udev)/rules.d
units=$(pkg-config --variable=systemdsystemunitdir systemd)
expect=(
    /usr/bin/cxltier
    "$completions/cxltier"
    "$udevrules/90-cxltier.rules"
    "$units/cxltier-hotplug.service" "$units/cxltier-events.service"
    "$units/cxltier-metrics.service" "$units/cxltier-metrics.timer"
    /usr/share/doc/cxltier/examples/cxltier.conf /usr/share/doc/cxltier/examples/cxltier-alerts.yml
    /usr/share/doc/cxltier/examples/cxltier-events-retire.conf
    /usr/share/doc/cxltier/copyright /usr/share/doc/cxltier/changelog.gz
    /usr/share/lintian/overrides/cxltier
    /usr/share/man/man1/cxltier.1.gz
)
for c in $cmds; do expect+=("/usr/share/man/man1/cxltier-$c.1.gz"); done
for f in "$SRC"/docs/schema/*.json; do expect+=("/usr/share/cxltier/schema/${f##*/}"); done
want=$(printf '%s\n' "${expect[@]}" | sort)
have=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {sub(/^\./, "", $6); print $6}' | sort)
[[ $have == "$want" && -n $cmds ]] &&
    tap_ok "the package holds exactly the ${#expect[@]} files expected (man page for each of $(wc -w <<<"$cmds") commands)" ||
    tap_fail "the package's files" < <(echo "- expected, + in the package"; diff <(echo "$want") <(echo "$have"))
echo "# files:"; sed 's/^/#   /' <<<"$have"

# 2b: every library the binary loads -- linked (DT_NEEDED) or on first use
# (its lazy-stubs' sonames, dlopen) -- belongs to a package it depends on
depends=$(dpkg-deb -f "$deb" Depends)
names=" $(sed 's/([^)]*)//g; s/|/,/g' <<<"$depends" | tr -d ' ' | tr ',' ' ') "   # " pkg pkg ... "
nodep=()
for so in $(grep -ao 'lib[a-z0-9_+-]*\.so\.[0-9][0-9]*' "$work/x/usr/bin/cxltier" | sort -u); do
    pkg=$(dpkg -S "*/$so" 2>/dev/null | head -1 | cut -d: -f1)
    [[ -n $pkg && $names == *" $pkg "* ]] || nodep+=("$so (${pkg:-no package})")
done
[[ ${#nodep[@]} == 0 ]] &&
    tap_ok "Depends names the package of every library cxltier loads, linked or on first use" ||
    tap_fail "Depends misses libraries cxltier loads" <<<"Depends: $depends; missing: ${nodep[*]}"

# 3: laid out for a merged-/usr root, and run from there
"$tools_extract" "$deb" "$root" 2>&1 >/dev/null
fx=$work/fixture; mkdir -p "$fx"; tar -xzf "$SRC/test/fixtures/lab-region-online.tar.gz" -C "$fx"
v=$("$root/usr/bin/cxltier" --version 2>&1)
out=$("$root/usr/bin/cxltier" --sysroot "$fx" list -j 2>&1)
if [[ ! -e $root/lib && -f $root/usr/lib/udev/rules.d/90-cxltier.rules &&
      -f $root/usr/lib/systemd/system/cxltier-events.service && -x $root/usr/bin/cxltier ]] &&
   [[ -n $v && $out == '{'*'"memdevs"'* ]]; then
    tap_ok "deb-extract.sh: merged-/usr layout, cxltier $v runs from it"
else
    tap_fail "deb-extract.sh" < <(find "$root" | sed "s|^$root||"; echo "--version: $v"; echo "$out" | head -5)
fi

# 4: install, check, run, purge in a throw-away overlay root
ov=$work/ov
mkdir -p "$ov"
cat >"$work/inside.sh" <<'INSIDE'
# runs in a private mount namespace: the overlay and its mounts die with it
set -u
ov=$1 deb=$2 fixture=$3
mount -t tmpfs -o mode=755 cxltier-ov "$ov" || exit 1
mkdir -p "$ov/upper" "$ov/work" "$ov/root"
mount -t overlay overlay -o "lowerdir=/,upperdir=$ov/upper,workdir=$ov/work" "$ov/root" || exit 1
r=$ov/root
mount --bind /dev "$r/dev" && mount -t proc proc "$r/proc" &&
    mount -t tmpfs tmpfs "$r/run" && mount -t tmpfs tmpfs "$r/tmp" || exit 1
# no service is started in here; no systemctl talks to the host (fresh /run)
printf '#!/bin/sh\nexit 101\n' >"$r/usr/sbin/policy-rc.d"; chmod 755 "$r/usr/sbin/policy-rc.d"
cp "$deb" "$r/tmp/"; cp "$fixture" "$r/tmp/fixture.tar.gz"
exec chroot "$r" /bin/bash -s "/tmp/$(basename "$deb")" <<'CHROOT'
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive
deb=$1
res() { if [[ $1 == 0 ]]; then echo "ok - $2"; else echo "not ok - $2"; sed 's/^/# /' "${3:-/dev/null}" | tail -30; fi; }
dpkg --purge cxltier >/dev/null 2>&1  # a copy of this host's database: no cxltier before
# as the README says (apt resolves the dependencies, all present: no network)
apt-get install -y -q --no-install-recommends "$deb" >/tmp/install.log 2>&1
res $? "apt install ./$(basename "$deb") in a throw-away root" /tmp/install.log
[[ $(dpkg-query -W -f='${Status}' cxltier 2>/dev/null) == "install ok installed" ]]
res $? "dpkg: install ok installed"
missing=$(dpkg -L cxltier | while read -r f; do [[ -e $f ]] || echo "$f"; done)
[[ -z $missing && -n $(dpkg -L cxltier) ]]; res $? "every file dpkg lists is installed"
mkdir /tmp/fx && tar -xzf /tmp/fixture.tar.gz -C /tmp/fx
{ [[ $(cxltier --version) == "$(dpkg-query -W -f='${Version}' cxltier)" ]] &&
  cxltier --list-cmds | grep -qx online &&
  cxltier --sysroot /tmp/fx list -j | grep -q '"memdevs"'; } >/tmp/run.log 2>&1
res $? "installed cxltier runs: --version $(cxltier --version 2>&1), --list-cmds, list -j on a fixture" /tmp/run.log
{ man -w cxltier-online && man -w cxltier; } >/tmp/man.log 2>&1
res $? "man finds the pages: $(man -w cxltier-online 2>/dev/null)" /tmp/man.log
out=$(bash -c '. /usr/share/bash-completion/bash_completion; __load_completion cxltier; complete -p cxltier' 2>&1)
[[ $out == *'-F _cxltier cxltier'* ]]; res $? "bash-completion loads the completion on demand"
# the events unit is not enabled (so not started); nothing in /etc from us
enabled=$(find /etc/systemd/system -name 'cxltier*' 2>/dev/null)
[[ -z $enabled && ! -e /etc/cxltier.conf ]]; res $? "no unit enabled, no /etc/cxltier.conf"
files=$(dpkg -L cxltier | while read -r f; do [[ -f $f ]] && echo "$f"; done)
apt-get purge -y -q cxltier >/tmp/purge.log 2>&1; res $? "apt purge cxltier" /tmp/purge.log
left=$(for f in $files; do [[ -e $f ]] && echo "$f"; done
       [[ -e /usr/share/doc/cxltier ]] && echo /usr/share/doc/cxltier
       grep -rl cxltier /var/lib/systemd/deb-systemd-helper-enabled /var/lib/systemd/deb-systemd-helper-masked 2>/dev/null
       dpkg-query -W -f='${Status}\n' cxltier 2>/dev/null | grep -v '^unknown ok not-installed$\|^$')
[[ -z $left ]]; res $? "purged: $(wc -w <<<"$files") files, doc dir, unit state and dpkg status gone"
[[ -z $left ]] || echo "$left" | sed 's/^/#   left: /'
CHROOT
INSIDE
unshare -m --propagation private bash "$work/inside.sh" "$ov" "$deb" \
    "$SRC/test/fixtures/lab-region-online.tar.gz" >"$work/inside.tap" 2>"$work/inside.err"
rc=$?
while IFS= read -r line; do
    case $line in
        'ok - '*) tap_ok "${line#ok - }" ;;
        'not ok - '*) tap_fail "${line#not ok - }" </dev/null ;;
        *) echo "$line" ;;
    esac
done <"$work/inside.tap"
[[ $rc == 0 ]] || tap_fail "the throw-away root (exit $rc)" <"$work/inside.err"
[[ $(dpkg-query -W -f='${Status}' cxltier 2>&1; ls -l /usr/bin/cxltier 2>&1) == "$host_before" ]] &&
    tap_ok "the host's cxltier package state and /usr/bin are as they were" ||
    tap_fail "the host changed" <<<"before: $host_before"
tap_done
