// SPDX-License-Identifier: GPL-2.0-only
/* time-json.c - times as every command shows them (time-json.h) */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include "cli/json-build.h"
#include "render/time-json.h"

void iso_time(uint64_t ns, char *buf, size_t len)
{
	time_t s = (time_t)(ns / 1000000000ULL);
	struct tm tm;

	if (!ns || !gmtime_r(&s, &tm)) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%09" PRIu64 "Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		 tm.tm_hour, tm.tm_min, tm.tm_sec, (uint64_t)(ns % 1000000000ULL));
}

void time_json(json_object *o, const char *ts_key, const char *time_key, uint64_t ns)
{
	char t[64];

	jb_u64(o, ts_key, ns);
	iso_time(ns, t, sizeof(t));
	jb_str(o, time_key, t);
}
