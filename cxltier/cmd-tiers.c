// SPDX-License-Identifier: GPL-2.0-only
/* cmd-tiers.c - `cxltier tiers`: every memory node with its tier and its
 * distance from every source the kernel has (SLIT, HMAT/CXL access figures,
 * CDAT), the demotion targets, and the tiering settings */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "json-build.h"
#include "../lib/cdat.h"
#include "../lib/context.h"
#include "../lib/numa.h"
#include "../lib/tiers.h"
#include "../lib/topology.h"

static void fmt_zones(json_object *rec, char *buf, size_t len);
static void fmt_dist(json_object *rec, char *buf, size_t len);
static void fmt_adist(json_object *rec, char *buf, size_t len);
static void fmt_cxl(json_object *rec, char *buf, size_t len);

static const char *const levels[] = { "nodes", NULL };
static const struct out_column columns[] = {
	{ "NODE", "node", OUT_NUM, 0.1, 0, "NUMA node", NULL },
	{ "CPUS", "cpus", OUT_STR, 0.1, 0, "CPUs of the node (none: memory only)", NULL },
	{ "SIZE", "mem_total", OUT_SIZE, 0.1, 0, "memory of the node", NULL },
	{ "FREE", "mem_free", OUT_SIZE, 0.1, 0, "free memory", NULL },
	{ "ZONES", "zones", OUT_STR, 0.1, 0, "present memory per zone", fmt_zones },
	{ "TIER", "memory_tier", OUT_NUM, 0.1, 0, "kernel memory tier (smaller is faster)", NULL },
	{ "ADIST", "abstract_distance", OUT_STR, 0.1, 0, "the tier's abstract-distance band", fmt_adist },
	{ "SLIT", "distances", OUT_STR, 0.1, 0, "SLIT distance from each CPU node", fmt_dist },
	{ "RD-LAT", "access0.read_latency_ns", OUT_NUM, 0.1, 0, "access0 read latency (ns)", NULL },
	{ "WR-LAT", "access0.write_latency_ns", OUT_NUM, 0.1, 0, "access0 write latency (ns)", NULL },
	{ "RD-BW", "access0.read_bandwidth_mbps", OUT_NUM, 0.1, 0, "access0 read bandwidth (MB/s)", NULL },
	{ "WR-BW", "access0.write_bandwidth_mbps", OUT_NUM, 0.1, 0, "access0 write bandwidth (MB/s)", NULL },
	{ "CPU-RD-LAT", "access1.read_latency_ns", OUT_NUM, 0.1, 0, "access1 (CPU) read latency (ns)", NULL },
	{ "CPU-RD-BW", "access1.read_bandwidth_mbps", OUT_NUM, 0.1, 0, "access1 (CPU) read bandwidth (MB/s)", NULL },
	{ "CXL", "cxl", OUT_STR, 0.1, 0, "CXL memdevs and regions whose memory is here", fmt_cxl },
	{ "CDAT-LAT", "cdat.read_latency_ns", OUT_NUM, 0.1, 0, "device read latency from CDAT (ns)", NULL },
	{ "CDAT-BW", "cdat.read_bandwidth_mbps", OUT_NUM, 0.1, 0, "device read bandwidth from CDAT (MB/s)", NULL },
	{ "DEMOTES-TO", "demotion_targets", OUT_STR, 0.1, 0, "preferred demotion targets", NULL },
	{ "RANK", "ranking.rank", OUT_NUM, 0.1, 0, "order by effective distance from --from", NULL },
	{ "EFFECTIVE", "ranking.effective_distance", OUT_NUM, 0.1, 0, "effective distance (SLIT scale, 10 = local)", NULL },
	{ "BY", "ranking.source", OUT_STR, 0.1, 0, "what decided it: hmat, cdat+local, slit", NULL },
};
static const struct out_table table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
	"NODE,CPUS,SIZE,ZONES,TIER,SLIT,RD-LAT,RD-BW,CXL,CDAT-LAT,CDAT-BW,DEMOTES-TO,RANK,BY",
};

static const char *const slevels[] = { "settings", NULL };
static const struct out_column scolumns[] = {
	{ "DEMOTION", "demotion_enabled", OUT_BOOL, 0.1, 0, "demotion in reclaim", NULL },
	{ "NUMA-BALANCING", "numa_balancing_mode", OUT_STR, 0.1, 0, "NUMA balancing mode", NULL },
	{ "PROMOTE-LIMIT-MB/S", "promote_rate_limit_mbps", OUT_NUM, 0.1, 0, "promotion rate limit", NULL },
	{ "RANKED-FROM", "ranked_from_node", OUT_NUM, 0.1, 0, "initiator node of the ranking", NULL },
};
static const struct out_table stable = { slevels, NULL, scolumns, 4, "DEMOTION,NUMA-BALANCING,PROMOTE-LIMIT-MB/S,RANKED-FROM" };

static const char *const dlevels[] = { "disagreements", NULL };
static const struct out_column dcolumns[] = {
	{ "WHERE THE SOURCES DISAGREE", "text", OUT_STR, 0.1, 0, "", NULL },
};
static const struct out_table dtable = { dlevels, NULL, dcolumns, 1, "WHERE THE SOURCES DISAGREE" };

static void usage(void)
{
	printf("usage: cxltier tiers [--from NODE] [--matrix] [-j] [-o COLS] [-n] [-b]\n\n"
	       "Every memory node: CPUs, size, zones, memory tier and its abstract-distance band,\n"
	       "SLIT distance from each CPU node, access0/access1 latency and bandwidth (HMAT or\n"
	       "CXL-derived), the CXL devices whose memory is there with their CDAT figures, the\n"
	       "demotion targets; then the tiering settings, and where the sources disagree.\n\n"
	       "      --from NODE   rank nodes by effective distance from this initiator node\n"
	       "                    (default: the node this command runs on)\n"
	       "      --matrix      the SLIT distance matrix, CPU nodes first\n"
	       "  -j, --json        {\"nodes\":[...],\"tiers\":[...],\"settings\":{...},\"disagreements\":[...]}\n"
	       "  -o, -n, -b, -v, --sysroot DIR   as for every command\n");
	out_columns_help(&table);
}

/* ---- cells ---- */

static void fmt_zones(json_object *rec, char *buf, size_t len)
{
	json_object *z = out_lookup(rec, "zones");
	size_t off = 0;

	buf[0] = '\0';
	if (!z)
		return;
	json_object_object_foreach(z, k, v) {
		char hs[32];
		uint64_t b = json_object_get_uint64(v);
		if (!b || off >= len)
			continue;
		off += snprintf(buf + off, len - off, "%s%s:%s", off ? "," : "", k, out_human_size(b, hs, sizeof(hs)));
	}
}

static void fmt_dist(json_object *rec, char *buf, size_t len)
{
	json_object *d = out_lookup(rec, "distances");
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; d && i < json_object_array_length(d) && off < len; i++) {
		json_object *e = json_object_array_get_idx(d, i), *cpu;
		if (!json_object_object_get_ex(e, "has_cpu", &cpu) || !json_object_get_boolean(cpu))
			continue;
		off += snprintf(buf + off, len - off, "%s%d:%d", off ? "," : "",
				json_object_get_int(out_lookup(e, "node")), json_object_get_int(out_lookup(e, "distance")));
	}
}

static void fmt_adist(json_object *rec, char *buf, size_t len)
{
	json_object *a = out_lookup(rec, "abstract_distance.min"), *b = out_lookup(rec, "abstract_distance.max");

	buf[0] = '\0';
	if (a && b)
		snprintf(buf, len, "%d-%d", json_object_get_int(a), json_object_get_int(b));
}

static void fmt_cxl(json_object *rec, char *buf, size_t len)
{
	json_object *m = out_lookup(rec, "cxl.memdevs"), *r = out_lookup(rec, "cxl.regions");
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; m && i < json_object_array_length(m) && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", off ? "," : "", json_object_get_string(json_object_array_get_idx(m, i)));
	for (size_t i = 0; r && i < json_object_array_length(r) && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", off ? "," : "", json_object_get_string(json_object_array_get_idx(r, i)));
}

/* ---- building ---- */

static int numa_distance_cb(const void *ctx, int from, int to)
{
	return ct_numa_distance(ctx, from, to);
}

static json_object *nodeset_json(const struct ct_nodeset *s)
{
	json_object *a = json_object_new_array();
	int n;

	ct_nodeset_foreach(s, n)
		json_object_array_add(a, json_object_new_int(n));
	return a;
}

static void access_json(json_object *o, const char *key, const struct ct_access *a, const struct ct_nodeset *ini)
{
	json_object *x;

	if (!a->present)
		return;
	x = jb_obj(o, key);
	json_object_object_add(x, "initiators", nodeset_json(ini));
	if (a->read_latency)
		jb_u64(x, "read_latency_ns", a->read_latency);
	if (a->write_latency)
		jb_u64(x, "write_latency_ns", a->write_latency);
	if (a->read_bandwidth)
		jb_u64(x, "read_bandwidth_mbps", a->read_bandwidth);
	if (a->write_bandwidth)
		jb_u64(x, "write_bandwidth_mbps", a->write_bandwidth);
}

/* CDAT device figures of one memdev, read from its endpoint; false when unreadable */
static bool memdev_cdat(struct ct_context *ctx, const struct ct_memdev *m, struct ct_access *perf)
{
	char path[256];
	uint8_t *buf;
	size_t len;
	struct cdat_table t;
	struct ct_error derr;
	bool ok = false;

	if (!m || !m->endpoint[0])
		return false;
	if (ct_sysfs_read_bin(&ctx->sys, ct_path(path, sizeof(path), "/sys/bus/cxl/devices/%s/CDAT", m->endpoint),
			      &buf, &len)) {
		ct_error_clear(&ctx->err);
		return false;
	}
	if (cdat_decode(buf, len, &t, &derr) == 0)
		ok = cdat_volatile_perf(&t, perf);
	cdat_free(&t);
	free(buf);
	return ok;
}

struct node_extra {
	bool has_cdat;
	struct ct_access cdat;		/* worst figures of the devices on the node */
	double effective;		/* ranking value, SLIT scale */
	const char *source;
};

static void add_cxl(struct cmd_env *env, json_object *o, const struct ct_topology *topo, int node,
		    struct node_extra *x)
{
	json_object *cxl = NULL, *mds = NULL, *regs = NULL, *daxes = NULL;

	for (size_t i = 0; topo && i < topo->nregions; i++) {
		const struct ct_region *r = &topo->regions[i];
		bool here = false;
		for (size_t d = 0; d < r->ndax; d++)
			if (r->dax[d].target_node == node) {
				here = true;
				if (!cxl) {
					cxl = jb_obj(o, "cxl");
					mds = jb_arr(cxl, "memdevs");
					regs = jb_arr(cxl, "regions");
					daxes = jb_arr(cxl, "dax_devices");
				}
				json_object_array_add(daxes, json_object_new_string(r->dax[d].name));
			}
		if (!here)
			continue;
		json_object_array_add(regs, json_object_new_string(r->name));
		for (unsigned k = 0; k < r->ntargets; k++) {
			struct ct_access p;
			json_object_array_add(mds, json_object_new_string(r->memdevs[k]));
			if (!memdev_cdat(env->ctx, ct_topology_memdev(topo, r->memdevs[k]), &p)) {
				cmd_info(env, 1, "no CDAT figures for %s (not root, or no CDAT)", r->memdevs[k]);
				continue;
			}
			/* an interleaved region is as slow as its slowest member */
			if (!x->has_cdat || p.read_latency > x->cdat.read_latency)
				x->cdat.read_latency = p.read_latency;
			if (!x->has_cdat || p.write_latency > x->cdat.write_latency)
				x->cdat.write_latency = p.write_latency;
			x->cdat.read_bandwidth += p.read_bandwidth;
			x->cdat.write_bandwidth += p.write_bandwidth;
			x->has_cdat = true;
		}
	}
	if (x->has_cdat) {
		json_object *c = jb_obj(o, "cdat");
		jb_str(c, "scope", "device");
		if (x->cdat.read_latency)
			jb_u64(c, "read_latency_ns", x->cdat.read_latency);
		if (x->cdat.write_latency)
			jb_u64(c, "write_latency_ns", x->cdat.write_latency);
		if (x->cdat.read_bandwidth)
			jb_u64(c, "read_bandwidth_mbps", x->cdat.read_bandwidth);
		if (x->cdat.write_bandwidth)
			jb_u64(c, "write_bandwidth_mbps", x->cdat.write_bandwidth);
	}
}

/*
 * Effective distance from the initiator, on the SLIT scale (10 = local):
 *  hmat: 10 x latency / local latency, when the node and the initiator's
 *        own node both have access figures for CPUs;
 *  cdat+local: for CXL nodes without them, the device's CDAT latency added
 *        to the local latency (the host path is assumed to cost what local
 *        DRAM does: a lower bound);
 *  slit: the SLIT distance otherwise.
 */
/* sysfs publishes a node's figures for its best CPU initiators only: they
 * speak for `from` when it is one of them, or when the kernel named none
 * (CXL nodes: the figures come from CDAT and the generic port) */
static bool figures_for(const struct ct_node *n, int from)
{
	return n->access[1].present && n->access[1].read_latency &&
	       (ct_nodeset_has(&n->initiators[1], from) || !ct_nodeset_count(&n->initiators[1]));
}

static void rank_one(const struct ct_numa *numa, int from, const struct ct_node *n, struct node_extra *x)
{
	const struct ct_node *f = ct_numa_node(numa, from);
	uint64_t local = f && figures_for(f, from) ? f->access[1].read_latency : 0;
	int d = ct_numa_distance(numa, from, n->id);

	if (local && figures_for(n, from)) {
		x->effective = 10.0 * n->access[1].read_latency / local;
		x->source = "hmat";
	} else if (local && x->has_cdat && x->cdat.read_latency) {
		x->effective = 10.0 * (local + x->cdat.read_latency) / local;
		x->source = "cdat+local";
	} else if (d >= 0) {
		x->effective = d;
		x->source = "slit";
	} else {
		x->effective = -1;
		x->source = NULL;
	}
}

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

struct rank_ref {
	int idx;
	double eff;
	int tier;
	int slit;
};

static int cmp_rank(const void *a, const void *b)
{
	const struct rank_ref *x = a, *y = b;

	if (x->eff != y->eff)
		return x->eff < y->eff ? -1 : 1;
	return x->idx - y->idx;
}

static void disagree(json_object *arr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void disagree(json_object *arr, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	json_object *o = json_object_new_object();

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	jb_str(o, "text", buf);
	json_object_array_add(arr, o);
}

static json_object *build(struct cmd_env *env, const struct ct_numa *numa, const struct ct_tiers *tiers,
			  const struct ct_topology *topo, int from)
{
	json_object *root = json_object_new_object(), *nodes = jb_arr(root, "nodes"), *tarr, *st, *dis;
	struct node_extra *x = calloc(numa->count ? numa->count : 1, sizeof(*x));
	struct rank_ref *ref = calloc(numa->count ? numa->count : 1, sizeof(*ref));
	struct ct_tiering_settings set;
	size_t nref = 0;

	for (size_t i = 0; x && ref && i < numa->count; i++) {
		const struct ct_node *n = &numa->nodes[i];
		json_object *o, *d;
		struct ct_nodeset pref, allowed;
		int tier = ct_tiers_of_node(tiers, n->id);

		if (!n->has_memory && !n->mem_total)
			continue;	/* a CPU-only node holds no memory to tier */
		o = json_object_new_object();
		jb_int(o, "node", n->id);
		jb_bool(o, "has_cpu", n->has_cpu);
		jb_str(o, "cpus", n->has_cpu ? n->cpulist : "none");
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
		if (tier >= 0) {
			json_object *a = jb_obj(o, "abstract_distance");
			jb_int(o, "memory_tier", tier);
			jb_int(a, "min", tier * 128);
			jb_int(a, "max", tier * 128 + 127);
		}
		d = jb_arr(o, "distances");
		for (size_t j = 0; n->distance && j < numa->count; j++) {
			json_object *e = json_object_new_object();
			jb_int(e, "node", numa->nodes[j].id);
			jb_bool(e, "has_cpu", numa->nodes[j].has_cpu);
			jb_int(e, "distance", n->distance[j]);
			json_object_array_add(d, e);
		}
		access_json(o, "access0", &n->access[0], &n->initiators[0]);
		access_json(o, "access1", &n->access[1], &n->initiators[1]);
		add_cxl(env, o, topo, n->id, &x[i]);
		if (ct_tiers_demotion_targets(tiers, n->id, numa_distance_cb, numa, &pref, &allowed)) {
			json_object_object_add(o, "demotion_targets", nodeset_json(&pref));
			json_object_object_add(o, "demotion_allowed", nodeset_json(&allowed));
		}
		rank_one(numa, from, n, &x[i]);
		if (x[i].source) {
			ref[nref].idx = (int)i;
			ref[nref].eff = x[i].effective;
			ref[nref].tier = tier;
			ref[nref].slit = ct_numa_distance(numa, from, n->id);
			nref++;
		}
		json_object_array_add(nodes, o);
	}
	/* ranks, then where SLIT, the effective distance and the tiers disagree */
	qsort(ref, nref, sizeof(*ref), cmp_rank);
	dis = jb_arr(root, "disagreements");
	for (size_t r = 0; r < nref; r++) {
		const struct ct_node *n = &numa->nodes[ref[r].idx];
		for (size_t k = 0; k < json_object_array_length(nodes); k++) {
			json_object *o = json_object_array_get_idx(nodes, k), *rk;
			if (json_object_get_int(out_lookup(o, "node")) != n->id)
				continue;
			rk = jb_obj(o, "ranking");
			jb_int(rk, "from", from);
			jb_int(rk, "rank", (int)r + 1);
			jb_double(rk, "effective_distance", (double)(int)(ref[r].eff * 10 + 0.5) / 10);
			jb_str(rk, "source", x[ref[r].idx].source);
		}
		for (size_t q = r + 1; q < nref; q++) {
			const struct ct_node *m = &numa->nodes[ref[q].idx];
			if (ref[r].tier >= 0 && ref[q].tier >= 0 && ref[r].tier > ref[q].tier && ref[r].eff < ref[q].eff)
				disagree(dis, "node%d ranks closer than node%d from node%d (%s), but the kernel puts it in a slower tier (%d > %d)",
					 n->id, m->id, from, x[ref[r].idx].source, ref[r].tier, ref[q].tier);
			if (ref[r].slit >= 0 && ref[q].slit >= 0 && ref[r].slit > ref[q].slit && ref[r].eff < ref[q].eff)
				disagree(dis, "node%d ranks closer than node%d from node%d (%s), but SLIT says farther (%d > %d)",
					 n->id, m->id, from, x[ref[r].idx].source, ref[r].slit, ref[q].slit);
		}
	}
	tarr = jb_arr(root, "tiers");
	for (size_t i = 0; i < tiers->count; i++) {
		json_object *t = json_object_new_object();
		jb_int(t, "id", tiers->tier[i].id);
		jb_int(t, "abstract_distance_min", tiers->tier[i].id * 128);
		jb_int(t, "abstract_distance_max", tiers->tier[i].id * 128 + 127);
		json_object_object_add(t, "nodes", nodeset_json(&tiers->tier[i].nodes));
		json_object_array_add(tarr, t);
	}
	ct_tiering_settings_read(&env->ctx->sys, &set);
	st = jb_obj(root, "settings");
	if (set.demotion_enabled >= 0)
		jb_bool(st, "demotion_enabled", set.demotion_enabled);
	if (set.numa_balancing >= 0) {
		jb_int(st, "numa_balancing", set.numa_balancing);
		jb_str(st, "numa_balancing_mode", ct_numa_balancing_name(set.numa_balancing));
	}
	if (set.promote_rate_limit_mbps >= 0)
		jb_int(st, "promote_rate_limit_mbps", set.promote_rate_limit_mbps);
	jb_int(st, "ranked_from_node", from);
	free(x);
	free(ref);
	return root;
}

/* --matrix: node rows, one column per node, CPU nodes first */
static int print_matrix(struct cmd_env *env, const struct ct_numa *numa, json_object *root)
{
	struct out_column *cols = calloc(numa->count + 2, sizeof(*cols));
	char (*names)[48] = calloc(numa->count + 1, sizeof(*names));
	char (*keys)[48] = calloc(numa->count + 1, sizeof(*keys));
	const char *lv[] = { "matrix", NULL };
	json_object *mroot = json_object_new_object(), *rows = jb_arr(mroot, "matrix");
	char defaults[4096] = "FROM", err[256];
	size_t nc = 0;
	int rc = 0;

	if (!cols || !names || !keys) {
		free(cols); free(names); free(keys);
		json_object_put(mroot);
		return EXIT_FAIL;
	}
	cols[nc++] = (struct out_column){ "FROM", "from", OUT_STR, 0.1, 0, "node", NULL };
	for (int pass = 0; pass < 2; pass++)	/* CPU nodes first */
		for (size_t i = 0; i < numa->count; i++) {
			const struct ct_node *n = &numa->nodes[i];
			if (n->has_cpu != (pass == 0))
				continue;
			snprintf(names[nc], sizeof(names[nc]), "node%d%s", n->id, n->has_cpu ? "" : "*");
			snprintf(keys[nc], sizeof(keys[nc]), "to.node%d", n->id);
			cols[nc] = (struct out_column){ names[nc], keys[nc], OUT_NUM, 0.1, 0, "", NULL };
			snprintf(defaults + strlen(defaults), sizeof(defaults) - strlen(defaults), ",%s", names[nc]);
			nc++;
			json_object *row = json_object_new_object(), *to = jb_obj(row, "to");
			char label[48];
			snprintf(label, sizeof(label), "node%d%s", n->id, n->has_cpu ? "" : "*");
			jb_str(row, "from", label);
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
	(void)root;
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

int cmd_tiers(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_FROM = 0x3001, OPT_MATRIX };
	static const struct option opts[] = {
		{ "from", required_argument, NULL, OPT_FROM },
		{ "matrix", no_argument, NULL, OPT_MATRIX },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct ct_numa numa = { 0 };
	struct ct_tiers tiers = { 0 };
	struct ct_topology topo = { 0 };
	bool have_topo = false, matrix = false;
	const char *from_arg = NULL;
	json_object *root = NULL;
	char err[256];
	int c, rc, from;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		if (c == OPT_FROM)
			from_arg = optarg;
		else if (c == OPT_MATRIX)
			matrix = true;
		else if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage)))
			return cmd_exit_code(rc);
	}
	if (optind < argc) {
		cmd_err(env, "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if ((rc = cmd_context(env)))
		return rc;
	if (!ct_sysfs_exists(&env->ctx->sys, "/sys/devices/system/node/online")) {
		cmd_err(env, "this kernel has no NUMA node information (/sys/devices/system/node: CONFIG_NUMA off?)");
		return EXIT_UNSUPPORTED;
	}
	if (ct_numa_load(&env->ctx->sys, &numa) || ct_tiers_load(&env->ctx->sys, &tiers)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		rc = EXIT_FAIL;
		goto out;
	}
	have_topo = ct_topology_load(env->ctx, &topo) == 0;
	if (!have_topo)
		cmd_info(env, 1, "no CXL topology: %s", ct_context_message(env->ctx));
	if (from_arg) {
		char *end;
		const char *num = !strncmp(from_arg, "node", 4) ? from_arg + 4 : from_arg;
		from = (int)strtol(num, &end, 10);
		if (!*num || *end || !ct_numa_node(&numa, from)) {
			cmd_err(env, "--from %s: no such online NUMA node", from_arg);
			rc = EXIT_USAGE;
			goto out;
		}
	} else {
		from = caller_node(&numa, env->ctx->live);
	}
	root = build(env, &numa, &tiers, have_topo ? &topo : NULL, from);
	if (matrix && !env->out.json) {
		rc = print_matrix(env, &numa, root);
		goto out;
	}
	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	if (!env->out.json) {
		struct out_opts o = env->out;
		o.columns = NULL;
		printf("\n");
		out_print(&o, &stable, root, err, sizeof(err));
		if (json_object_array_length(out_lookup(root, "disagreements"))) {
			printf("\n");
			out_print(&o, &dtable, root, err, sizeof(err));
		}
		if (!tiers.count)
			fprintf(stderr, "cxltier tiers: this kernel has no memory tiers (memory_tiering: 6.1 and later)\n");
	}
	rc = EXIT_OK;
out:
	json_object_put(root);
	if (have_topo)
		ct_topology_free(&topo);
	ct_tiers_free(&tiers);
	ct_numa_free(&numa);
	return rc;
}
