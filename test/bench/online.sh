#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# online.sh BUILDDIR [ROUNDS] - onlining the lab's 8 CXL memory blocks
# movable, side by side in one guest: `cxltier online`, writing
# online_movable to each block's state by hand (the floor), and
# `daxctl online-memory` (the peer). Prints mean times and ratios.
set -euo pipefail
BUILD=$(realpath "${1:-build}") ROUNDS=${2:-15}
HERE=$(cd "$(dirname "$0")" && pwd)
VM=$HERE/../vm
"$VM/fetch.sh" >/dev/null
work=${BENCH_WORK:-$(mktemp -d)}; [[ -n ${BENCH_WORK:-} ]] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/share"
"$VM/mkinitramfs.sh" -o "$work/initrd.gz" -a "$BUILD/cxltier:/usr/bin/cxltier"
cat > "$work/share/run.sh" <<GUEST
. /usr/share/cxltier-vm/lib.sh
r=\$(vm_create_ram_region mem0) || exit 1
d=\$(vm_dax_of \$r)
off() { for b in \$(vm_blocks_of \$d); do [ "\$(cat \$MEMSYS/\$b/state)" = offline ] || echo offline > \$MEMSYS/\$b/state; done; }
ns() { local t=\$EPOCHREALTIME; echo \$(( 10#\${t/./} * 1000 )); }
declare -A total=([cxltier]=0 [by-hand]=0 [daxctl]=0)
for ((i = 0; i < $ROUNDS; i++)); do
    for how in cxltier by-hand daxctl; do
        off
        t0=\$(ns)
        case \$how in
            cxltier) cxltier online \$d >/dev/null 2>&1 ;;
            by-hand) for b in \$(vm_blocks_of \$d); do echo online_movable > \$MEMSYS/\$b/state; done ;;
            daxctl) daxctl online-memory \$d >/dev/null 2>&1 ;;
        esac
        t1=\$(ns)
        [ "\$(cat \$MEMSYS/\$(vm_blocks_of \$d | tail -1)/valid_zones)" = Movable ] || echo "BENCH: \$how did not online movable"
        total[\$how]=\$(( total[\$how] + t1 - t0 ))
    done
done
for how in cxltier by-hand daxctl; do echo "BENCH \$how \$(( total[\$how] / $ROUNDS / 1000 ))"; done
GUEST
"$VM/run.sh" -i "$work/initrd.gz" -S "$work/share" >/dev/null || { tail -20 "$work/share/console.log"; exit 1; }
awk '/^BENCH /{us[$2]=$3} END {
    printf "onlining 8 blocks (1 GiB) movable, mean of %d rounds, TCG guest:\n", '"$ROUNDS"'
    for (k in us) printf "  %-8s %8.2f ms\n", k, us[k] / 1000
    printf "  cxltier / by-hand: %.2fx   cxltier / daxctl online-memory: %.2fx\n", us["cxltier"] / us["by-hand"], us["cxltier"] / us["daxctl"]
}' "$work/share/console.log"
grep 'did not online' "$work/share/console.log" || true
