// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "mm/migrate-conf.h"
#include "mm/migrate.h"

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

int ct_migrate_conf_parse(const char *text, const char *name, struct ct_migrate_conf *c, struct ct_error *err)
{
	char *copy = strdup(text);
	bool mine = false;
	unsigned line = 0;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	if (!copy)
		return ct_fail(err, ENOMEM, "out of memory");
	for (char *l = copy, *next; l && !rc; l = next) {
		char *eq, *k, *v, *end;
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		line++;
		l = trim(l);
		if (!*l || *l == '#' || *l == ';')
			continue;
		if (*l == '[') {
			char *close = strchr(l, ']');
			if (close)
				*close = '\0';
			mine = !strcmp(trim(l + 1), "migrate");
			continue;
		}
		if (!mine)
			continue;
		if (!(eq = strchr(l, '='))) {
			rc = ct_fail(err, EINVAL, "%s:%u: expected KEY = VALUE", name, line);
			break;
		}
		*eq = '\0';
		k = trim(l);
		v = trim(eq + 1);
		if (strcmp(k, "jobs")) {
			rc = ct_fail(err, EINVAL, "%s:%u: [migrate]: unknown key '%s' (jobs)", name, line, k);
			break;
		}
		long j = strtol(v, &end, 10);
		if (!*v || *end || j < 1 || j > CT_MIG_MAX_JOBS)
			rc = ct_fail(err, EINVAL, "%s:%u: jobs = %s: a number from 1 to %d", name, line, v, CT_MIG_MAX_JOBS);
		else
			c->jobs = (unsigned)j;
	}
	free(copy);
	return rc;
}
