#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# events-store.sh BUILDDIR [ROUNDS] [RECORDS] - what the event store costs the
# follower: RECORDS (default 5000) General Media records, 128 bytes each
# (made on the host: distinct handles, times and DPAs), written into a new
# store by `cxltier events --file RECS --store` in the VM guest: the decode,
# the dedup lookups and the SQLite commit (WAL, synchronous=NORMAL) the
# follower does per read of the trace buffer, without tracefs (--type
# overflow: none of them is printed, every one is stored). Three sides
# per round, in an order that turns from round to round ("again" right
# after "disk"):
#   disk    a new store on the guest's ext4 disk (virtio-blk, run.sh --disk)
#   tmpfs   a new store on a tmpfs (memory only: SQLite's own cost)
#   again   the same records into the disk's full store (every one a duplicate)
# Every run is verified: exit status 0, and the store then holds exactly
# RECORDS records (disk, tmpfs), none added (again). Prints records per
# second: median, min and max of ROUNDS (default 9, at least 7) rounds.
# Under TCG timings vary from run to run; CXLTIER_VM_ICOUNT=shift=0,sleep=off
# makes the guest's clock count instructions (test/vm/run.sh).
#
# events-store.sh --soak BUILDDIR [ROUNDS] - the store over a long life, on
# this machine (the library and cxltier; no guest): events-store-soak.sh.
set -euo pipefail
if [[ ${1:-} == --soak ]]; then
    shift
    exec "$(dirname "$0")/events-store-soak.sh" "$@"
fi
BUILD=$(realpath "${1:-build}") ROUNDS=${2:-9} N=${3:-5000}
(( ROUNDS >= 7 )) || { echo "events-store.sh: at least 7 rounds" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
VM=$HERE/../vm
"$VM/fetch.sh" >/dev/null
work=${BENCH_WORK:-$(mktemp -d)}; [[ -n ${BENCH_WORK:-} ]] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/share"
"$VM/mkinitramfs.sh" -o "$work/initrd.gz" -a "$BUILD/cxltier:/usr/bin/cxltier" >/dev/null
python3 - "$work/share/recs.bin" "$N" <<'PY'
import struct, sys, uuid
gm = uuid.UUID("fbcd0a77-c260-417f-85a9-088b1621eba6").bytes
t0 = 1796500000 * 10**9
with open(sys.argv[1], "wb") as f:
    for i in range(int(sys.argv[2])):
        rec = bytearray(128)
        rec[0:16] = gm
        rec[16] = 128
        rec[17:20] = (1).to_bytes(3, "little")          # flags: warning
        struct.pack_into("<H", rec, 20, i % 65536)       # handle
        struct.pack_into("<Q", rec, 24, t0 + i * 1000)   # timestamp
        struct.pack_into("<Q", rec, 48, (i * 4096) << 0) # DPA
        rec[56] = 0                                      # descriptor: corrected
        f.write(rec)
PY
truncate -s 256M "$work/disk.img"
mkfs.ext4 -q -F "$work/disk.img"
cat > "$work/share/run.sh" <<GUEST
modprobe -q virtio_blk; modprobe -q ext4
for i in \$(seq 50); do [ -b /dev/vda ] && break; sleep 0.1; done
mkdir -p /mnt/disk /mnt/tmpfs
mount -t ext4 /dev/vda /mnt/disk && chmod 700 /mnt/disk || { echo "BENCH fail setup no disk"; exit 1; }
mount -t tmpfs -o mode=0700 bench /mnt/tmpfs
us() { local t=\$EPOCHREALTIME; echo \$(( 10#\${t/./} )); }
count() { cxltier events --history --summary --store-path \$1 -j | jq '.summary.records'; }
for ((i = 0; i < $ROUNDS; i++)); do
    rm -f /mnt/disk/r.db* /mnt/tmpfs/r.db*
    # the order turns: disk first in even rounds, tmpfs in odd ones; "again"
    # right after "disk" (it needs the disk's store full)
    if [ \$((i % 2)) = 0 ]; then order="disk again tmpfs"; else order="tmpfs disk again"; fi
    for how in \$order; do
        case \$how in disk|again) db=/mnt/disk/r.db ;; tmpfs) db=/mnt/tmpfs/r.db ;; esac
        sync; echo 3 > /proc/sys/vm/drop_caches
        t0=\$(us); cxltier events --file /share/recs.bin --store --store-path \$db --type overflow > /dev/null 2>&1; rc=\$?; t1=\$(us)
        n=\$(count \$db)
        if [ \$rc -ne 0 ]; then echo "BENCH fail \$how \$i exit status \$rc"
        elif [ "\$n" != $N ]; then echo "BENCH fail \$how \$i the store holds \$n records, not $N"
        else echo "BENCH run \$how \$i \$(( t1 - t0 ))"; fi
    done
done
GUEST
"$VM/run.sh" -i "$work/initrd.gz" -S "$work/share" --disk "$work/disk.img" --timeout 3000 >/dev/null ||
    { tail -20 "$work/share/console.log"; exit 1; }
tr -d '\r' < "$work/share/console.log" | awk -v rounds="$ROUNDS" -v n="$N" -f "$HERE/median.awk" -f /dev/fd/3 3<<'AWK'
/^BENCH run/ { v[$3] = v[$3] " " $5 }
/^BENCH fail/ { fail[$3]++; nfail++; print "  failed: " $0 }
END {
    printf "%d General Media records into the event store (events --file --store), %d rounds, TCG guest%s (records/s):\n",
        n, rounds, ENVIRON["CXLTIER_VM_ICOUNT"] != "" ? ", icount " ENVIRON["CXLTIER_VM_ICOUNT"] : ""
    printf "  %-44s %9s %9s %9s\n", "", "median", "min", "max"
    split("disk tmpfs again", names, " ")
    label["disk"] = "a new store on ext4 (virtio-blk)"; label["tmpfs"] = "a new store on tmpfs"
    label["again"] = "the same records again (all duplicates)"
    for (i = 1; i <= 3; i++) {
        m = median(v[names[i]])
        if (v[names[i]] == "") printf "  %-44s no run verified\n", label[names[i]]
        else printf "  %-44s %9.0f %9.0f %9.0f\n", label[names[i]], n / (m / 1e6), n / (hi / 1e6), n / (lo / 1e6)
    }
    exit nfail > 0
}
AWK
