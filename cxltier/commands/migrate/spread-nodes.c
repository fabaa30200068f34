// SPDX-License-Identifier: GPL-2.0-only
/* spread-nodes.c - the nodes and weights of `migrate --spread weighted`
 * (spread-nodes.h) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "spread-nodes.h"
#include "core/context.h"
#include "core/nodeset.h"
#include "mm/interleave-weights.h"
#include "mm/migrate.h"
#include "mm/numa.h"
#include "mm/tiers.h"

/* --nodes: a node list (0,2 or 0-1) or tiers (tier4,tier8); 0 or EXIT_USAGE */
static int parse_nodes(struct cmd_env *env, const char *arg, struct ct_nodeset *set)
{
	struct ct_tiers t;
	const char *p = arg;

	memset(set, 0, sizeof(*set));
	if (strncmp(arg, "tier", 4))
		goto list;
	if (ct_tiers_load(&env->ctx->sys, &t)) {
		ct_error_clear(&env->ctx->err);
		cmd_err(env, "--nodes %s: this kernel has no memory tiers (6.1+): give node numbers", arg);
		return EXIT_USAGE;
	}
	while (*p) {
		char *end = (char *)p;
		long id = strncmp(p, "tier", 4) ? -1 : strtol(p + 4, &end, 10);
		bool found = false;
		for (size_t i = 0; id >= 0 && end != p + 4 && (!*end || *end == ',') && i < t.count; i++)
			if (t.tier[i].id == id) {
				for (int n = 0; (n = ct_nodeset_next(&t.tier[i].nodes, n)) >= 0; n++)
					ct_nodeset_add(set, n);
				found = true;
			}
		if (!found) {
			ct_tiers_free(&t);
			cmd_err(env, "--nodes %s: no such tier (tierN, see 'cxltier tiers'), or a node list such as 0,2", arg);
			return EXIT_USAGE;
		}
		p = *end ? end + 1 : end;
	}
	ct_tiers_free(&t);
	return 0;
list:
	if (ct_nodeset_parse(set, arg) || !ct_nodeset_count(set)) {
		cmd_err(env, "--nodes %s: a node list such as 0,2 or 0-1, or tiers such as tier4,tier8", arg);
		return EXIT_USAGE;
	}
	return 0;
}

/* a node of the spread must take pages: memory online */
static int check_node(struct cmd_env *env, int n, const char *opt)
{
	if (n >= CT_MIG_MAX_NODES || !ct_node_exists(&env->ctx->sys, n)) {
		cmd_err(env, "%s: node %d does not exist", opt, n);
		return EXIT_USAGE;
	}
	if (!ct_node_has_memory(&env->ctx->sys, n)) {
		cmd_err(env, "%s: node %d has no memory online: online its memory blocks ('cxltier online'), or leave "
			"it out of the spread", opt, n);
		return EXIT_USAGE;
	}
	return 0;
}

/* the kernel's weights of the chosen nodes; 0 or an exit code */
static int kernel_weights(struct cmd_env *env, const char *nodes, unsigned *weight)
{
	struct ct_nodeset set;
	struct ct_wi_state st;
	int rc;

	if (nodes && (rc = parse_nodes(env, nodes, &set)))
		return rc;
	if ((rc = ct_wi_read(&env->ctx->sys, &st))) {
		cmd_err(env, "%s%s", ct_context_message(env->ctx),
			rc == -EOPNOTSUPP ? "; give the weights with --weights NODE=WEIGHT,..." : "");
		return rc == -EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL;
	}
	for (int n = 0; nodes && (n = ct_nodeset_next(&set, n)) >= 0 && !rc; n++) {
		if (!(rc = check_node(env, n, "--nodes")) && !(weight[n] = ct_wi_weight(&st, n))) {
			cmd_err(env, "--nodes: the kernel has no weighted-interleave weight for node %d", n);
			rc = EXIT_USAGE;
		}
	}
	for (unsigned i = 0; !nodes && i < st.n; i++) {
		int n = st.nodes[i].node;
		if (n < CT_MIG_MAX_NODES && ct_node_exists(&env->ctx->sys, n) && ct_node_has_memory(&env->ctx->sys, n))
			weight[n] = st.nodes[i].weight;
	}
	ct_wi_free(&st);
	return rc;
}

int spread_nodes_resolve(struct cmd_env *env, const char *nodes, bool given, unsigned *weight, bool *kernel)
{
	unsigned any = 0;
	int rc;

	*kernel = !given;
	if (!given) {
		memset(weight, 0, CT_MIG_MAX_NODES * sizeof(*weight));
		if ((rc = kernel_weights(env, nodes, weight)))
			return rc;
	}
	for (int n = 0; n < CT_MIG_MAX_NODES; n++)
		if (weight[n] && (rc = check_node(env, n, given ? "--weights" : "--spread")))
			return rc;
		else
			any |= weight[n];
	if (!any) {
		cmd_err(env, "--spread: no node with memory has a weighted-interleave weight: name the nodes "
			"and their weights with --weights NODE=WEIGHT,...");
		return EXIT_FAIL;
	}
	return 0;
}
