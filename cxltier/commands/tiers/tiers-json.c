// SPDX-License-Identifier: GPL-2.0-only
/* tiers-json.c - the tier model (lib/views/tier-model.h) as JSON, and the SLIT
 * distance matrix as a table */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/figures-json.h"
#include "cli/json-build.h"
#include "tiers-json.h"
#include "views/tier-model.h"

static json_object *nodeset_json(const struct ct_nodeset *s)
{
	json_object *a = json_object_new_array();
	int n;

	ct_nodeset_foreach(s, n)
		json_object_array_add(a, json_object_new_int(n));
	return a;
}

static json_object *names_json(const struct ct_names *l)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < l->n; i++)
		json_object_array_add(a, json_object_new_string(l->v[i]));
	return a;
}

/* the figures that are there (0 = absent) */
static void figures_json(json_object *x, const struct ct_access *a)
{
	if (a->read_latency)
		jb_u64(x, "read_latency_ns", a->read_latency);
	if (a->write_latency)
		jb_u64(x, "write_latency_ns", a->write_latency);
	if (a->read_bandwidth)
		jb_u64(x, "read_bandwidth_mbps", a->read_bandwidth);
	if (a->write_bandwidth)
		jb_u64(x, "write_bandwidth_mbps", a->write_bandwidth);
}

/* the figures speaking for the node, saying whose they are */
static void access_json(json_object *o, const char *key, const struct ct_tier_figures *f)
{
	json_object *x;

	if (f->source == CT_FIGURES_NONE)
		return;
	x = jb_obj(o, key);
	jb_str(x, "source", ct_access_figure_source_name(f->source));
	if (f->source == CT_FIGURES_REGION)
		jb_str(x, "region", f->region);
	else
		json_object_object_add(x, "initiators", nodeset_json(&f->initiators));
	figures_json(x, &f->acc);
	latency_check_json(x, &f->check);
}

/* the node's memory: its size, free, and zones */
static void memory_json(json_object *o, const struct ct_node *n)
{
	if (n->has_meminfo) {
		jb_u64(o, "mem_total", n->mem_total);
		jb_u64(o, "mem_free", n->mem_free);
	}
	if (n->has_zones) {
		json_object *z = jb_obj(o, "zones");
		jb_u64(z, "dma", n->zone_dma);
		jb_u64(z, "dma32", n->zone_dma32);
		jb_u64(z, "normal", n->zone_normal);
		jb_u64(z, "movable", n->zone_movable);
		if (n->zone_device)
			jb_u64(z, "device", n->zone_device);
	}
}

/* from each node to this one: its column of the SLIT, not its own row
 * (nodeN/distance is the distance from N), which differs when the
 * firmware's SLIT is asymmetric */
static void distances_json(json_object *o, const struct ct_tier_model *m, const struct ct_node *n)
{
	json_object *d = jb_arr(o, "distances");

	for (size_t j = 0; j < m->numa.count; j++) {
		int dist = ct_numa_distance(&m->numa, m->numa.nodes[j].id, n->id);
		json_object *e;
		if (dist < 0)
			continue;
		e = json_object_new_object();
		jb_int(e, "node", m->numa.nodes[j].id);
		jb_bool(e, "has_cpu", m->numa.nodes[j].has_cpu);
		jb_int(e, "distance", dist);
		json_object_array_add(d, e);
	}
}

/* the CXL devices there, their CDAT figures, the demotion targets, the rank */
static void tiering_json(json_object *o, const struct ct_tier_model *m, const struct ct_tier_node *x)
{
	if (x->has_cxl) {
		json_object *c = jb_obj(o, "cxl");
		json_object_object_add(c, "memdevs", names_json(&x->memdevs));
		json_object_object_add(c, "regions", names_json(&x->regions));
		json_object_object_add(c, "dax_devices", names_json(&x->daxes));
	}
	if (x->has_cdat) {
		json_object *c = jb_obj(o, "cdat");
		jb_str(c, "scope", "device");
		figures_json(c, &x->cdat);
	}
	if (x->has_demotion) {
		json_object_object_add(o, "demotion_targets", nodeset_json(&x->demotion_preferred));
		json_object_object_add(o, "demotion_allowed", nodeset_json(&x->demotion_allowed));
	}
	if (x->rank) {
		json_object *rk = jb_obj(o, "ranking");
		jb_int(rk, "from", m->from);
		jb_int(rk, "rank", x->rank);
		jb_double(rk, "effective_distance", (double)(int)(x->effective * 10 + 0.5) / 10);
		jb_str(rk, "source", ct_rank_source_name(x->rank_source));
		if (x->via >= 0)
			jb_int(rk, "via_node", x->via);
	}
}

/* the weight computed from the access1 figures as the kernel's auto mode
 * would, the bandwidth it came from, and the kernel's weight */
static void weight_json(json_object *o, const struct ct_tier_node *x)
{
	json_object *w;

	if (!x->wi)
		return;
	w = jb_obj(o, "weighted_interleave");
	if (x->wi_kernel)
		jb_int(w, "kernel_weight", (int)x->wi_kernel);
	jb_int(w, "computed_weight", (int)x->wi->weight);
	jb_u64(w, "bandwidth_mbps", x->wi->bandwidth);
	if (x->access[1].source != CT_FIGURES_NONE)
		jb_str(w, "bandwidth_source", ct_access_figure_source_name(x->access[1].source));
	jb_str(w, "why", ct_wi_why_name(x->wi->why));
}

static json_object *node_json(const struct ct_tier_model *m, const struct ct_tier_node *x)
{
	const struct ct_node *n = x->node;
	json_object *o = json_object_new_object();

	jb_int(o, "node", n->id);
	jb_bool(o, "has_cpu", n->has_cpu);
	jb_str(o, "cpus", n->has_cpu ? n->cpulist : "none");
	memory_json(o, n);
	if (x->tier >= 0) {
		json_object *a = jb_obj(o, "abstract_distance");
		jb_int(o, "memory_tier", x->tier);
		jb_int(a, "min", x->tier * 128);
		jb_int(a, "max", x->tier * 128 + 127);
	}
	distances_json(o, m, n);
	access_json(o, "access0", &x->access[0]);
	access_json(o, "access1", &x->access[1]);
	tiering_json(o, m, x);
	weight_json(o, x);
	return o;
}

static json_object *disagreement_json(const struct ct_tier_model *m, const struct ct_disagreement *d)
{
	json_object *o = json_object_new_object();
	char buf[256];

	if (d->kind == CT_DISAGREE_TIER)
		snprintf(buf, sizeof(buf),
			 "node%d ranks closer than node%d from node%d (%s), but the kernel puts it in a slower tier (%d > %d)",
			 d->closer, d->farther, m->from, ct_rank_source_name(d->by), d->closer_value, d->farther_value);
	else
		snprintf(buf, sizeof(buf), "node%d ranks closer than node%d from node%d (%s), but SLIT says farther (%d > %d)",
			 d->closer, d->farther, m->from, ct_rank_source_name(d->by), d->closer_value, d->farther_value);
	jb_str(o, "text", buf);
	return o;
}

json_object *tiers_json(const struct ct_tier_model *m)
{
	json_object *root = json_object_new_object(), *nodes = jb_arr(root, "nodes"), *dis, *tarr, *st;
	const struct ct_tiering_settings *set = &m->settings;

	for (size_t i = 0; i < m->count; i++)
		json_object_array_add(nodes, node_json(m, &m->nodes[i]));
	dis = jb_arr(root, "disagreements");
	for (size_t i = 0; i < m->ndis; i++)
		json_object_array_add(dis, disagreement_json(m, &m->dis[i]));
	tarr = jb_arr(root, "tiers");
	for (size_t i = 0; i < m->tiers.count; i++) {
		json_object *t = json_object_new_object();
		jb_int(t, "id", m->tiers.tier[i].id);
		jb_int(t, "abstract_distance_min", m->tiers.tier[i].id * 128);
		jb_int(t, "abstract_distance_max", m->tiers.tier[i].id * 128 + 127);
		json_object_object_add(t, "nodes", nodeset_json(&m->tiers.tier[i].nodes));
		json_object_array_add(tarr, t);
	}
	st = jb_obj(root, "settings");
	if (set->demotion_enabled >= 0)
		jb_bool(st, "demotion_enabled", set->demotion_enabled);
	if (set->numa_balancing >= 0) {
		jb_int(st, "numa_balancing", set->numa_balancing);
		jb_str(st, "numa_balancing_mode", ct_numa_balancing_name(set->numa_balancing));
	}
	if (set->promote_rate_limit_mbps >= 0)
		jb_int(st, "promote_rate_limit_mbps", set->promote_rate_limit_mbps);
	jb_int(st, "ranked_from_node", m->from);
	if (m->weights.have) {
		json_object *w = jb_obj(st, "weighted_interleave");
		jb_str(w, "mode", m->weights.kernel.auto_on ? "auto" : "manual");
		jb_bool(w, "has_auto", m->weights.kernel.has_auto);
	}
	if (!m->have_topo) {	/* what could not be read, and why: the nodes are shown without it */
		json_object *o = json_object_new_object();
		jb_str(o, "part", "cxl");
		jb_str(o, "error", m->topo_error[0] ? m->topo_error : "unknown");
		json_object_array_add(jb_arr(root, "incomplete"), o);
	}
	return root;
}

int tiers_print_matrix(struct cmd_env *env, const struct ct_tier_model *m)
{
	const struct ct_numa *numa = &m->numa;
	struct out_column *cols = calloc(numa->count + 2, sizeof(*cols));
	char (*names)[48] = calloc(numa->count + 1, sizeof(*names));
	char (*keys)[48] = calloc(numa->count + 1, sizeof(*keys));
	const char *lv[] = { "matrix", NULL };
	json_object *mroot = json_object_new_object(), *rows = jb_arr(mroot, "matrix");
	char defaults[4096] = "FROM", err[256];
	size_t nc = 0;
	int rc = EXIT_OK;

	if (!cols || !names || !keys) {
		free(cols); free(names); free(keys);
		json_object_put(mroot);
		return EXIT_FAIL;
	}
	cols[nc++] = (struct out_column){ "FROM", "from", OUT_STR, 0.1, 0, "node", NULL };
	for (int pass = 0; pass < 2; pass++)	/* CPU nodes first */
		for (size_t i = 0; i < numa->count; i++) {
			const struct ct_node *n = &numa->nodes[i];
			json_object *row, *to;
			if (n->has_cpu != (pass == 0))
				continue;
			snprintf(names[nc], sizeof(names[nc]), "node%d%s", n->id, n->has_cpu ? "" : "*");
			snprintf(keys[nc], sizeof(keys[nc]), "to.node%d", n->id);
			cols[nc] = (struct out_column){ names[nc], keys[nc], OUT_NUM, 0.1, 0, "", NULL };
			snprintf(defaults + strlen(defaults), sizeof(defaults) - strlen(defaults), ",%s", names[nc]);
			row = json_object_new_object();
			to = jb_obj(row, "to");
			jb_str(row, "from", names[nc]);
			nc++;
			for (size_t j = 0; n->distance && j < numa->count; j++) {
				char k[32];
				snprintf(k, sizeof(k), "node%d", numa->nodes[j].id);
				jb_int(to, k, n->distance[j]);
			}
			json_object_array_add(rows, row);
		}
	struct out_table mt = { lv, NULL, cols, nc, defaults };
	struct out_opts o = env->out;
	o.columns = NULL;
	if (out_print(&o, &mt, mroot, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_FAIL;
	}
	printf("(* memory-only node; SLIT distances, 10 = local)\n");
	json_object_put(mroot);
	free(cols);
	free(names);
	free(keys);
	return rc;
}
