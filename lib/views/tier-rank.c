// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tier-rank.c - nodes ranked by effective distance from an initiator, on
 * the SLIT scale (10 = local), and where that ranking, SLIT and the
 * kernel's tiers disagree (see tier-model.h):
 *  hmat: 10 x latency / local latency, when the node and the initiator's
 *        own node both have access figures for CPUs;
 *  region: the same with the region's figures, for a CXL node the kernel
 *        published none for (7.x);
 *  cdat+local: for CXL nodes without them, the device's CDAT latency added
 *        to the local latency (the host path is assumed to cost what local
 *        DRAM does: a lower bound);
 *  slit: the SLIT distance otherwise.
 * Kernel figures whose latency is the 6.12 link-latency bug are skipped.
 * Figures that name no initiator (those the CXL driver computes, region
 * figures) and CDAT hold for the CPU nodes nearest the memory: the kernel
 * takes the generic port's figures to its closest CPU. From a node farther
 * away they are used with the SLIT hop to the nearest of those nodes added
 * (on the SLIT scale: distance(from, via) - distance(via, via)).
 */
#include <errno.h>
#include <stdlib.h>
#include "views/tier-model.h"

const char *ct_rank_source_name(enum ct_rank_source s)
{
	switch (s) {
	case CT_RANK_HMAT: return "hmat";
	case CT_RANK_REGION: return "region";
	case CT_RANK_CDAT_LOCAL: return "cdat+local";
	case CT_RANK_SLIT: return "slit";
	default: return NULL;
	}
}

/* figures for CPU initiators that the kernel published with their
 * initiator nodes named */
static bool linked_figures(const struct ct_node *n)
{
	return n->access[1].present && n->access[1].read_latency && ct_nodeset_count(&n->initiators[1]);
}

/*
 * Figures that name no initiator speak for the CPU nodes nearest the memory
 * node mem. From `from`: false when that cannot be bridged (no SLIT from it
 * to any of them); else true, with *hop the extra SLIT distance on the way
 * (0 when from is one of them, or when no CPU node's distance is known) and
 * *via the nearest node reached through (-1: none).
 */
static bool reach_nearest_cpu(const struct ct_numa *numa, int from, int mem, double *hop, int *via)
{
	int best = -1, self;

	*hop = 0;
	*via = -1;
	for (size_t i = 0; i < numa->count; i++) {
		int d = numa->nodes[i].has_cpu ? ct_numa_distance(numa, numa->nodes[i].id, mem) : -1;
		if (d >= 0 && (best < 0 || d < best))
			best = d;
	}
	self = ct_numa_distance(numa, from, mem);
	if (best < 0 || (ct_numa_node(numa, from) && ct_numa_node(numa, from)->has_cpu && self == best))
		return true;
	for (size_t i = 0; i < numa->count; i++) {
		const struct ct_node *c = &numa->nodes[i];
		int to = ct_numa_distance(numa, from, c->id), own = ct_numa_distance(numa, c->id, c->id);
		if (!c->has_cpu || ct_numa_distance(numa, c->id, mem) != best || to < 0)
			continue;
		if (own < 0 || own > to)
			own = to < 10 ? to : 10;	/* the SLIT's local distance */
		if (*via < 0 || to - own < *hop) {
			*hop = to - own;
			*via = c->id;
		}
	}
	if (*via < 0)
		return false;
	if (*hop <= 0) {
		*hop = 0;	/* as near as they are: nothing added, no node named */
		*via = -1;
	}
	return true;
}

static void rank_one(const struct ct_tier_model *m, struct ct_tier_node *x)
{
	const struct ct_node *f = ct_numa_node(&m->numa, m->from), *n = x->node;
	const struct ct_tier_figures *fig = &x->access[1];
	/* the initiator's own latency: its figures name it, or name no one */
	uint64_t local = f && f->access[1].present && (ct_nodeset_has(&f->initiators[1], m->from) ||
						       !ct_nodeset_count(&f->initiators[1]))
			 ? f->access[1].read_latency : 0;
	bool believable = fig->check.verdict != CT_LATENCY_LINK_PS_AS_NS, reach;
	double hop;
	int via;

	reach = reach_nearest_cpu(&m->numa, m->from, n->id, &hop, &via);
	x->via = -1;
	if (local && believable && fig->source == CT_FIGURES_NODE && linked_figures(n)) {
		if (ct_nodeset_has(&n->initiators[1], m->from)) {
			x->effective = 10.0 * n->access[1].read_latency / local;
			x->rank_source = CT_RANK_HMAT;
			return;
		}
	} else if (local && believable && fig->source == CT_FIGURES_NODE && fig->acc.read_latency && reach) {
		x->effective = 10.0 * fig->acc.read_latency / local + hop;
		x->rank_source = CT_RANK_HMAT;
		x->via = via;
		return;
	} else if (local && believable && fig->source == CT_FIGURES_REGION && fig->acc.read_latency && reach) {
		x->effective = 10.0 * fig->acc.read_latency / local + hop;
		x->rank_source = CT_RANK_REGION;
		x->via = via;
		return;
	}
	if (local && x->has_cdat && x->cdat.read_latency && reach) {
		x->effective = 10.0 * (local + x->cdat.read_latency) / local + hop;
		x->rank_source = CT_RANK_CDAT_LOCAL;
		x->via = via;
	} else if (x->slit >= 0) {
		x->effective = x->slit;
		x->rank_source = CT_RANK_SLIT;
	} else {
		x->effective = -1;
		x->rank_source = CT_RANK_NONE;
	}
}

static int cmp_rank(const void *a, const void *b)
{
	const struct ct_tier_node *x = *(const struct ct_tier_node *const *)a;
	const struct ct_tier_node *y = *(const struct ct_tier_node *const *)b;

	if (x->effective != y->effective)
		return x->effective < y->effective ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int disagree(struct ct_tier_model *m, enum ct_disagreement_kind kind, const struct ct_tier_node *closer,
		    const struct ct_tier_node *farther, int cv, int fv)
{
	struct ct_disagreement *nd = realloc(m->dis, (m->ndis + 1) * sizeof(*nd));

	if (!nd)
		return -ENOMEM;
	m->dis = nd;
	nd[m->ndis++] = (struct ct_disagreement){ kind, closer->node->id, farther->node->id, closer->rank_source, cv, fv };
	return 0;
}

int ct_tier_rank(struct ct_tier_model *m)
{
	struct ct_tier_node **ref = calloc(m->count ? m->count : 1, sizeof(*ref));
	size_t nref = 0;
	int rc = 0;

	if (!ref)
		return -ENOMEM;
	for (size_t i = 0; i < m->count; i++) {
		rank_one(m, &m->nodes[i]);
		if (m->nodes[i].rank_source != CT_RANK_NONE)
			ref[nref++] = &m->nodes[i];
	}
	qsort(ref, nref, sizeof(*ref), cmp_rank);
	for (size_t r = 0; r < nref && !rc; r++) {
		const struct ct_tier_node *a = ref[r];
		ref[r]->rank = (int)r + 1;
		for (size_t q = r + 1; q < nref && !rc; q++) {
			const struct ct_tier_node *b = ref[q];
			if (a->tier >= 0 && b->tier >= 0 && a->tier > b->tier && a->effective < b->effective)
				rc = disagree(m, CT_DISAGREE_TIER, a, b, a->tier, b->tier);
			if (!rc && a->slit >= 0 && b->slit >= 0 && a->slit > b->slit && a->effective < b->effective)
				rc = disagree(m, CT_DISAGREE_SLIT, a, b, a->slit, b->slit);
		}
	}
	free(ref);
	return rc;
}
