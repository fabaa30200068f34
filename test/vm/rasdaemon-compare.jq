# SPDX-License-Identifier: GPL-2.0
# rasdaemon-compare.jq - every value rasdaemon 0.8.3 stored for a CXL record
# against what cxltier's store holds for the same record (events-rasdaemon.bats).
# Input: {"ras": {TABLE: [ROW...]}, "cxl": [EVENT...] (events --history -j),
# "kernel": {TRACEPOINT: [FIELD...]} (the running kernel's formats)}.
# Output: one line per table and column, tab-separated: table, column, the
# cxltier key compared, status, an example rasdaemon value, cxltier's value.
# Status: same; same, rounded (rasdaemon keeps less); same, empty (rasdaemon
# keeps NULL where the record says the field is not valid, the kernel
# zeros); rasdaemon-zero (the
# field is not in the kernel's record: rasdaemon stores a zero of its own);
# rasdaemon-zero-kernel-has (rasdaemon stored zeros for a field the kernel
# filled: its bug, cxltier has the value); own (rasdaemon's bookkeeping: its
# row id, the time it stored the row); MISSING or DIFFERS (fail the test).

def kinds: {"cxl_general_media_event": ["general_media", "cxl_general_media"],
            "cxl_dram_event": ["dram", "cxl_dram"],
            "cxl_memory_module_event": ["memory_module", "cxl_memory_module"]};
# rasdaemon's column -> the kernel's field (cxltier keeps it under that name)
def field($c): {"log_type": "log", "hdr_ts": "hdr_timestamp", "region": "region_name"}[$c] // $c;
def logname: ["informational", "warning", "failure", "fatal"][.];
# a byte as two hex digits
def byte2hex: [(. / 16 | floor), (. % 16)] | map("0123456789abcdef"[.: . + 1]) | join("");
def u64le: [range(8) as $i | ((. / pow(2; 8 * $i)) | floor) % 256 | byte2hex] | join("");
def allzero: if type == "string" then test("^[0-]*$") elif type == "number" then . == 0 else . == null end;

.kernel as $k | .cxl as $cxl
| .ras | to_entries[] | .key as $t | select(kinds[$t]) | kinds[$t] as [$kind, $tp]
| .value[] as $row
| ($cxl | map(select(.kind == $kind and .fields.hdr_handle == $row.hdr_handle and
                    (.fields.log | logname) == ($row.log_type | ascii_downcase))) | first) as $ev
| $row | to_entries[] | .key as $c | .value as $rv | field($c) as $f
| (if $ev == null then ["MISSING", "no cxltier record with this handle and log", null]
   elif $c == "id" or $c == "timestamp" then ["own", "", null]
   elif $c == "log_type" then [if ($rv | ascii_downcase) == $ev.severity then "same" else "DIFFERS" end, "severity", $ev.severity]
   elif $c == "hdr_ts" then
     (($ev.time[0:19] | sub("T"; " ")) + " +0000") as $s
     | [if $rv == $s then "same, rounded" else "DIFFERS" end, "time", $ev.time]
   elif ($ev.fields | has($f) | not) then
     [if ($k[$tp] | index($f)) then "MISSING" elif ($rv | allzero) then "rasdaemon-zero" else "DIFFERS" end, $f, null]
   else $ev.fields[$f] as $cv
     | (if ($cv | type) == "array" then ($cv | map(u64le) | join("")) else $cv end) as $cmp
     | [if $rv == $cmp or ($rv | tostring) == ($cmp | tostring) then "same"
        elif $rv == "" and ($cmp | allzero) then "same, empty (not valid in the record)"
        elif ($rv | allzero) and ($cmp | allzero | not) then "rasdaemon-zero-kernel-has"
        else "DIFFERS" end, $f, $cv]
   end) as [$status, $key, $cv]
| [$t, $c, $key, $status, ($rv | tojson), ($cv | tojson)] | @tsv
