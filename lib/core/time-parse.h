/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * time-parse.h - spans and points in time as systemd.time(7) writes them,
 * so that cxltier takes what journalctl takes. Pure (but for the local time
 * zone of a timestamp without one, as mktime reads it).
 *
 * A span: numbers with units, summed, with or without spaces between
 * ("30s", "5min", "1w 2d", "1h30m", "1.5h", "2 hours"): ns nsec, us usec,
 * ms msec, s sec second(s), m min minute(s), h hr hour(s), d day(s),
 * w week(s), M month(s) (30.44 days), y year(s) (365.25 days). A bare
 * number is in the caller's unit.
 *
 * A point in time: "now", "today", "yesterday", "tomorrow" (midnight, local
 * time), "@EPOCH" (seconds, a fraction allowed), "+SPAN" and "-SPAN" (from
 * now), "SPAN ago" and "SPAN left", a date and time "YYYY-MM-DD HH:MM[:SS[.F]]"
 * or with a T between them (ISO 8601), followed by "Z", "UTC", or an offset
 * "+HH:MM"/"-HH:MM"/"+HHMM" (without one: local time), a date alone
 * (midnight), a time alone "HH:MM[:SS]" (today). What `cxltier events`
 * prints in its TIME column ("2026-12-01T10:00:00.000000006Z") reads back.
 */
#ifndef CXLTIER_TIME_PARSE_H
#define CXLTIER_TIME_PARSE_H

#include <stdint.h>

#define CT_NS_PER_SEC 1000000000ULL

/* a span into *ns: 0; -EINVAL when s is not one, -ERANGE when it is more
 * than max_ns (0: up to 2^64 - 1 ns) */
int ct_parse_span(const char *s, uint64_t bare_unit_ns, uint64_t max_ns, uint64_t *ns);
/* a point in time into *ns since the epoch, now_ns being now: 0; -EINVAL
 * when s is not one, -ERANGE when it is before 1970 or past 2262 */
int ct_parse_time(const char *s, uint64_t now_ns, uint64_t *ns);

#endif
