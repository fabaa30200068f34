// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "core/conf.h"
#include "mm/migrate-conf.h"
#include "mm/migrate.h"

static int on_key(const char *k, const char *v, const char *name, unsigned line, void *arg, struct ct_error *err)
{
	struct ct_migrate_conf *c = arg;
	char *end;
	long j;

	if (strcmp(k, "jobs"))
		return ct_fail(err, EINVAL, "%s:%u: [migrate]: unknown key '%s' (jobs)", name, line, k);
	j = strtol(v, &end, 10);
	if (!*v || *end || j < 1 || j > CT_MIG_MAX_JOBS)
		return ct_fail(err, EINVAL, "%s:%u: jobs = %s: a number from 1 to %d", name, line, v, CT_MIG_MAX_JOBS);
	c->jobs = (unsigned)j;
	return 0;
}

int ct_migrate_conf_parse(const char *text, const char *name, struct ct_migrate_conf *c, struct ct_error *err)
{
	memset(c, 0, sizeof(*c));
	return ct_conf_section(text, name, "migrate", on_key, c, err);
}
