// SPDX-License-Identifier: LGPL-2.1-or-later
/* run-placement.c - the memory policy a command is started under */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "core/context.h"
#include "jobs/run-placement.h"
#include "mm/mempolicy.h"

/* "K" of fastest:K, a count from 1; -1 when it is not one */
static int count_of(const char *s, size_t len)
{
	long v = 0;

	if (!len || len > 6)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v ? (int)v : -1;
}

static void add_tier(const struct ct_tier *tier, struct ct_nodeset *nodes, struct ct_nodeset *ids)
{
	int n;

	ct_nodeset_foreach(&tier->nodes, n)
		ct_nodeset_add(nodes, n);
	if (tier->id >= 0 && tier->id < CT_MAX_NODES)
		ct_nodeset_add(ids, tier->id);
}

/* one item of the list: "N", "fastest", "slowest", "fastest:K", "slowest:K" */
static int add_item(const struct ct_tiers *t, const char *item, size_t len, struct ct_nodeset *nodes,
		    struct ct_nodeset *ids, struct ct_error *err)
{
	size_t word = strcspn(item, ":,");
	bool fast = word == 7 && !strncmp(item, "fastest", 7), slow = word == 7 && !strncmp(item, "slowest", 7);
	int k = 1;

	if (fast || slow) {
		if (word < len && (k = count_of(item + word + 1, len - word - 1)) < 0)
			return ct_fail(err, EINVAL, "tier '%.*s': after '%.7s:' give a count of tiers (fastest:2)",
				       (int)len, item, item);
		if ((size_t)k > t->count)
			return ct_fail(err, ENOENT, "tier '%.*s': this system has %zu memory tier%s (see 'cxltier "
				       "tiers')", (int)len, item, t->count, t->count == 1 ? "" : "s");
		for (int i = 0; i < k; i++)
			add_tier(&t->tier[fast ? (size_t)i : t->count - 1 - (size_t)i], nodes, ids);
		return 0;
	}
	if ((k = count_of(item, len)) < 0 && !(len == 1 && item[0] == '0'))
		return ct_fail(err, EINVAL, "tier '%.*s': give a tier number, fastest, slowest, or fastest:K / "
			       "slowest:K (the K fastest or slowest tiers)", (int)len, item);
	k = k < 0 ? 0 : k;
	for (size_t i = 0; i < t->count; i++)
		if (t->tier[i].id == k) {
			add_tier(&t->tier[i], nodes, ids);
			return 0;
		}
	return ct_fail(err, ENOENT, "tier %d: no such memory tier (see 'cxltier tiers')", k);
}

int ct_place_tiers(const struct ct_tiers *t, const char *list, struct ct_nodeset *nodes, struct ct_nodeset *ids,
		   struct ct_error *err)
{
	const char *p = list;

	memset(nodes, 0, sizeof(*nodes));
	memset(ids, 0, sizeof(*ids));
	if (!*p)
		return ct_fail(err, EINVAL, "give a tier: its number, fastest, slowest, or fastest:K");
	for (;;) {
		size_t len = strcspn(p, ",");
		int rc;

		if (!len)
			return ct_fail(err, EINVAL, "tier list '%s': an empty item", list);
		if ((rc = add_item(t, p, len, nodes, ids, err)))
			return rc;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static int resolve_tiers(struct ct_context *ctx, const char *list, struct ct_place *p)
{
	struct ct_tiers t;
	int rc = ct_tiers_load(&ctx->sys, &t);

	if (rc)
		return rc;
	if (!t.count)
		rc = ct_fail(&ctx->err, EOPNOTSUPP, "this kernel shows no memory tiers (%s%s; Linux 6.1 added them): "
			     "name the nodes with --node", ctx->sys.root, "/sys/devices/virtual/memory_tiering");
	else
		rc = ct_place_tiers(&t, list, &p->nodes, &p->tiers, &ctx->err);
	ct_tiers_free(&t);
	return rc;
}

int ct_place_resolve(struct ct_context *ctx, const struct ct_place_opts *o, struct ct_place *p)
{
	int rc;

	memset(p, 0, sizeof(*p));
	if (!o->tiers == !o->nodes)
		return ct_fail(&ctx->err, EINVAL, "name the nodes one way: by tier or by node");
	if (o->tiers)
		rc = resolve_tiers(ctx, o->tiers, p);
	else if ((rc = ct_nodeset_parse(&p->nodes, o->nodes)))
		rc = ct_fail(&ctx->err, EINVAL, "node list '%s': give node numbers and ranges (0,2 or 0-3)", o->nodes);
	if (rc || (rc = ct_mpol_check_nodes(&ctx->sys, &p->nodes, &ctx->err)))
		return rc;
	p->mode = o->mode ? o->mode : CT_MPOL_PREFERRED;
	if (p->mode == CT_MPOL_PREFERRED && ct_nodeset_count(&p->nodes) > 1)
		p->mode = CT_MPOL_PREFERRED_MANY;
	if (o->weights && p->mode == CT_MPOL_WEIGHTED_INTERLEAVE) {
		if ((rc = ct_wi_read(&ctx->sys, &p->weights)))
			return rc;
		p->has_weights = true;
	}
	return 0;
}

void ct_place_free(struct ct_place *p)
{
	if (p->has_weights)
		ct_wi_free(&p->weights);
	p->has_weights = false;
}

int ct_place_apply(struct ct_context *ctx, const struct ct_place *p)
{
	return ct_mpol_set(p->mode, &p->nodes, &ctx->err);
}
