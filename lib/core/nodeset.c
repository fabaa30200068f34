// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/nodeset.h"

#define BPL (8 * sizeof(unsigned long))

void ct_nodeset_add(struct ct_nodeset *set, int n)
{
	if (n >= 0 && n < CT_MAX_NODES)
		set->bits[n / BPL] |= 1UL << (n % BPL);
}

bool ct_nodeset_has(const struct ct_nodeset *set, int n)
{
	return n >= 0 && n < CT_MAX_NODES && (set->bits[n / BPL] >> (n % BPL)) & 1;
}

int ct_nodeset_count(const struct ct_nodeset *set)
{
	int c = 0;

	for (size_t i = 0; i < sizeof(set->bits) / sizeof(set->bits[0]); i++)
		c += __builtin_popcountl(set->bits[i]);
	return c;
}

int ct_nodeset_next(const struct ct_nodeset *set, int from)
{
	for (int n = from < 0 ? 0 : from; n < CT_MAX_NODES; n++)
		if (ct_nodeset_has(set, n))
			return n;
	return -1;
}

static int number(const char **p, long *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	*v = strtol(*p, &end, 10);
	if (*v >= CT_MAX_NODES)
		return -EINVAL;
	*p = end;
	return 0;
}

int ct_nodeset_parse(struct ct_nodeset *set, const char *p)
{
	memset(set, 0, sizeof(*set));
	while (*p == ' ')
		p++;
	if (!*p || *p == '\n')
		return 0;
	for (;;) {
		long a, b;
		if (number(&p, &a))
			return -EINVAL;
		b = a;
		if (*p == '-') {
			p++;
			if (number(&p, &b) || b < a)
				return -EINVAL;
		}
		for (long n = a; n <= b; n++)
			ct_nodeset_add(set, n);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\0' || *p == '\n')
			return 0;
		return -EINVAL;
	}
}
