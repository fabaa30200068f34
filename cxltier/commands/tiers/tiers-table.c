// SPDX-License-Identifier: GPL-2.0-only
/* tiers-table.c - `cxltier tiers` as tables: the nodes' columns and their
 * cells, then the settings and where the sources disagree */
#include <stdio.h>
#include <string.h>
#include "tiers-table.h"

static void fmt_zones(json_object *rec, char *buf, size_t len);
static void fmt_dist(json_object *rec, char *buf, size_t len);
static void fmt_by(json_object *rec, char *buf, size_t len);
static void fmt_adist(json_object *rec, char *buf, size_t len);
static void fmt_cxl(json_object *rec, char *buf, size_t len);
static void fmt_figs(json_object *rec, char *buf, size_t len);

static const char *const levels[] = { "nodes", NULL };
static const struct out_column columns[] = {
	{ "NODE", "node", OUT_NUM, 0.1, 0, "NUMA node", NULL },
	{ "CPUS", "cpus", OUT_STR, 0.1, OUT_TRUNC, "CPUs of the node (none: memory only)", NULL },
	{ "SIZE", "mem_total", OUT_SIZE, 0.1, 0, "memory of the node", NULL },
	{ "FREE", "mem_free", OUT_SIZE, 0.1, 0, "free memory", NULL },
	{ "ZONES", "zones", OUT_STR, 0.1, OUT_TRUNC, "present memory per zone", fmt_zones },
	{ "TIER", "memory_tier", OUT_NUM, 0.1, 0, "kernel memory tier (smaller is faster)", NULL },
	{ "ADIST", "abstract_distance", OUT_STR, 0.1, 0, "the tier's abstract-distance band", fmt_adist },
	{ "SLIT", "distances", OUT_STR, 0.1, OUT_TRUNC, "SLIT distance from each CPU node", fmt_dist },
	{ "FIGS", "access0.source", OUT_STR, 0.1, 0,
	  "whose access figures: node, or region (a CXL node the kernel gave none); * the latency is the 6.12 link-latency bug", fmt_figs },
	{ "RD-LAT", "access0.read_latency_ns", OUT_NUM, 0.1, 0, "access0 read latency (ns)", NULL },
	{ "WR-LAT", "access0.write_latency_ns", OUT_NUM, 0.1, 0, "access0 write latency (ns)", NULL },
	{ "RD-BW", "access0.read_bandwidth_mbps", OUT_NUM, 0.1, 0, "access0 read bandwidth (MB/s)", NULL },
	{ "WR-BW", "access0.write_bandwidth_mbps", OUT_NUM, 0.1, 0, "access0 write bandwidth (MB/s)", NULL },
	{ "CPU-RD-LAT", "access1.read_latency_ns", OUT_NUM, 0.1, 0, "access1 (CPU) read latency (ns)", NULL },
	{ "CPU-RD-BW", "access1.read_bandwidth_mbps", OUT_NUM, 0.1, 0, "access1 (CPU) read bandwidth (MB/s)", NULL },
	{ "CXL", "cxl", OUT_STR, 0.15, OUT_TRUNC, "CXL memdevs and regions whose memory is here", fmt_cxl },
	{ "CDAT-LAT", "cdat.read_latency_ns", OUT_NUM, 0.1, 0, "device read latency from CDAT (ns)", NULL },
	{ "CDAT-BW", "cdat.read_bandwidth_mbps", OUT_NUM, 0.1, 0, "device read bandwidth from CDAT (MB/s)", NULL },
	{ "DEMOTES-TO", "demotion_targets", OUT_STR, 0.12, OUT_TRUNC, "preferred demotion targets", NULL },
	{ "RANK", "ranking.rank", OUT_NUM, 0.1, 0, "order by effective distance from --from", NULL },
	{ "EFFECTIVE", "ranking.effective_distance", OUT_NUM, 0.1, 0, "effective distance (SLIT scale, 10 = local)", NULL },
	{ "BY", "ranking.source", OUT_STR, 0.1, OUT_TRUNC,
	  "what decided it: hmat, region, cdat+local, slit; +hop:nodeN: figures for node N, its SLIT hop added", fmt_by },
	{ "WEIGHT", "weighted_interleave.kernel_weight", OUT_NUM, 0.1, 0,
	  "the kernel's weighted-interleave weight (a default column where the kernel has them)", NULL },
	{ "CALC-WEIGHT", "weighted_interleave.computed_weight", OUT_NUM, 0.1, 0,
	  "the weight the kernel's auto mode gives this bandwidth (cxltier weights -v: the arithmetic)", NULL },
	{ "WEIGHT-BW", "weighted_interleave.bandwidth_mbps", OUT_NUM, 0.1, 0,
	  "the bandwidth the weight comes from: min of access1 read and write (MB/s)", NULL },
};
const struct out_table tiers_nodes_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
	"NODE,CPUS,SIZE,TIER,FIGS,RD-LAT,RD-BW,CXL,DEMOTES-TO,RANK",
};
/* where the kernel has weighted interleave: its weights too */
const struct out_table tiers_nodes_wi_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
	"NODE,CPUS,SIZE,TIER,FIGS,RD-LAT,RD-BW,CXL,DEMOTES-TO,RANK,WEIGHT",
};

static const char *const slevels[] = { "settings", NULL };
static const struct out_column scolumns[] = {
	{ "DEMOTION", "demotion_enabled", OUT_BOOL, 0.1, 0, "demotion in reclaim", NULL },
	{ "NUMA-BALANCING", "numa_balancing_mode", OUT_STR, 0.1, 0, "NUMA balancing mode", NULL },
	{ "PROMOTE-LIMIT-MB/S", "promote_rate_limit_mbps", OUT_NUM, 0.1, 0, "promotion rate limit", NULL },
	{ "RANKED-FROM", "ranked_from_node", OUT_NUM, 0.1, 0, "initiator node of the ranking", NULL },
	{ "WEIGHTS", "weighted_interleave.mode", OUT_STR, 0.1, 0, "weighted-interleave weights: auto or manual", NULL },
};
static const struct out_table settings_table = { slevels, NULL, scolumns, 5, "DEMOTION,NUMA-BALANCING,PROMOTE-LIMIT-MB/S,RANKED-FROM" };
static const struct out_table settings_wi_table = {
	slevels, NULL, scolumns, 5, "DEMOTION,NUMA-BALANCING,PROMOTE-LIMIT-MB/S,RANKED-FROM,WEIGHTS"
};

static void fmt_lines(json_object *rec, char *buf, size_t len);
static const char *const dlevels[] = { "disagreements", NULL };
static const struct out_column dcolumns[] = {
	{ "WHERE THE SOURCES DISAGREE", "text", OUT_STR, 0.1, OUT_WRAP, "", fmt_lines },
};
static const struct out_table disagreements_table = { dlevels, NULL, dcolumns, 1, "WHERE THE SOURCES DISAGREE" };

/* ---- cells ---- */

/* a sentence in lines of at most 76 columns, broken between words (the
 * table of notes fits 80 columns; the JSON keeps it whole) */
static void fmt_lines(json_object *rec, char *buf, size_t len)
{
	size_t line = 0;

	snprintf(buf, len, "%s", json_object_get_string(out_lookup(rec, "text")));
	for (char *w = buf, *space; *w; w = space + 1) {
		size_t n = strcspn(w, " ");
		space = w + n;
		if (line && line + n > 76)
			w[-1] = '\n', line = 0;
		line += n + 1;
		if (!*space)
			break;
	}
}

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

static void fmt_by(json_object *rec, char *buf, size_t len)
{
	json_object *src = out_lookup(rec, "ranking.source"), *via = out_lookup(rec, "ranking.via_node");

	buf[0] = '\0';
	if (src && via)
		snprintf(buf, len, "%s+hop:node%d", json_object_get_string(src), json_object_get_int(via));
	else if (src)
		snprintf(buf, len, "%s", json_object_get_string(src));
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

static bool latency_bug(json_object *rec)
{
	json_object *v = out_lookup(rec, "access0.latency_check.verdict");

	return v && !strcmp(json_object_get_string(v), "link_latency_ps_as_ns");
}

static void fmt_figs(json_object *rec, char *buf, size_t len)
{
	json_object *s = out_lookup(rec, "access0.source");

	snprintf(buf, len, "%s%s", s ? json_object_get_string(s) : "", latency_bug(rec) ? "*" : "");
}

/* after the nodes, in the full table only (the rows alone with -o, -n,
 * -r, -P): the footnote, the settings, the disagreements; a missing
 * tiering said on stderr */
void tiers_print_more(struct cmd_env *env, json_object *root, size_t ntiers)
{
	struct out_opts o = env->out;
	char err[256];
	json_object *nodes = out_lookup(root, "nodes");
	bool bug = false;

	for (size_t i = 0; i < json_object_array_length(nodes); i++)
		bug |= latency_bug(json_object_array_get_idx(nodes, i));
	if (!ntiers)
		fprintf(stderr, "cxltier tiers: this kernel has no memory tiers (memory_tiering: 6.1 and later)\n");
	if (!out_full_view(&env->out))
		return;
	if (bug)
		printf("* Linux 6.12 counts the link latency in ps as ns: ranked without its latency\n");
	o.all = false;
	printf("\n");
	out_print(&o, out_lookup(root, "settings.weighted_interleave") ? &settings_wi_table : &settings_table,
		  root, err, sizeof(err));
	if (json_object_array_length(out_lookup(root, "disagreements"))) {
		printf("\n");
		out_print(&o, &disagreements_table, root, err, sizeof(err));
	}
}
