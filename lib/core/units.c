// SPDX-License-Identifier: LGPL-2.1-or-later
/* units.c - sizes as people write them and print them: see units.h */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/units.h"

int ct_parse_size(const char *s, uint64_t *out)
{
	static const char letters[] = "KMGTPE";
	const char *p = s, *at;
	uint64_t whole = 0, frac = 0, scale = 1, base = 1024, unit = 1, v;
	char *end;

	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return -EINVAL;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {	/* hex: bytes, whole */
		errno = 0;
		v = strtoull(p, &end, 16);
		if (errno || end == p + 2 || *end)
			return errno == ERANGE ? -ERANGE : -EINVAL;
		*out = v;
		return 0;
	}
	for (; isdigit((unsigned char)*p); p++)
		if (__builtin_mul_overflow(whole, 10, &whole) || __builtin_add_overflow(whole, (uint64_t)(*p - '0'), &whole))
			return -ERANGE;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			if (scale < 1000000000000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				scale *= 10;
			}
	if (*p) {
		if (!(at = strchr(letters, toupper((unsigned char)*p))))
			return -EINVAL;
		p++;
		if (!strcmp(p, "B"))		/* KB, MB: powers of 1000 (util-linux's strtosize) */
			base = 1000;
		else if (*p && strcmp(p, "iB"))	/* K, KiB: powers of 1024 */
			return -EINVAL;
		for (const char *l = letters; l <= at; l++)
			unit *= base;
	}
	if (__builtin_mul_overflow(whole, unit, &v) ||
	    __builtin_add_overflow(v, (uint64_t)((unsigned __int128)frac * unit / scale), &v))
		return -ERANGE;
	*out = v;
	return 0;
}

char *ct_size_text(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "BKMGTPE";
	unsigned long long div = 1, whole, tenth;
	int exp = 0;

	while (exp < 6 && bytes >= div * 1024) {
		div *= 1024;
		exp++;
	}
	if (!exp) {
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
		return buf;
	}
	whole = bytes / div;
	/* one decimal, rounded; dropped when it is 0 */
	tenth = ((bytes % div) * 10 + div / 2) / div;
	if (tenth == 10) {
		whole++;
		tenth = 0;
	}
	if (tenth)
		snprintf(buf, len, "%llu.%llu%c", whole, tenth, units[exp]);
	else
		snprintf(buf, len, "%llu%c", whole, units[exp]);
	return buf;
}
