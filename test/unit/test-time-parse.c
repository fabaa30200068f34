// SPDX-License-Identifier: GPL-2.0-only
/* Spans and points in time as systemd.time(7) writes them
 * (lib/core/time-parse.c): the forms journalctl takes, what `events`
 * prints in its TIME column, and what must be refused. */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include "tap.h"
#include "core/time-parse.h"

#define S 1000000000ULL
#define NOW (1764583200ULL * S + 123)	/* 2025-12-01T10:00:00.000000123Z, a Monday */

static uint64_t span(const char *s)
{
	uint64_t v = 0;
	int rc = ct_parse_span(s, S, 0, &v);

	return rc ? (uint64_t)rc : v;
}

static long long at(const char *s)
{
	uint64_t v = 0;
	int rc = ct_parse_time(s, NOW, &v);

	return rc ? rc : (long long)v;
}

static void spans(void)
{
	uint64_t v;

	is_int(span("30s"), 30 * S, "30s");
	is_int(span("5min"), 300 * S, "5min");
	is_int(span("5m"), 300 * S, "5m is minutes");
	is_int(span("1M"), 2629800 * S, "1M is a month (30.44 days), not a minute");
	is_int(span("1w"), 7 * 86400 * S, "1w");
	is_int(span("1w 2d"), 9 * 86400 * S, "a sum with a space");
	is_int(span("1h30m"), 5400 * S, "a sum without one");
	is_int(span("2 hours"), 7200 * S, "a unit written out, after a space");
	is_int(span("1.5h"), 5400 * S, "a fraction");
	is_int(span(".5s"), S / 2, "a fraction without its whole part");
	is_int(span("90"), 90 * S, "a bare number is in the caller's unit");
	is_int(span("250ms"), 250000000, "milliseconds");
	is_int(span("3us"), 3000, "microseconds");
	is_int(span("1y"), 31557600 * S, "a year of 365.25 days");
	is_int(ct_parse_span("90", 0, 0, &v), -EINVAL, "a bare number without a unit to take: refused");
	is_int(span(""), -EINVAL, "nothing is no span");
	is_int(span("   "), -EINVAL, "spaces are no span");
	is_int(span("-5s"), -EINVAL, "a negative span");
	is_int(span("5 parsecs"), -EINVAL, "an unknown unit");
	is_int(span("5ss"), -EINVAL, "a unit doubled");
	is_int(span("s"), -EINVAL, "a unit without a number");
	is_int(span("99999d"), 99999ULL * 86400 * S, "99999 days fits in 64 bits of ns");
	is_int(span("999999d"), -ERANGE, "999999 days does not (2^64 ns is 213503 days): out of range, not wrapped");
	is_int(span("9999999999d"), -ERANGE, "past 2^64 ns: out of range, not wrapped round");
	is_int(span("18446744073709551616ns"), -ERANGE, "a number past 2^64");
	is_int(ct_parse_span("2d", S, 86400 * S, &v), -ERANGE, "over the caller's bound");
	is_int(ct_parse_span("1d", S, 86400 * S, &v), 0, "at the caller's bound");
}

static void times_utc(void)
{
	is_int(at("now"), NOW, "now");
	is_int(at("@1764583200"), 1764583200ULL * S, "@EPOCH");
	is_int(at("@1764583200.25"), 1764583200ULL * S + S / 4, "@EPOCH with a fraction");
	is_int(at("-1h"), NOW - 3600 * S, "-1h");
	is_int(at("+5min"), NOW + 300 * S, "+5min");
	is_int(at("2 hours ago"), NOW - 7200 * S, "SPAN ago");
	is_int(at("1d left"), NOW + 86400 * S, "SPAN left");
	is_int(at("30s"), NOW - 30 * S, "a bare span counts back from now (the old --since forms)");
	is_int(at("5min"), NOW - 300 * S, "5min");
	is_int(at("1w"), NOW - 7 * 86400 * S, "1w");
	is_int(at("today"), 1764547200ULL * S, "today: midnight");
	is_int(at("yesterday"), 1764460800ULL * S, "yesterday: midnight");
	is_int(at("tomorrow"), 1764633600ULL * S, "tomorrow: midnight");
	is_int(at("2025-12-01T10:00:00.000000006Z"), 1764583200ULL * S + 6, "the TIME column of events reads back");
	is_int(at("2025-12-01T10:00:00Z"), 1764583200ULL * S, "ISO 8601 with Z");
	is_int(at("2025-12-01 10:00:00 UTC"), 1764583200ULL * S, "a space and UTC");
	is_int(at("2025-12-01T11:00:00+01:00"), 1764583200ULL * S, "an offset east");
	is_int(at("2025-12-01T05:00-0500"), 1764583200ULL * S, "an offset west, without seconds or colon");
	is_int(at("2025-12-01 10:00"), 1764583200ULL * S, "no seconds, local (UTC here)");
	is_int(at("2025-12-01"), 1764547200ULL * S, "a date alone: its midnight");
	is_int(at("10:00"), 1764583200ULL * S, "a time alone: today");
	is_int(at("2026-02-31"), -EINVAL, "no 31st of February");
	is_int(at("2025-13-01"), -EINVAL, "no 13th month");
	is_int(at("2025-12-01T25:00"), -EINVAL, "no 25th hour");
	is_int(at("1960-01-01"), -ERANGE, "before 1970: out of range");
	is_int(at("-100y"), -ERANGE, "a hundred years before now: before 1970");
	is_int(at("2025-12-01T10:00:00+25:00"), -EINVAL, "an offset of 25 hours");
	is_int(at("2025-12-01Tnoon"), -EINVAL, "no time words");
	is_int(at("next week"), -EINVAL, "no English");
	is_int(at(""), -EINVAL, "nothing");
	is_int(at("@"), -EINVAL, "@ alone");
	is_int(at("@12x"), -EINVAL, "@ with a tail");
}

static void times_local(void)
{
	/* central Europe, winter: an hour east of UTC (POSIX rule, no tzdata) */
	setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
	tzset();
	is_int(at("2025-12-01 11:00"), 1764583200ULL * S, "local time: 11:00 CET is 10:00 UTC");
	is_int(at("2025-12-01T10:00:00Z"), 1764583200ULL * S, "a zone given wins over the local one");
	is_int(at("today"), 1764543600ULL * S, "today: local midnight (23:00 UTC the day before)");
	is_int(at("2025-07-01 12:00"), 1751364000ULL * S, "summer time: 12:00 CEST is 10:00 UTC");
	setenv("TZ", "UTC", 1);
	tzset();
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	spans();
	times_utc();
	times_local();
	return tap_done();
}
