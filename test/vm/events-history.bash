# SPDX-License-Identifier: GPL-2.0
# Helpers of the two boots of the event history on a disk
# (events-history-boot1.bats, events-history-boot2.bats).

DEV=/machine/peripheral/cxl-mem0
D=/var/lib/cxltier

# the disk (/dev/vda, # vm-disk:) on the store's default directory
mount_store_disk() {
    modprobe -q virtio_blk; modprobe -q ext4
    wait_for 30 "the disk /dev/vda" test -b /dev/vda
    mkdir -p $D
    mount -t ext4 /dev/vda $D
}

# a record: KIND (general_media, dram) LOG (informational ... fatal) DPA DESCRIPTOR
record() {
    case $1 in
    general_media)
        inject cxl-inject-general-media-event "{\"path\":\"$DEV\",\"log\":\"$2\",\"flags\":1,\"dpa\":$3,\"descriptor\":$4,\"type\":0,\"transaction-type\":1,\"channel\":1,\"rank\":0,\"device\":3}" ;;
    dram)
        inject cxl-inject-dram-event "{\"path\":\"$DEV\",\"log\":\"$2\",\"flags\":1,\"dpa\":$3,\"descriptor\":$4,\"type\":0,\"transaction-type\":2,\"channel\":1,\"rank\":0,\"nibble-mask\":3,\"bank-group\":1,\"bank\":2,\"row\":42,\"column\":7,\"correction-mask\":[1,0,0,0]}" ;;
    esac
}

# the store at $D holds N records
store_holds() {
    local n
    n=$(cxltier events --history -j 2>/dev/null | jq '.events | length') || return 1
    [[ $n == "$1" ]]
}

# what is compared across the reboot: the records field for field, the
# summary, the counters metrics exports
history_json() { cxltier events --history -j | jq -S '.events'; }
summary_json() { cxltier events --history --summary -j | jq -S '.summary'; }
event_counters() { cxltier metrics | grep '^cxltier_events_total{' | sort; }
