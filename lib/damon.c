// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "damon.h"

#define ADMIN "/sys/kernel/mm/damon/admin/kdamonds"
#define CTX ADMIN "/0/contexts/0"
#define SCHEME CTX "/schemes/0"

static int w(struct ct_sysfs *s, const char *path, const char *val)
{
	return ct_sysfs_write_str(s, path, val);
}

static int setup(struct ct_sysfs *s, int pid)
{
	char v[32];
	static const struct { const char *path, *val; } steps[] = {
		{ ADMIN "/nr_kdamonds", "1" },
		{ ADMIN "/0/contexts/nr_contexts", "1" },
		{ CTX "/operations", "vaddr" },
		{ CTX "/monitoring_attrs/intervals/sample_us", "5000" },
		{ CTX "/monitoring_attrs/intervals/aggr_us", "100000" },
		{ CTX "/monitoring_attrs/intervals/update_us", "1000000" },
		{ CTX "/monitoring_attrs/nr_regions/min", "10" },
		{ CTX "/monitoring_attrs/nr_regions/max", "2000" },
		{ CTX "/targets/nr_targets", "1" },
		{ CTX "/schemes/nr_schemes", "1" },
		{ SCHEME "/action", "stat" },
		{ SCHEME "/access_pattern/sz/min", "0" },
		{ SCHEME "/access_pattern/sz/max", "18446744073709551615" },
		{ SCHEME "/access_pattern/nr_accesses/min", "0" },
		{ SCHEME "/access_pattern/nr_accesses/max", "4294967295" },
		{ SCHEME "/access_pattern/age/min", "0" },
		{ SCHEME "/access_pattern/age/max", "4294967295" },
	};
	int rc;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (i == 9) {	/* after the target count: the target's pid */
			snprintf(v, sizeof(v), "%d", pid);
			if ((rc = w(s, CTX "/targets/0/pid_target", v)))
				return rc;
		}
		if ((rc = w(s, steps[i].path, steps[i].val)))
			return rc;
	}
	return 0;
}

static void teardown(struct ct_sysfs *s)
{
	char st[16];

	if (ct_sysfs_read_str(s, ADMIN "/0/state", st, sizeof(st)) == 0 && !strcmp(st, "on"))
		w(s, ADMIN "/0/state", "off");
	w(s, ADMIN "/nr_kdamonds", "0");
	ct_error_clear(s->err);
}

int ct_damon_sample(struct ct_sysfs *s, int pid, unsigned interval_ms, volatile sig_atomic_t *stop,
		    struct ct_access_region **out, size_t *n)
{
	char **names = NULL, path[256];
	size_t count = 0;
	uint64_t nr;
	int rc;

	*out = NULL;
	*n = 0;
	if (!ct_sysfs_exists(s, ADMIN "/nr_kdamonds"))
		return ct_fail(s->err, EOPNOTSUPP, "this kernel has no DAMON sysfs interface (CONFIG_DAMON_SYSFS, "
			       "CONFIG_DAMON_VADDR): cannot tell hot from cold pages");
	if ((rc = ct_sysfs_read_u64(s, ADMIN "/nr_kdamonds", 10, &nr)))
		return rc;
	if (nr)	/* writing nr_kdamonds would rebuild someone else's setup */
		return ct_fail(s->err, EBUSY, "DAMON is set up by another tool (%llu kdamond%s): cxltier does not "
			       "disturb it; stop that tool (or echo 0 > " ADMIN "/nr_kdamonds) and try again",
			       (unsigned long long)nr, nr == 1 ? "" : "s");
	if ((rc = setup(s, pid)) || (rc = w(s, ADMIN "/0/state", "on"))) {
		teardown(s);
		return rc;
	}
	for (unsigned waited = 0; waited < interval_ms && !(stop && *stop); waited += 50) {
		struct timespec ts = { 0, 50 * 1000000L };
		nanosleep(&ts, NULL);
	}
	rc = w(s, ADMIN "/0/state", "update_schemes_tried_regions");
	if (!rc)
		rc = ct_sysfs_list(s, SCHEME "/tried_regions", NULL, &names, &count);
	if (!rc && count) {
		*out = calloc(count, sizeof(**out));
		if (!*out)
			rc = ct_fail(s->err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; !rc && i < count; i++) {
		struct ct_access_region *r = &(*out)[*n];
		uint64_t v;
		if (names[i][0] < '0' || names[i][0] > '9')
			continue;	/* total_bytes */
		if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), SCHEME "/tried_regions/%s/start", names[i]), 10, &r->start) ||
		    ct_sysfs_read_u64(s, ct_path(path, sizeof(path), SCHEME "/tried_regions/%s/end", names[i]), 10, &r->end))
			continue;
		if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), SCHEME "/tried_regions/%s/nr_accesses", names[i]), 10, &v) == 0)
			r->nr_accesses = (unsigned)v;
		if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), SCHEME "/tried_regions/%s/age", names[i]), 10, &v) == 0)
			r->age = (unsigned)v;
		(*n)++;
	}
	ct_strv_free(names, count);
	teardown(s);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}
