# SPDX-License-Identifier: GPL-2.0
# rasdaemon-import.jq - what `events --import-rasdaemon` made of rasdaemon's
# rows against what the follower stored of the same records
# (events-rasdaemon.bats). Input: {"imported": [EVENT...], "live": [EVENT...]}
# (events --history -j of each store). Output: one line per difference: the
# record (kind, handle), the field, the imported value, the follower's; none
# when every field the import has is the follower's (the device's time to
# the second: rasdaemon keeps no more), and a line for a record the follower
# does not have.
.live as $live
| .imported[] as $i
| ($live | map(select(.kind == $i.kind and .fields.hdr_handle == $i.fields.hdr_handle and .fields.log == $i.fields.log))
  | first) as $l
| if $l == null then "\($i.kind) \($i.fields.hdr_handle): no such record of the follower's"
  else
    (if $i.time[0:19] != $l.time[0:19] then "\($i.kind) \($i.fields.hdr_handle) time: \($i.time) != \($l.time)" else empty end),
    ($i.fields | to_entries[] | select(.key != "hdr_timestamp") | select($l.fields[.key] != .value)
     | "\($i.kind) \($i.fields.hdr_handle) \(.key): \(.value | tojson) != \($l.fields[.key] | tojson)")
  end
