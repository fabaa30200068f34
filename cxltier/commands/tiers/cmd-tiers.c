// SPDX-License-Identifier: GPL-2.0-only
/* cmd-tiers.c - `cxltier tiers`: every memory node with its tier and its
 * distance from every source the kernel has (SLIT, HMAT/CXL access figures,
 * CDAT), the demotion targets, and the tiering settings (the model:
 * lib/views/tier-model.h; its JSON: tiers-json.c; its tables: tiers-table.c) */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "tiers-json.h"
#include "tiers-table.h"
#include "core/context.h"
#include "views/tier-model.h"

struct tiers_args {
	int from;		/* the initiator node, -1: this one */
	const char *from_arg;
	bool matrix;
};

/* --from: "3" or "node3" */
static int parse_from(struct cmd_env *env, void *args, const char *arg)
{
	struct tiers_args *a = args;
	const char *num = !strncmp(arg, "node", 4) ? arg + 4 : arg;
	char *end;
	long v = -1;

	if (*num >= '0' && *num <= '9')
		v = strtol(num, &end, 10);
	if (v < 0 || *end || v > 1 << 20) {
		cmd_err(env, "--from %s: no such online NUMA node", arg);
		return EXIT_USAGE;
	}
	a->from = (int)v;
	a->from_arg = arg;
	return EXIT_OK;
}

/* what could not be read: said (the CXL topology at once: the nodes are
 * shown without their CXL sections, and the run ends 64) */
static void say_gaps(struct cmd_env *env, const struct ct_tier_model *m)
{
	if (!m->have_topo)
		cmd_warn(env, "the CXL topology could not be read (%s): the nodes are shown without their CXL devices "
			 "and CDAT figures", m->topo_error);
	for (size_t i = 0; i < m->count; i++)
		for (size_t k = 0; k < m->nodes[i].no_cdat.n; k++)
			cmd_info(env, 1, "no CDAT figures for %s (not root, or no CDAT)", m->nodes[i].no_cdat.v[k]);
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	const struct tiers_args *a = args;
	struct ct_tier_model m;
	json_object *root;
	char err[256];
	int rc = ct_tier_model_load(env->ctx, a->from, &m);

	(void)argc, (void)argv;
	if (rc == -ENODEV) {
		cmd_err(env, "--from %s: no such online NUMA node", a->from_arg);
		return EXIT_USAGE;
	}
	if (rc)
		return cmd_fail(env, rc == -EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL);
	say_gaps(env, &m);
	if (a->matrix && !env->out.json) {
		rc = tiers_print_matrix(env, &m);
		if (!rc && !m.have_topo)
			rc = EXIT_PARTIAL;
		ct_tier_model_free(&m);
		return rc;
	}
	root = tiers_json(&m);
	rc = m.have_topo ? EXIT_OK : EXIT_PARTIAL;
	if (out_print(&env->out, m.weights.have ? &tiers_nodes_wi_table : &tiers_nodes_table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	} else if (!env->out.json) {
		tiers_print_more(env, root, m.tiers.count);
	}
	json_object_put(root);
	ct_tier_model_free(&m);
	return rc;
}

#define ARG(field) offsetof(struct tiers_args, field)
static const struct cli_opt opts[] = {
	{ .name = "from", .arg = "NODE", .store = CLI_PARSE, .parse = parse_from, .complete = CLI_C_NODE,
	  .help = "rank nodes by effective distance from this initiator node\n(default: the node this command runs on)" },
	{ .name = "matrix", .store = CLI_FLAG, .offset = ARG(matrix), .help = "the SLIT distance matrix, CPU nodes first" },
	{ NULL },
};
static const struct out_table *const tables[] = { &tiers_nodes_table, NULL };
static const struct tiers_args defaults = { .from = -1 };

const struct cli_command command_tiers = {
	.name = "tiers",
	.summary = "memory nodes with their tier, distances, performance and demotion targets",
	.synopsis = "[--from NODE] [--matrix] [-j] [-o COLS] [-n] [-b]",
	.about = "Every memory node: CPUs, size, zones, memory tier and its abstract-distance band,\n"
		 "SLIT distance from each CPU node, access0/access1 latency and bandwidth (HMAT or\n"
		 "CXL-derived), the CXL devices whose memory is there with their CDAT figures, the\n"
		 "demotion targets; then the tiering settings, and where the sources disagree.",
	.notes = "JSON: {\"nodes\":[...],\"tiers\":[...],\"settings\":{...},\"disagreements\":[...]}",
	.opts = opts,
	.tables = tables,
	.args_size = sizeof(struct tiers_args),
	.args_init = &defaults,
	.operand_kind = CLI_C_NONE,
	.max_operands = 0,
	.run = run,
};
