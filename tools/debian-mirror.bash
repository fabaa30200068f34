# SPDX-License-Identifier: GPL-2.0
# debian-mirror.bash - mirror: the Debian mirror this machine's apt sources
# name (deb822 .sources first, then one-line .list), without a trailing
# slash; "" when none. Sourced by test/vm/fetch.sh and tools/trixie-root.sh,
# which fetch other suites from it without touching the apt sources.
mirror() {
    local u
    u=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -m1 '/debian/\?$' || true)
    [[ -n $u ]] || u=$(awk '$1=="deb" && $2 ~ /\/debian\/?$/ {print $2; exit}' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
    echo "${u%/}"
}
