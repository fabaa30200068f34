// SPDX-License-Identifier: GPL-2.0-only
/* migrate-args.c - `cxltier migrate`'s options and their checks
 * (migrate-args.h) */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "migrate-args.h"
#include "cli/option-values.h"
#include "core/context.h"
#include "mm/migrate-conf.h"
#include "mm/numa.h"
#include "mm/tiers.h"

/* a double from strtod, only when it is a number in (0, max]: outside that
 * range a conversion to an integer type is undefined (NaN, 1e30, negative) */
static bool in_range(double v, double max)
{
	return isfinite(v) && v > 0 && v <= max;
}

static int bad(struct cmd_env *env, const char *what, const char *arg, const char *expected)
{
	cmd_err(env, "%s %s: %s", what, arg, expected);
	return EXIT_USAGE;
}

int migrate_check_pids(struct cmd_env *env, void *args, const char *list)
{
	(void)args;
	for (size_t n; *list; list += n + (list[n] == ',')) {
		char *tok, *end;
		long p;
		if (!(n = strcspn(list, ",")))
			continue;
		if (!(tok = strndup(list, n)))
			return EXIT_FAIL;
		errno = 0;
		p = strtol(tok, &end, 10);
		/* (a long beyond int would wrap to someone else's process) */
		if (*end || end == tok || errno || p <= 0 || p > INT_MAX) {
			bad(env, "--pid", tok, "not a process id");
			free(tok);
			return EXIT_USAGE;
		}
		free(tok);
	}
	return 0;
}

int migrate_parse_to(struct cmd_env *env, void *args, const char *arg)
{
	struct migrate_args *a = args;
	char *end;
	long l = strtol(arg + (!strncmp(arg, "node", 4) ? 4 : 0), &end, 10);

	a->mo.to = l >= 0 && l < CT_MIG_MAX_NODES ? (int)l : -1;
	return *end || a->mo.to < 0 ? bad(env, "--to", arg, "not a node") : 0;
}

int migrate_parse_max_bytes(struct cmd_env *env, void *args, const char *arg)
{
	struct migrate_args *a = args;

	return value_size(arg, &a->mo.max_bytes)
		       ? bad(env, "--max-bytes", arg, "a size such as 64M, 1.5G, 1GiB (powers of 1024) or 1GB (of 1000)")
		       : 0;
}

int migrate_parse_rate(struct cmd_env *env, void *args, const char *arg)
{
	struct migrate_args *a = args;
	char *end;

	a->mo.rate_mbps = strtod(arg, &end);
	return *end || !in_range(a->mo.rate_mbps, 1e12) ? bad(env, "--rate", arg, "MB/s, a positive number") : 0;
}

int migrate_parse_interval(struct cmd_env *env, void *args, const char *arg)
{
	struct migrate_args *a = args;
	uint64_t ms;

	if (value_span_ms(arg, 3600 * 1000, &ms))
		return bad(env, "--interval", arg, "a span up to 1h in whole milliseconds: seconds (5, 0.5) or 500ms, 30s, 2min");
	a->interval_ms = (unsigned)ms;
	return 0;
}

int migrate_parse_jobs(struct cmd_env *env, void *args, const char *arg)
{
	struct migrate_args *a = args;
	char *end;
	long l = strtol(arg, &end, 10);

	a->mo.jobs = (unsigned)l;
	return *end || l < 1 || l > CT_MIG_MAX_JOBS ? bad(env, "--jobs", arg, "a number from 1 to 64") : 0;
}

int migrate_parse_spread(struct cmd_env *env, void *args, const char *arg)
{
	struct migrate_args *a = args;

	a->spread = !strcmp(arg, "weighted");
	return a->spread ? 0 : bad(env, "--spread", arg, "the one spread is 'weighted'");
}

int migrate_parse_tolerance(struct cmd_env *env, void *args, const char *arg)
{
	struct migrate_args *a = args;
	char *end;
	double v = strtod(arg, &end);

	if (*end == '%')
		end++;
	if (*end || end == arg || !(v >= 0 && v <= 100))
		return bad(env, "--tolerance", arg, "a percentage from 0 to 100 (5, 2.5%)");
	a->mo.tolerance_pct = v;
	a->tolerance_given = true;
	return 0;
}

/* N=W,N=W: each node's weight, 0 to 255 (0: not in the spread) */
int migrate_parse_weights(struct cmd_env *env, void *args, const char *arg)
{
	struct migrate_args *a = args;
	const char *p = arg;
	unsigned any = 0;

	memset(a->weight, 0, sizeof(a->weight));
	while (*p) {
		char *end;
		long node = strtol(p + (!strncmp(p, "node", 4) ? 4 : 0), &end, 10), w;
		if (end == p || *end != '=' || node < 0 || node >= CT_MIG_MAX_NODES)
			return bad(env, "--weights", arg, "NODE=WEIGHT pairs, comma-separated, such as 0=3,2=1");
		w = strtol(end + 1, &end, 10);
		if ((*end && *end != ',') || w < 0 || w > 255 || end[-1] == '=')
			return bad(env, "--weights", arg, "each weight a whole number from 0 to 255, such as 0=3,2=1");
		a->weight[node] = (unsigned)w;
		any |= (unsigned)w;
		p = *end ? end + 1 : end;
	}
	a->weights = arg;
	return any ? 0 : bad(env, "--weights", arg, "no node has a weight above 0");
}

int migrate_check(struct cmd_env *env, const struct migrate_args *a)
{
	if (env->sysroot) {	/* the tree is captured; the processes would be live ones */
		cmd_err(env, "--sysroot %s: migrate moves live processes' pages, which a captured tree does not "
			"describe; run it on the live system", env->sysroot);
		return EXIT_USAGE;
	}
	if (!a->pids.count && !a->comms.count && !a->cgroups.count) {
		cmd_err(env, "which processes? give --pid, --comm or --cgroup");
		return EXIT_USAGE;
	}
	if (!a->spread && (a->nodes || a->weights || a->tolerance_given)) {
		cmd_err(env, "--%s: only with --spread weighted", a->nodes ? "nodes" : a->weights ? "weights" : "tolerance");
		return EXIT_USAGE;
	}
	if (!a->spread && (a->mo.to < 0) == !a->to_tier) {
		cmd_err(env, "give one target: --to NODE or --to-tier N|fastest|slowest (or spread: --spread weighted)");
		return EXIT_USAGE;
	}
	return 0;
}

/* --to-tier: the first node with memory of that tier */
static int tier_node(struct cmd_env *env, const char *arg)
{
	struct ct_tiers t;
	const struct ct_tier *pick = NULL;
	int node = -1;

	if (ct_tiers_load(&env->ctx->sys, &t) || !t.count) {
		cmd_err(env, "--to-tier: this kernel has no memory tiers (6.1+)");
		return -1;
	}
	if (!strcmp(arg, "fastest"))
		pick = &t.tier[0];
	else if (!strcmp(arg, "slowest"))
		pick = &t.tier[t.count - 1];
	else
		for (size_t i = 0; i < t.count; i++)
			if (t.tier[i].id == atoi(arg))
				pick = &t.tier[i];
	if (!pick)
		cmd_err(env, "--to-tier %s: no such tier (see 'cxltier tiers')", arg);
	else
		node = ct_nodeset_next(&pick->nodes, 0);
	ct_tiers_free(&t);
	return node;
}

static int from_nodes(struct cmd_env *env, const char *from, struct ct_nodeset *set)
{
	if (!strncmp(from, "tier", 4)) {
		struct ct_tiers t;
		ct_tiers_load(&env->ctx->sys, &t);
		for (size_t i = 0; i < t.count; i++)
			if (t.tier[i].id == atoi(from + 4))
				*set = t.tier[i].nodes;
		ct_tiers_free(&t);
		return ct_nodeset_count(set) ? 0 : bad(env, "--from", from, "no such tier");
	}
	return ct_nodeset_parse(set, from) ? bad(env, "--from", from, "a node list such as 0 or 0-1") : 0;
}

/* [migrate] jobs = N of the configuration, when --jobs is not given */
static int config_jobs(struct cmd_env *env, struct migrate_args *a)
{
	const char *path = a->config ? a->config : MIGRATE_CONFIG;
	struct ct_migrate_conf conf;
	FILE *f = fopen(path, "r");
	char *text;
	size_t len;
	int rc;

	if (!f) {
		if (errno == ENOENT && !a->config)
			return 0;
		cmd_err(env, "cannot read %s: %s", path, strerror(errno));
		return EXIT_FAIL;
	}
	text = calloc(1, 65537);
	len = text ? fread(text, 1, 65536, f) : 0;
	fclose(f);
	if (!text)
		return EXIT_FAIL;
	text[len] = '\0';
	rc = ct_migrate_conf_parse(text, path, &conf, &env->ctx->err);
	free(text);
	if (rc) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return EXIT_USAGE;
	}
	if (!a->mo.jobs)
		a->mo.jobs = conf.jobs;
	return 0;
}

int migrate_resolve(struct cmd_env *env, struct migrate_args *a)
{
	int rc;

	if (a->spread)	/* its nodes: spread-nodes.h */
		goto jobs;
	if (a->to_tier && (a->mo.to = tier_node(env, a->to_tier)) < 0)
		return EXIT_USAGE;
	if (a->from && (rc = from_nodes(env, a->from, &a->mo.from)))
		return rc;
	if (!ct_node_exists(&env->ctx->sys, a->mo.to)) {
		cmd_err(env, "node %d does not exist", a->mo.to);
		return EXIT_USAGE;
	}
	/* the kernel refuses such a target for every page (ENODEV, EINVAL) */
	if (!ct_node_has_memory(&env->ctx->sys, a->mo.to)) {
		cmd_err(env, "node %d has no memory online: online its memory blocks ('cxltier online'), or move to "
			"another node", a->mo.to);
		return EXIT_USAGE;
	}
jobs:
	if ((rc = config_jobs(env, a)))
		return rc;
	if (!a->mo.jobs)
		a->mo.jobs = 1;
	return 0;
}
