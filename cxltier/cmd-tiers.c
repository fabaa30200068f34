// SPDX-License-Identifier: GPL-2.0-only
/* cmd-tiers.c - `cxltier tiers`: every memory node with its tier and its
 * distance from every source the kernel has (SLIT, HMAT/CXL access figures,
 * CDAT), the demotion targets, and the tiering settings (the model:
 * lib/views/tier-model.h; its JSON: tiers-json.c) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "tiers-json.h"
#include "core/context.h"
#include "views/tier-model.h"

static void fmt_zones(json_object *rec, char *buf, size_t len);
static void fmt_dist(json_object *rec, char *buf, size_t len);
static void fmt_by(json_object *rec, char *buf, size_t len);
static void fmt_adist(json_object *rec, char *buf, size_t len);
static void fmt_cxl(json_object *rec, char *buf, size_t len);
static void fmt_figs(json_object *rec, char *buf, size_t len);

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
	{ "FIGS", "access0.source", OUT_STR, 0.1, 0,
	  "whose access figures: node, or region (a CXL node the kernel gave none); * the latency is the 6.12 link-latency bug", fmt_figs },
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
	{ "BY", "ranking.source", OUT_STR, 0.1, 0,
	  "what decided it: hmat, region, cdat+local, slit; +hop:nodeN: figures for node N, its SLIT hop added", fmt_by },
};
static const struct out_table table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
	"NODE,CPUS,SIZE,ZONES,TIER,SLIT,FIGS,RD-LAT,RD-BW,CXL,CDAT-LAT,CDAT-BW,DEMOTES-TO,RANK,BY",
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

/* "3" or "node3"; -1 when neither */
static int parse_node(const char *arg)
{
	const char *num = !strncmp(arg, "node", 4) ? arg + 4 : arg;
	char *end;
	long v;

	if (*num < '0' || *num > '9')
		return -1;
	v = strtol(num, &end, 10);
	return *end || v > 1 << 20 ? -1 : (int)v;
}

/* after the nodes: the settings, the disagreements, a missing tiering */
static void print_more(struct cmd_env *env, json_object *root, size_t ntiers)
{
	struct out_opts o = env->out;
	char err[256];

	json_object *nodes = out_lookup(root, "nodes");
	bool bug = false;

	for (size_t i = 0; i < json_object_array_length(nodes); i++)
		bug |= latency_bug(json_object_array_get_idx(nodes, i));
	if (bug)
		printf("* the kernel counts the PCIe link latency in ps as ns (Linux 6.12): ranked without its latency\n");
	o.columns = NULL;
	printf("\n");
	out_print(&o, &stable, root, err, sizeof(err));
	if (json_object_array_length(out_lookup(root, "disagreements"))) {
		printf("\n");
		out_print(&o, &dtable, root, err, sizeof(err));
	}
	if (!ntiers)
		fprintf(stderr, "cxltier tiers: this kernel has no memory tiers (memory_tiering: 6.1 and later)\n");
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
	struct ct_tier_model m;
	bool matrix = false;
	const char *from_arg = NULL;
	json_object *root = NULL;
	char err[256];
	int c, rc, from = -1;

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
	if (from_arg && (from = parse_node(from_arg)) < 0) {
		cmd_err(env, "--from %s: no such online NUMA node", from_arg);
		return EXIT_USAGE;
	}
	if ((rc = cmd_context(env)))
		return rc;
	rc = ct_tier_model_load(env->ctx, from, &m);
	if (rc == -ENODEV) {
		cmd_err(env, "--from %s: no such online NUMA node", from_arg);
		return EXIT_USAGE;
	}
	if (rc) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return rc == -EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL;
	}
	if (!m.have_topo)
		cmd_info(env, 1, "no CXL topology: %s", m.topo_error);
	for (size_t i = 0; i < m.count; i++)
		for (size_t k = 0; k < m.nodes[i].no_cdat.n; k++)
			cmd_info(env, 1, "no CDAT figures for %s (not root, or no CDAT)", m.nodes[i].no_cdat.v[k]);
	if (matrix && !env->out.json) {
		rc = tiers_print_matrix(env, &m);
		goto out;
	}
	root = tiers_json(&m);
	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	if (!env->out.json)
		print_more(env, root, m.tiers.count);
	rc = EXIT_OK;
out:
	json_object_put(root);
	ct_tier_model_free(&m);
	return rc;
}
