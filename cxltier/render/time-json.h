/* SPDX-License-Identifier: GPL-2.0-only */
/* time-json.h - a time in nanoseconds since the epoch as every command
 * shows it: ISO 8601 in UTC to the nanosecond, and as a pair of JSON keys */
#ifndef CXLTIER_TIME_JSON_H
#define CXLTIER_TIME_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

/* "2024-01-02T03:04:05.000000006Z"; "" for 0 */
void iso_time(uint64_t ns, char *buf, size_t len);
/* o[ts_key] = ns, o[time_key] = its ISO 8601 text */
void time_json(json_object *o, const char *ts_key, const char *time_key, uint64_t ns);

#endif
