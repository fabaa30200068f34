// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "tiers.h"

#define TIERING "/sys/devices/virtual/memory_tiering"

static int cmp_tier(const void *a, const void *b)
{
	int x = ((const struct ct_tier *)a)->id, y = ((const struct ct_tier *)b)->id;

	return (x > y) - (x < y);	/* x - y overflows for ids far apart */
}

/* memory_tierN: N is the abstract distance >> 7, a non-negative int */
static bool tier_id(const char *name, int *id)
{
	const char *digits = name + strlen("memory_tier");
	char *end;
	long v;

	if (*digits < '0' || *digits > '9')
		return false;
	errno = 0;
	v = strtol(digits, &end, 10);
	if (errno || *end || v > INT_MAX)
		return false;
	*id = (int)v;
	return true;
}

int ct_tiers_load(struct ct_sysfs *s, struct ct_tiers *t)
{
	char **names, path[256], buf[4096];
	size_t n;
	int rc;

	memset(t, 0, sizeof(*t));
	if (!ct_sysfs_exists(s, TIERING))
		return 0;	/* kernel before 6.1: no tiers, not an error */
	rc = ct_sysfs_list(s, TIERING, "memory_tier", &names, &n);
	if (rc)
		return rc;
	t->tier = calloc(n ? n : 1, sizeof(*t->tier));
	if (!t->tier) {
		ct_strv_free(names, n);
		return ct_fail(s->err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		struct ct_tier *tier = &t->tier[t->count];

		if (!tier_id(names[i], &tier->id))
			continue;	/* not a tier the kernel made */
		/* "nodelist" since 6.1-rc; the ABI text still says "nodes" */
		rc = ct_sysfs_read_str(s, ct_path(path, sizeof(path), TIERING "/%s/nodelist", names[i]),
				       buf, sizeof(buf));
		if (rc == -ENOENT)
			rc = ct_sysfs_read_str(s, ct_path(path, sizeof(path), TIERING "/%s/nodes", names[i]),
					       buf, sizeof(buf));
		if (rc == -ENOENT && !ct_sysfs_exists(s, ct_path(path, sizeof(path), TIERING "/%s", names[i]))) {
			/* gone since the listing: the kernel removes a tier when its
			 * last node goes offline (memory being offlined meanwhile) */
			ct_error_clear(s->err);
			rc = 0;
			continue;
		}
		if (rc)
			break;
		if (ct_nodeset_parse(&tier->nodes, buf)) {
			rc = ct_fail(s->err, EINVAL, "%s%s: malformed node list \"%s\"", s->root, path, buf);
			break;
		}
		t->count++;
	}
	ct_strv_free(names, n);
	if (rc)
		ct_tiers_free(t);
	else if (t->count)
		qsort(t->tier, t->count, sizeof(*t->tier), cmp_tier);
	return rc;
}

void ct_tiers_free(struct ct_tiers *t)
{
	free(t->tier);
	t->tier = NULL;
	t->count = 0;
}

int ct_tiers_demotion_targets(const struct ct_tiers *t, int node,
			      int (*distance)(const void *ctx, int from, int to), const void *ctx,
			      struct ct_nodeset *preferred, struct ct_nodeset *allowed)
{
	int own = ct_tiers_of_node(t, node), best = -1, n;
	const struct ct_tier *next = NULL;

	memset(preferred, 0, sizeof(*preferred));
	memset(allowed, 0, sizeof(*allowed));
	if (own < 0)
		return 0;
	for (size_t i = 0; i < t->count; i++) {
		const struct ct_tier *x = &t->tier[i];
		if (x->id <= own || !ct_nodeset_count(&x->nodes))
			continue;
		ct_nodeset_foreach(&x->nodes, n)
			ct_nodeset_add(allowed, n);
		if (!next || x->id < next->id)
			next = x;
	}
	if (!next)
		return 0;
	ct_nodeset_foreach(&next->nodes, n) {
		int d = distance(ctx, node, n);
		if (d < 0)
			d = 255;	/* unknown: farther than any SLIT value */
		if (best < 0 || d < best) {
			memset(preferred, 0, sizeof(*preferred));
			best = d;
		}
		if (d == best)
			ct_nodeset_add(preferred, n);
	}
	return ct_nodeset_count(preferred);
}

int ct_tiers_of_node(const struct ct_tiers *t, int node)
{
	for (size_t i = 0; i < t->count; i++)
		if (ct_nodeset_has(&t->tier[i].nodes, node))
			return t->tier[i].id;
	return -1;
}
