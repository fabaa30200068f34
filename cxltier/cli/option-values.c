// SPDX-License-Identifier: GPL-2.0-only
/* option-values.c - an option's argument read as a value (option-values.h) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/option-values.h"
#include "core/time-parse.h"
#include "core/units.h"

int value_uint(const char *arg, long max, unsigned *out)
{
	char *end;
	unsigned long v;

	if (!*arg || *arg == '-' || *arg == '+' || *arg == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoul(arg, &end, 0);
	if (errno || *end || v > (unsigned long)max)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

int value_seconds(const char *arg, long max, unsigned *out)
{
	uint64_t ns;

	/* systemd.time's spans, a bare number in seconds; whole seconds */
	if (ct_parse_span(arg, CT_NS_PER_SEC, (uint64_t)max * CT_NS_PER_SEC, &ns) || ns % CT_NS_PER_SEC)
		return -EINVAL;
	*out = (unsigned)(ns / CT_NS_PER_SEC);
	return 0;
}

int value_span_ms(const char *arg, uint64_t max_ms, uint64_t *out)
{
	uint64_t ns;

	if (ct_parse_span(arg, CT_NS_PER_SEC, max_ms * 1000000, &ns) || ns % 1000000 || !ns)
		return -EINVAL;
	*out = ns / 1000000;
	return 0;
}

int value_size(const char *arg, uint64_t *out)
{
	uint64_t v;

	if (ct_parse_size(arg, &v) || !v)
		return -EINVAL;
	*out = v;
	return 0;
}

int value_rate_mbps(const char *arg, uint64_t max, uint64_t *out)
{
	char num[64];
	size_t len = strlen(arg);
	uint64_t v;
	char *end;

	if (len > 2 && !strcmp(arg + len - 2, "/s"))
		len -= 2;
	if (!len || len >= sizeof(num))
		return -EINVAL;
	memcpy(num, arg, len);
	num[len] = '\0';
	if (num[0] >= '0' && num[0] <= '9' && strspn(num, "0123456789") == len) {
		errno = 0;
		v = strtoull(num, &end, 10);
		if (errno)
			return -EINVAL;
	} else {
		if (ct_parse_size(num, &v) || v % (1ULL << 20))
			return -EINVAL;
		v >>= 20;
	}
	if (v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int value_choice(const char *arg, const char *words)
{
	size_t len = strlen(arg);
	int i = 0;

	if (!len)
		return -EINVAL;
	for (const char *w = words; *w; i++) {
		size_t n = strcspn(w, " ");
		if (n == len && !strncmp(w, arg, n))
			return i;
		w += n;
		w += strspn(w, " ");
	}
	return -EINVAL;
}
