#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# meson-install.sh BUILDDIR - `meson install --destdir` into a temporary
# directory, then: every file where this build was configured to put it,
# nothing else, sane modes, and the installed cxltier runs. TAP on stdout.
# The expected directories come from the environment (test/install/meson.build):
# CXLTIER_{BINDIR,MANDIR,COMPLETIONDIR,UDEVRULESDIR,UNITDIR,EXAMPLEDIR,SCHEMADIR},
# absolute; empty = not installed by this configuration.
set -uo pipefail
build=${1:?usage: meson-install.sh BUILDDIR}
: "${CXLTIER_VERSION:?} ${CXLTIER_SRC:?} ${CXLTIER_BINDIR:?} ${CXLTIER_EXAMPLEDIR:?}"
MESON=${MESON:-meson}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/tap.bash"

dest=$(mktemp -d "${TMPDIR:-/tmp}/cxltier-install.XXXXXX") || exit 1
trap 'rm -rf "$dest"' EXIT

if "$MESON" install -C "$build" --destdir "$dest" --no-rebuild >"$dest.log" 2>&1; then
    tap_ok "meson install --destdir"
else
    tap_fail "meson install --destdir" <"$dest.log"
fi
rm -f "$dest.log"

# the tree this configuration promises: path (relative to DESTDIR) -> mode
declare -A want
bin=$dest$CXLTIER_BINDIR/cxltier
want[$CXLTIER_BINDIR/cxltier]=755
want[$CXLTIER_EXAMPLEDIR/cxltier.conf]=644
want[$CXLTIER_EXAMPLEDIR/cxltier-alerts.yml]=644
want[$CXLTIER_EXAMPLEDIR/cxltier-events-retire.conf]=644
[[ -z ${CXLTIER_COMPLETIONDIR:-} ]] || want[$CXLTIER_COMPLETIONDIR/cxltier]=644
[[ -z ${CXLTIER_UDEVRULESDIR:-} ]] || want[$CXLTIER_UDEVRULESDIR/90-cxltier.rules]=644
if [[ -n ${CXLTIER_UNITDIR:-} ]]; then
    want[$CXLTIER_UNITDIR/cxltier-hotplug.service]=644
    want[$CXLTIER_UNITDIR/cxltier-events.service]=644
    want[$CXLTIER_UNITDIR/cxltier-metrics.service]=644
    want[$CXLTIER_UNITDIR/cxltier-metrics.timer]=644
fi
for f in "$CXLTIER_SRC"/docs/schema/*.json; do want[$CXLTIER_SCHEMADIR/${f##*/}]=644; done
cmds=$("$bin" --list-cmds 2>/dev/null)
if [[ -n ${CXLTIER_MANDIR:-} ]]; then
    want[$CXLTIER_MANDIR/cxltier.1]=644
    for c in $cmds; do want[$CXLTIER_MANDIR/cxltier-$c.1]=644; done
fi

# 2: the binary runs from where it was installed, and knows no build tree
out=$("$bin" --version 2>&1) && [[ $out == "$CXLTIER_VERSION" ]] &&
    [[ $cmds == *list* && $cmds == *online* ]] &&
    [[ $(readelf -d "$bin" 2>/dev/null) != *RPATH* && $(readelf -d "$bin" 2>/dev/null) != *RUNPATH* ]] &&
    tap_ok "installed cxltier runs: --version $out, --list-cmds: $(echo $cmds)" ||
    tap_fail "installed cxltier runs" <<<"--version: '$out' (want $CXLTIER_VERSION); --list-cmds: '$cmds'; $(readelf -d "$bin" 2>&1 | grep -E 'RPATH|RUNPATH')"

# 3: it does real work on a captured sysfs tree
fx=$(mktemp -d "${TMPDIR:-/tmp}/cxltier-fixture.XXXXXX")
tar -xzf "$CXLTIER_SRC/test/fixtures/lab-region-online.tar.gz" -C "$fx"
out=$("$bin" --sysroot "$fx" list -j 2>&1) && [[ $out == '{'*'"memdevs"'* ]] &&
    tap_ok "installed cxltier list -j on a fixture" ||
    tap_fail "installed cxltier list -j on a fixture" <<<"$out"
rm -rf "$fx"

# 4: every file expected is there, with its mode, and nothing else
missing=() extra=() badmode=()
for f in "${!want[@]}"; do
    [[ -f $dest$f ]] || { missing+=("$f"); continue; }
    m=$(stat -c %a "$dest$f"); [[ $m == "${want[$f]}" ]] || badmode+=("$f:$m")
done
while IFS= read -r -d '' f; do
    f=${f#"$dest"}; [[ -n ${want[$f]:-} ]] || extra+=("$f")
done < <(find "$dest" \( -type f -o -type l \) -print0)
[[ ${#missing[@]} == 0 && ${#extra[@]} == 0 && ${#badmode[@]} == 0 ]] &&
    tap_ok "the installed tree is exactly the ${#want[@]} files expected" ||
    tap_fail "the installed tree" <<<"missing: ${missing[*]}
unexpected: ${extra[*]}
wrong mode: ${badmode[*]}"

# 5: man pages, one per command, rendered
if [[ -z ${CXLTIER_MANDIR:-} ]]; then
    tap_skip "man pages" "not built in this configuration (asciidoctor missing or -Ddocs=disabled)"
else
    # rendered as lintian does, but in 80 columns: no groff warning
    bad=() warn=""
    for c in cxltier $(printf 'cxltier-%s ' $cmds); do
        page=$dest$CXLTIER_MANDIR/$c.1
        grep -q '^\.TH "' "$page" 2>/dev/null || { bad+=("$c.1"); continue; }
        command -v man >/dev/null || continue
        warn+=$(LC_ALL=C.UTF-8 MANROFFSEQ= MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null |
                sed "s|^|$c.1: |")
    done
    [[ ${#bad[@]} == 0 && -z $warn ]] &&
        tap_ok "a man page for cxltier and each of its $(wc -w <<<"$cmds") commands, no groff warning" ||
        tap_fail "man pages" <<<"missing or not roff: ${bad[*]}
$warn"
fi

# 6: the completion loads and completes cxltier
if [[ -z ${CXLTIER_COMPLETIONDIR:-} ]]; then
    tap_skip "bash completion" "not installed in this configuration"
else
    out=$(bash -c '. "$1" && complete -p cxltier' _ "$dest$CXLTIER_COMPLETIONDIR/cxltier" 2>&1)
    [[ $out == *'-F _cxltier cxltier'* ]] && tap_ok "bash completion in $CXLTIER_COMPLETIONDIR" ||
        tap_fail "bash completion" <<<"$out"
fi

# 7: the udev rule starts the installed unit
if [[ -z ${CXLTIER_UDEVRULESDIR:-} ]]; then
    tap_skip "udev rule" "not installed in this configuration"
else
    grep -q 'SYSTEMD_WANTS.*cxltier-hotplug.service' "$dest$CXLTIER_UDEVRULESDIR/90-cxltier.rules" 2>/dev/null &&
        tap_ok "udev rule in $CXLTIER_UDEVRULESDIR" || tap_fail "udev rule" </dev/null
fi

# 8: the units run the installed binary
if [[ -z ${CXLTIER_UNITDIR:-} ]]; then
    tap_skip "systemd units" "not installed in this configuration"
else
    bad=()
    for u in cxltier-hotplug.service cxltier-events.service cxltier-metrics.service; do
        grep -q "^ExecStart=$CXLTIER_BINDIR/cxltier " "$dest$CXLTIER_UNITDIR/$u" 2>/dev/null || bad+=("$u")
    done
    [[ ${#bad[@]} == 0 ]] && tap_ok "systemd units in $CXLTIER_UNITDIR run $CXLTIER_BINDIR/cxltier" ||
        tap_fail "systemd units" <<<"no ExecStart=$CXLTIER_BINDIR/cxltier in: ${bad[*]}"
fi

# 9: the example policy is the project's
cmp -s "$CXLTIER_SRC/docs/cxltier.conf.example" "$dest$CXLTIER_EXAMPLEDIR/cxltier.conf" &&
    tap_ok "example policy in $CXLTIER_EXAMPLEDIR" || tap_fail "example policy" </dev/null
tap_done
