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
 */
#include <errno.h>
#include <stdlib.h>
#include "tier-model.h"

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

/* sysfs publishes a node's figures for its best CPU initiators only: they
 * speak for `from` when it is one of them, or when the kernel named none
 * (CXL nodes: the figures come from CDAT and the generic port) */
static bool figures_for(const struct ct_node *n, int from)
{
	return n->access[1].present && n->access[1].read_latency &&
	       (ct_nodeset_has(&n->initiators[1], from) || !ct_nodeset_count(&n->initiators[1]));
}

static void rank_one(const struct ct_tier_model *m, struct ct_tier_node *x)
{
	const struct ct_node *f = ct_numa_node(&m->numa, m->from), *n = x->node;
	const struct ct_tier_figures *fig = &x->access[1];
	uint64_t local = f && figures_for(f, m->from) ? f->access[1].read_latency : 0;
	bool believable = fig->check.verdict != CT_LATENCY_LINK_PS_AS_NS;

	if (local && believable && fig->source == CT_FIGURES_NODE && figures_for(n, m->from)) {
		x->effective = 10.0 * n->access[1].read_latency / local;
		x->rank_source = CT_RANK_HMAT;
	} else if (local && believable && fig->source == CT_FIGURES_REGION && fig->acc.read_latency) {
		x->effective = 10.0 * fig->acc.read_latency / local;
		x->rank_source = CT_RANK_REGION;
	} else if (local && x->has_cdat && x->cdat.read_latency) {
		x->effective = 10.0 * (local + x->cdat.read_latency) / local;
		x->rank_source = CT_RANK_CDAT_LOCAL;
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
