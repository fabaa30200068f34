// SPDX-License-Identifier: LGPL-2.1-or-later
/* units.c - sizes and durations as people write them: see units.h */
#include <stdlib.h>
#include <string.h>
#include "core/units.h"

int ct_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	if (!*s || *s == '-' || *s == ' ')
		return -1;
	v = strtoull(s, &end, 0);
	if (end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	case '\0': break;
	default: return -1;
	}
	if (*end && end[1] && strcmp(end + 1, "iB") && strcmp(end + 1, "B"))
		return -1;
	if (v > (~0ULL >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int ct_parse_duration(const char *s, uint64_t *seconds)
{
	char *end;
	unsigned long long v, mul = 1;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtoull(s, &end, 10);
	switch (*end) {
	case 's': case '\0': break;
	case 'm': mul = 60; break;
	case 'h': mul = 3600; break;
	case 'd': mul = 86400; break;
	case 'w': mul = 7 * 86400; break;
	default: return -1;
	}
	if (*end && end[1])
		return -1;
	if (v > ~0ULL / mul)
		return -1;
	*seconds = v * mul;
	return 0;
}
