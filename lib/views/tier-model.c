// SPDX-License-Identifier: LGPL-2.1-or-later
/* tier-model.c - memory nodes with tiers, CXL devices and CDAT, demotion
 * targets: see tier-model.h (the ranking: tier-rank.c) */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "cxl/cdat-source.h"
#include "core/context.h"
#include "core/kernel.h"
#include "mm/access.h"
#include "views/tier-model.h"

static int names_add(struct ct_names *l, const char *name)
{
	char (*nv)[CT_NAME] = realloc(l->v, (l->n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	l->v = nv;
	ct_strlcpy(l->v[l->n++], name, CT_NAME);
	return 0;
}

static void names_free(struct ct_names *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* the CXL regions whose dax devices put memory on the node, their memdevs
 * and those memdevs' CDAT figures */
static int add_cxl(struct ct_context *ctx, const struct ct_topology *topo, struct ct_tier_node *x)
{
	int node = x->node->id, rc = 0;

	for (size_t i = 0; topo && !rc && i < topo->nregions; i++) {
		const struct ct_region *r = &topo->regions[i];
		bool here = false;
		for (size_t d = 0; !rc && d < r->ndax; d++)
			if (r->dax[d].target_node == node) {
				here = x->has_cxl = true;
				rc = names_add(&x->daxes, r->dax[d].name);
			}
		if (!here || rc || (rc = names_add(&x->regions, r->name)))
			continue;
		for (unsigned k = 0; !rc && k < r->ntargets; k++) {
			if (!r->targets[k][0])	/* an empty position */
				continue;
			const struct ct_memdev *md = ct_topology_memdev(topo, r->memdevs[k]);
			struct ct_access p;
			rc = names_add(&x->memdevs, r->memdevs[k]);
			if (rc)
				break;
			if (!md || !ct_cdat_endpoint_perf(ctx, md->endpoint, &p)) {
				rc = names_add(&x->no_cdat, r->memdevs[k]);
				continue;
			}
			/* an interleaved region is as slow as its slowest member */
			if (!x->has_cdat || p.read_latency > x->cdat.read_latency)
				x->cdat.read_latency = p.read_latency;
			if (!x->has_cdat || p.write_latency > x->cdat.write_latency)
				x->cdat.write_latency = p.write_latency;
			x->cdat.read_bandwidth += p.read_bandwidth;
			x->cdat.write_bandwidth += p.write_bandwidth;
			x->has_cdat = x->cdat.present = true;
		}
	}
	return rc ? ct_fail(&ctx->err, ENOMEM, "out of memory") : 0;
}

/* the initiator's own read latency for CPUs, 0 when it has none */
static uint64_t local_latency(const struct ct_tier_model *m)
{
	const struct ct_node *f = ct_numa_node(&m->numa, m->from);

	return f && f->access[1].present ? f->access[1].read_latency : 0;
}

/* the node's figures, or for a CXL node without any its first region's
 * that has them; CXL figures checked against CDAT */
static void pick_figures(struct ct_context *ctx, const struct ct_tier_model *m,
			 struct ct_tier_node *x)
{
	for (int a = 0; a < 2; a++) {
		struct ct_tier_figures *f = &x->access[a];
		struct ct_access region = { 0 };
		size_t i;

		for (i = 0; i < x->regions.n; i++) {
			if (ct_region_access(&ctx->sys, x->regions.v[i], a, &region) == 0 && region.present)
				break;
			memset(&region, 0, sizeof(region));
		}
		ct_error_clear(&ctx->err);
		f->source = ct_access_figure_source(&x->node->access[a], &region);
		if (f->source == CT_FIGURES_NODE) {
			f->acc = x->node->access[a];
			f->initiators = x->node->initiators[a];
		} else if (f->source == CT_FIGURES_REGION) {
			f->acc = region;
			ct_strlcpy(f->region, x->regions.v[i], sizeof(f->region));
		}
		if (x->has_cxl && f->source != CT_FIGURES_NONE)
			ct_kernel_check_latency(f->acc.read_latency, x->has_cdat ? x->cdat.read_latency : 0,
						local_latency(m), &f->check);
	}
}

static int numa_distance_cb(const void *numa, int from, int to)
{
	return ct_numa_distance(numa, from, to);
}

static bool numa_has_cpu_cb(const void *numa, int node)
{
	const struct ct_node *n = ct_numa_node(numa, node);

	return n && n->has_cpu;
}

static const struct ct_tier_node_info numa_info = { numa_distance_cb, numa_has_cpu_cb };

/* the node this process runs on (live), else the first CPU node */
static int caller_node(const struct ct_numa *numa, bool live)
{
	unsigned cpu, node;

	if (live && getcpu(&cpu, &node) == 0 && ct_numa_node(numa, (int)node))
		return (int)node;
	for (size_t i = 0; i < numa->count; i++)
		if (numa->nodes[i].has_cpu)
			return numa->nodes[i].id;
	return numa->count ? numa->nodes[0].id : 0;
}

static int load_nodes(struct ct_context *ctx, struct ct_tier_model *m)
{
	m->nodes = calloc(m->numa.count ? m->numa.count : 1, sizeof(*m->nodes));
	if (!m->nodes)
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	for (size_t i = 0; i < m->numa.count; i++) {
		const struct ct_node *n = &m->numa.nodes[i];
		struct ct_tier_node *x;
		int rc;

		if (!n->has_memory && !n->mem_total)
			continue;	/* a CPU-only node holds no memory to tier */
		x = &m->nodes[m->count++];
		x->node = n;
		x->tier = ct_tiers_of_node(&m->tiers, n->id);
		x->slit = ct_numa_distance(&m->numa, m->from, n->id);
		rc = add_cxl(ctx, m->have_topo ? &m->topo : NULL, x);
		if (rc)
			return rc;
		pick_figures(ctx, m, x);
		x->has_demotion = ct_tiers_demotion_targets(&m->tiers, n->id, &numa_info, &m->numa,
							    &x->demotion_preferred, &x->demotion_allowed) > 0;
	}
	return 0;
}

int ct_tier_model_load(struct ct_context *ctx, int from, struct ct_tier_model *m)
{
	int rc;

	memset(m, 0, sizeof(*m));
	if ((rc = ct_kernel_has_numa(ctx)) < 0)
		return rc;
	if (!rc)
		return ct_fail(&ctx->err, EOPNOTSUPP,
			       "this kernel has no NUMA node information (/sys/devices/system/node: CONFIG_NUMA off?)");
	rc = ct_numa_load(&ctx->sys, &m->numa);
	if (!rc)
		rc = ct_tiers_load(&ctx->sys, &m->tiers);
	if (rc)
		goto fail;
	m->have_topo = ct_topology_load(ctx, &m->topo) == 0;
	if (!m->have_topo) {
		ct_strlcpy(m->topo_error, ct_context_message(ctx), sizeof(m->topo_error));
		ct_error_clear(&ctx->err);
	}
	if (from >= 0 && !ct_numa_node(&m->numa, from)) {
		rc = ct_fail(&ctx->err, ENODEV, "node %d is not an online NUMA node", from);
		goto fail;
	}
	m->from = from >= 0 ? from : caller_node(&m->numa, ctx->live);
	rc = load_nodes(ctx, m);
	if (!rc && ct_tier_rank(m))
		rc = ct_fail(&ctx->err, ENOMEM, "out of memory");
	if (!rc)
		rc = ct_tier_weights_load(ctx, m);
	if (rc)
		goto fail;
	ct_tiering_settings_read(&ctx->sys, &m->settings);
	return 0;
fail:
	ct_tier_model_free(m);
	return rc;
}

void ct_tier_model_free(struct ct_tier_model *m)
{
	for (size_t i = 0; i < m->count; i++) {
		names_free(&m->nodes[i].memdevs);
		names_free(&m->nodes[i].regions);
		names_free(&m->nodes[i].daxes);
		names_free(&m->nodes[i].no_cdat);
	}
	ct_tier_weights_free(&m->weights);
	free(m->nodes);
	free(m->dis);
	if (m->have_topo)
		ct_topology_free(&m->topo);
	ct_tiers_free(&m->tiers);
	ct_numa_free(&m->numa);
	memset(m, 0, sizeof(*m));
}
