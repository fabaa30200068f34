// SPDX-License-Identifier: LGPL-2.1-or-later
/* time-parse.c - spans and points in time as systemd.time(7) writes them:
 * see time-parse.h */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "core/time-parse.h"

#define NS_MAX UINT64_MAX
#define SEC CT_NS_PER_SEC

static const struct unit {
	const char *name;
	uint64_t ns;
} units[] = {
	{ "ns", 1 }, { "nsec", 1 },
	{ "us", 1000 }, { "usec", 1000 }, { "\xc2\xb5s", 1000 },
	{ "ms", 1000000 }, { "msec", 1000000 },
	{ "s", SEC }, { "sec", SEC }, { "second", SEC }, { "seconds", SEC },
	{ "m", 60 * SEC }, { "min", 60 * SEC }, { "minute", 60 * SEC }, { "minutes", 60 * SEC },
	{ "h", 3600 * SEC }, { "hr", 3600 * SEC }, { "hour", 3600 * SEC }, { "hours", 3600 * SEC },
	{ "d", 86400 * SEC }, { "day", 86400 * SEC }, { "days", 86400 * SEC },
	{ "w", 7 * 86400 * SEC }, { "week", 7 * 86400 * SEC }, { "weeks", 7 * 86400 * SEC },
	{ "M", 2629800 * SEC }, { "month", 2629800 * SEC }, { "months", 2629800 * SEC },	/* 30.44 days */
	{ "y", 31557600 * SEC }, { "year", 31557600 * SEC }, { "years", 31557600 * SEC },	/* 365.25 days */
};

/* the unit named by the letters at *p (advanced past them), or 0 */
static uint64_t unit_at(const char **p)
{
	size_t n = 0;

	while ((*p)[n] && (isalpha((unsigned char)(*p)[n]) || (unsigned char)(*p)[n] >= 0x80))
		n++;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == n && !strncmp(units[i].name, *p, n)) {
			*p += n;
			return units[i].ns;
		}
	return 0;
}

/* "12" or "1.25" times unit into *v: 0, -EINVAL, -ERANGE */
static int number_times(const char **p, uint64_t unit, uint64_t *v)
{
	uint64_t whole = 0, frac = 0, scale = 1, part;
	const char *s = *p;

	if (!isdigit((unsigned char)*s) && !(*s == '.' && isdigit((unsigned char)s[1])))
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++)
		if (__builtin_mul_overflow(whole, 10, &whole) || __builtin_add_overflow(whole, (uint64_t)(*s - '0'), &whole))
			return -ERANGE;
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++)
			if (scale < 1000000000000000000ULL) {	/* digits past 18 do not count */
				frac = frac * 10 + (uint64_t)(*s - '0');
				scale *= 10;
			}
	}
	*p = s;
	if (__builtin_mul_overflow(whole, unit, v))
		return -ERANGE;
	/* frac / scale of a unit, without overflow: unit < 2^64, frac < scale */
	part = (uint64_t)((unsigned __int128)frac * unit / scale);
	return __builtin_add_overflow(*v, part, v) ? -ERANGE : 0;
}

int ct_parse_span(const char *s, uint64_t bare_unit_ns, uint64_t max_ns, uint64_t *ns)
{
	uint64_t total = 0;
	bool any = false;

	for (;;) {
		const char *num;
		uint64_t unit, v;
		int rc;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		num = s;
		while (isdigit((unsigned char)*s) || *s == '.')
			s++;
		while (*s == ' ')
			s++;
		unit = unit_at(&s);
		if (!unit && (!bare_unit_ns || (*s && *s != ' ')))
			return -EINVAL;
		if ((rc = number_times(&num, unit ? unit : bare_unit_ns, &v)))
			return rc;
		if (__builtin_add_overflow(total, v, &total))
			return -ERANGE;
		any = true;
	}
	if (!any)
		return -EINVAL;
	if (max_ns && total > max_ns)
		return -ERANGE;
	*ns = total;
	return 0;
}

/* "@1700000000.5" */
static int epoch(const char *s, uint64_t *ns)
{
	uint64_t v;
	const char *p = s;
	int rc = number_times(&p, SEC, &v);

	if (rc)
		return rc;
	if (*p)
		return -EINVAL;
	*ns = v;
	return 0;
}

/* midnight (local time) of now's day, plus days */
static int midnight(uint64_t now_ns, int days, uint64_t *ns)
{
	time_t t = (time_t)(now_ns / SEC);
	struct tm tm;

	if (!localtime_r(&t, &tm))
		return -ERANGE;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_mday += days;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t < 0)
		return -ERANGE;
	*ns = (uint64_t)t * SEC;
	return 0;
}

/* digits: exactly n of them into *v */
static bool digits(const char **p, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++, (*p)++) {
		if (!isdigit((unsigned char)**p))
			return false;
		*v = *v * 10 + (**p - '0');
	}
	return true;
}

/* a zone after a date and time: *local when none; the offset east of UTC */
static int zone(const char *p, bool *local, long *offset_s)
{
	int h, m = 0;
	char sign;

	while (*p == ' ')
		p++;
	*local = !*p;
	*offset_s = 0;
	if (!*p || !strcmp(p, "Z") || !strcmp(p, "UTC") || !strcmp(p, "GMT"))
		return 0;
	sign = *p++;
	if ((sign != '+' && sign != '-') || !digits(&p, 2, &h))
		return -EINVAL;
	if (*p == ':')
		p++;
	if (*p && !digits(&p, 2, &m))
		return -EINVAL;
	if (*p || h > 23 || m > 59)
		return -EINVAL;
	*offset_s = (sign == '-' ? -1 : 1) * (h * 3600L + m * 60L);
	return 0;
}

/* "HH:MM[:SS[.F]]" into tm and the fraction's ns */
static int clock_time(const char **p, struct tm *tm, uint64_t *frac_ns)
{
	*frac_ns = 0;
	if (!digits(p, 2, &tm->tm_hour) || *(*p)++ != ':' || !digits(p, 2, &tm->tm_min))
		return -EINVAL;
	if (**p == ':') {
		(*p)++;
		if (!digits(p, 2, &tm->tm_sec))
			return -EINVAL;
		if (**p == '.') {
			uint64_t scale = SEC;
			for ((*p)++; isdigit((unsigned char)**p); (*p)++)
				if (scale > 1) {
					scale /= 10;
					*frac_ns += (uint64_t)(**p - '0') * scale;
				}
		}
	}
	return tm->tm_hour > 23 || tm->tm_min > 59 || tm->tm_sec > 60 ? -EINVAL : 0;
}

/* "YYYY-MM-DD[( |T)HH:MM[:SS[.F]]][ZONE]" or "HH:MM[:SS]" */
static int date_time(const char *s, uint64_t now_ns, uint64_t *ns)
{
	struct tm tm = { 0 }, check;
	const char *p = s;
	uint64_t frac = 0;
	bool local, has_date = false;
	long offset;
	time_t t;
	int rc;

	if (isdigit((unsigned char)p[0]) && isdigit((unsigned char)p[1]) && p[2] == ':') {
		time_t nt = (time_t)(now_ns / SEC);
		if (!localtime_r(&nt, &tm))
			return -ERANGE;
		tm.tm_sec = 0;
	} else {
		if (!digits(&p, 4, &tm.tm_year) || *p++ != '-' || !digits(&p, 2, &tm.tm_mon) || *p++ != '-' ||
		    !digits(&p, 2, &tm.tm_mday))
			return -EINVAL;
		tm.tm_year -= 1900;
		tm.tm_mon -= 1;
		has_date = true;
		if (*p == 'T' || (*p == ' ' && isdigit((unsigned char)p[1])))
			p++;
	}
	if (isdigit((unsigned char)*p) && (rc = clock_time(&p, &tm, &frac)))
		return rc;
	if ((rc = zone(p, &local, &offset)))
		return rc;
	check = tm;
	tm.tm_isdst = -1;
	t = local ? mktime(&tm) : timegm(&tm) - offset;
	if (has_date && (tm.tm_mday != check.tm_mday || tm.tm_mon != check.tm_mon))
		return -EINVAL;	/* 2026-02-31 */
	if (t < 0)
		return -ERANGE;
	if ((uint64_t)t > (NS_MAX - frac) / SEC)
		return -ERANGE;
	*ns = (uint64_t)t * SEC + frac;
	return 0;
}

/* now plus or minus a span (a bare number: seconds) */
static int relative(const char *span, uint64_t now_ns, int sign, uint64_t *ns)
{
	uint64_t d;
	int rc = ct_parse_span(span, SEC, 0, &d);

	if (rc)
		return rc;
	if (sign < 0)
		return d > now_ns ? -ERANGE : (*ns = now_ns - d, 0);
	return d > NS_MAX - now_ns ? -ERANGE : (*ns = now_ns + d, 0);
}

int ct_parse_time(const char *s, uint64_t now_ns, uint64_t *ns)
{
	char buf[128];
	size_t n;
	int rc;

	while (*s == ' ')
		s++;
	n = strlen(s);
	while (n && s[n - 1] == ' ')
		n--;
	if (!n || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!strcmp(buf, "now"))
		return *ns = now_ns, 0;
	if (!strcmp(buf, "today"))
		return midnight(now_ns, 0, ns);
	if (!strcmp(buf, "yesterday"))
		return midnight(now_ns, -1, ns);
	if (!strcmp(buf, "tomorrow"))
		return midnight(now_ns, 1, ns);
	if (buf[0] == '@')
		return epoch(buf + 1, ns);
	if (buf[0] == '+' || buf[0] == '-')
		return relative(buf + 1, now_ns, buf[0] == '-' ? -1 : 1, ns);
	if (n > 4 && !strcmp(buf + n - 4, " ago"))
		return buf[n - 4] = '\0', relative(buf, now_ns, -1, ns);
	if (n > 5 && !strcmp(buf + n - 5, " left"))
		return buf[n - 5] = '\0', relative(buf, now_ns, 1, ns);
	if ((rc = date_time(buf, now_ns, ns)) != -EINVAL)
		return rc;
	/* a bare span counts back from now, as "SPAN ago" ("30s", "2h") */
	return relative(buf, now_ns, -1, ns);
}
