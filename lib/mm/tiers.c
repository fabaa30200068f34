// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "mm/tiers.h"

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

/* an unknown distance: farther than any SLIT value */
static int distance_or_far(const struct ct_tier_node_info *info, const void *ctx, int from, int to)
{
	int d = info->distance(ctx, from, to);

	return d < 0 ? 255 : d;
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
		/* ENODEV: removed between the open and the read */
		if ((rc == -ENOENT || rc == -ENODEV) &&
		    !ct_sysfs_exists(s, ct_path(path, sizeof(path), TIERING "/%s", names[i]))) {
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

int ct_tiers_demotion_targets(const struct ct_tiers *t, int node, const struct ct_tier_node_info *info,
			      const void *ctx, struct ct_nodeset *preferred, struct ct_nodeset *allowed)
{
	int own = ct_tiers_of_node(t, node), first = -1, n;
	const struct ct_tier *next = NULL;
	struct ct_nodeset picked = { 0 };

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
	/*
	 * establish_demotion_targets() takes find_next_best_node()'s picks from
	 * the next tier while their distance equals the first pick's. It picks
	 * by distance, +1 for a node numbered below this one ("prefer the next
	 * node"), +1 for a node with CPUs (headless first), then by node_load,
	 * the zonelist builder's round-robin count, which the kernel does not
	 * publish: taken as equal, so the lowest node id wins, as it does in
	 * the kernel's ascending scan.
	 */
	for (;;) {
		int pick = -1, pick_score = 0, d;
		ct_nodeset_foreach(&next->nodes, n) {
			int score;
			if (ct_nodeset_has(&picked, n))
				continue;
			score = distance_or_far(info, ctx, node, n) + (n < node) + (info->has_cpu(ctx, n) ? 1 : 0);
			if (pick < 0 || score < pick_score) {
				pick = n;
				pick_score = score;
			}
		}
		if (pick < 0)
			break;
		ct_nodeset_add(&picked, pick);
		d = distance_or_far(info, ctx, node, pick);
		if (first >= 0 && d != first)
			break;
		first = d;
		ct_nodeset_add(preferred, pick);
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
