// SPDX-License-Identifier: GPL-2.0-only
/* cmd-migrate.c - `cxltier migrate`: move chosen processes' pages to a node
 * or tier, once, with a before/after report per process */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "json-build.h"
#include "../lib/context.h"
#include "../lib/damon.h"
#include "../lib/migrate.h"
#include "../lib/numa.h"
#include "../lib/process.h"
#include "../lib/tiers.h"
#include "migrate-report.h"

static void usage(void)
{
	printf("usage: cxltier migrate (--pid LIST | --comm NAME | --cgroup PATH)...\n"
	       "                       (--to NODE | --to-tier N|fastest|slowest) [--from NODES|tierN]\n"
	       "                       [--max-bytes SIZE] [--rate MB/s] [--dry-run] [-j]\n\n"
	       "Move the pages of the chosen processes to a node, once: promote to a faster\n"
	       "tier or demote to a slower one. The whole process goes with migrate_pages(2);\n"
	       "with a byte or rate limit (or --dry-run) page by page with move_pages(2) in\n"
	       "batches, each page that cannot move counted by errno.\n\n"
	       "      --pid LIST        process ids (comma-separated, repeatable)\n"
	       "      --comm NAME       every process with this name\n"
	       "      --cgroup PATH     every process of a cgroup v2 (its path in the cgroup2 mount)\n"
	       "      --to NODE         the target node\n"
	       "      --to-tier T       the first node of tier T (fastest, slowest, or its id)\n"
	       "      --from NODES      only pages on these nodes (or tierN); default: all but the target\n"
	       "      --max-bytes SIZE  move at most this much per process (K, M, G suffixes)\n"
	       "      --rate MB/S       at most this fast, so the process is not stalled\n"
	       "      --dry-run         show what would move, move nothing\n"
	       "      --hot, --cold     only pages accessed (or not) during --interval, as DAMON's\n"
	       "                        virtual-address monitoring sees them (never someone else's DAMON)\n"
	       "      --interval SEC    how long to watch for --hot/--cold (default 5)\n"
	       "Exit: 0 all moved, 64 some pages or processes failed (each named), 1 failure.\n");
	out_columns_help(&migrate_table);
}

static int add_pid(int **pids, size_t *n, int pid)
{
	int *np = realloc(*pids, (*n + 1) * sizeof(int));

	if (!np)
		return -ENOMEM;
	*pids = np;
	(*pids)[(*n)++] = pid;
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

static uint64_t parse_size(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	switch (*end) {
	case 'k': case 'K': v *= 1024; end++; break;
	case 'm': case 'M': v *= 1024 * 1024; end++; break;
	case 'g': case 'G': v *= 1024.0 * 1024 * 1024; end++; break;
	}
	return *end || v <= 0 ? 0 : (uint64_t)v;
}

static volatile sig_atomic_t stop;
static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

int cmd_migrate(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_PID = 0x8001, OPT_COMM, OPT_CGROUP, OPT_TO, OPT_TO_TIER, OPT_FROM, OPT_MAX, OPT_RATE, OPT_DRY, OPT_HOT, OPT_COLD,
	       OPT_INTERVAL };
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, OPT_PID }, { "comm", required_argument, NULL, OPT_COMM },
		{ "cgroup", required_argument, NULL, OPT_CGROUP }, { "to", required_argument, NULL, OPT_TO },
		{ "to-tier", required_argument, NULL, OPT_TO_TIER }, { "from", required_argument, NULL, OPT_FROM },
		{ "max-bytes", required_argument, NULL, OPT_MAX }, { "rate", required_argument, NULL, OPT_RATE },
		{ "dry-run", no_argument, NULL, OPT_DRY }, { "hot", no_argument, NULL, OPT_HOT },
		{ "cold", no_argument, NULL, OPT_COLD }, { "interval", required_argument, NULL, OPT_INTERVAL },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct ct_migrate_opts mo = { .to = -1, .stop = &stop };
	int select = 0;			/* 1 hot pages, -1 cold pages, 0 all */
	unsigned interval_ms = 5000;
	const char *to_tier = NULL, *from = NULL;
	char **comms = NULL, **cgroups = NULL, err[256];
	size_t ncomm = 0, ncg = 0, npid = 0, ok = 0, bad = 0;
	int *pids = NULL, c, rc = EXIT_OK;
	json_object *root = NULL, *arr;
	struct ct_procset set = { 0 };
	struct sigaction sa;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		char *end, *tok, *save;
		switch (c) {
		case OPT_PID:
			for (tok = strtok_r(optarg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				long p = strtol(tok, &end, 10);
				if (*end || p <= 0) {
					cmd_err(env, "--pid %s: not a process id", tok);
					rc = EXIT_USAGE;
					goto out;
				}
				add_pid(&pids, &npid, (int)p);
			}
			break;
		case OPT_COMM: comms = realloc(comms, (ncomm + 1) * sizeof(*comms)); comms[ncomm++] = optarg; break;
		case OPT_CGROUP: cgroups = realloc(cgroups, (ncg + 1) * sizeof(*cgroups)); cgroups[ncg++] = optarg; break;
		case OPT_TO:
			mo.to = (int)strtol(optarg + (!strncmp(optarg, "node", 4) ? 4 : 0), &end, 10);
			if (*end || mo.to < 0 || mo.to >= CT_MIG_MAX_NODES) {
				cmd_err(env, "--to %s: not a node", optarg);
				rc = EXIT_USAGE;
				goto out;
			}
			break;
		case OPT_TO_TIER: to_tier = optarg; break;
		case OPT_FROM: from = optarg; break;
		case OPT_MAX:
			if (!(mo.max_bytes = parse_size(optarg))) {
				cmd_err(env, "--max-bytes %s: a size such as 64M", optarg);
				rc = EXIT_USAGE;
				goto out;
			}
			break;
		case OPT_RATE:
			mo.rate_mbps = strtod(optarg, &end);
			if (*end || mo.rate_mbps <= 0) {
				cmd_err(env, "--rate %s: MB/s, a positive number", optarg);
				rc = EXIT_USAGE;
				goto out;
			}
			break;
		case OPT_DRY: mo.dry_run = true; break;
		case OPT_HOT: select = 1; break;
		case OPT_COLD: select = -1; break;
		case OPT_INTERVAL:
			interval_ms = (unsigned)(strtod(optarg, &end) * 1000);
			if (*end || !interval_ms || interval_ms > 3600000) {
				cmd_err(env, "--interval %s: seconds, e.g. 5 or 0.5", optarg);
				rc = EXIT_USAGE;
				goto out;
			}
			break;
		default:
			if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage))) {
				rc = cmd_exit_code(rc);
				goto out;
			}
		}
	}
	if (!npid && !ncomm && !ncg) {
		cmd_err(env, "which processes? give --pid, --comm or --cgroup");
		rc = EXIT_USAGE;
		goto out;
	}
	if ((mo.to < 0) == !to_tier) {
		cmd_err(env, "give one target: --to NODE or --to-tier N|fastest|slowest");
		rc = EXIT_USAGE;
		goto out;
	}
	if ((rc = cmd_context(env)))
		goto out;
	if (to_tier && (mo.to = tier_node(env, to_tier)) < 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (from) {
		if (!strncmp(from, "tier", 4)) {
			struct ct_tiers t;
			ct_tiers_load(&env->ctx->sys, &t);
			for (size_t i = 0; i < t.count; i++)
				if (t.tier[i].id == atoi(from + 4))
					mo.from = t.tier[i].nodes;
			ct_tiers_free(&t);
			if (!ct_nodeset_count(&mo.from)) {
				cmd_err(env, "--from %s: no such tier", from);
				rc = EXIT_USAGE;
				goto out;
			}
		} else if (ct_nodeset_parse(&mo.from, from)) {
			cmd_err(env, "--from %s: a node list such as 0 or 0-1", from);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	if (!ct_node_exists(&env->ctx->sys, mo.to)) {
		cmd_err(env, "node %d does not exist", mo.to);
		rc = EXIT_USAGE;
		goto out;
	}
	for (size_t i = 0; i < npid; i++)
		if (ct_procset_add_pid(&env->ctx->sys, &set, pids[i]))
			goto fail;
	for (size_t i = 0; i < ncomm; i++)
		if (ct_procset_add_comm(&env->ctx->sys, &set, comms[i]))
			goto fail;
	for (size_t i = 0; i < ncg; i++)
		if (ct_procset_add_cgroup(&env->ctx->sys, &set, cgroups[i]))
			goto fail;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	root = json_object_new_object();
	arr = jb_arr(root, "processes");
	for (size_t i = 0; i < set.count && !stop; i++) {
		int pid = set.proc[i].pid;
		struct ct_migrate_result r = { 0 };
		json_object *o = json_object_new_object();
		struct ct_access_region *reg = NULL;
		struct ct_vrange *ranges = NULL;
		size_t nreg = 0, nranges = 0;
		int mrc = 0;

		if (select) {
			/* which pages were touched during the interval (DAMON) */
			mrc = ct_damon_sample(&env->ctx->sys, pid, interval_ms, &stop, &reg, &nreg);
			if (mrc == -EOPNOTSUPP || mrc == -EBUSY) {
				cmd_err(env, "%s", ct_context_message(env->ctx));
				json_object_put(o);
				rc = mrc == -EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL;
				goto out;
			}
			ranges = calloc(nreg ? nreg : 1, sizeof(*ranges));
			json_object *sel = jb_obj(o, "selection"), *ra = NULL;
			uint64_t sel_bytes = 0;
			jb_str(sel, "pages", select > 0 ? "hot" : "cold");
			jb_str(sel, "source", "damon");
			jb_int(sel, "interval_ms", interval_ms);
			ra = jb_arr(sel, "ranges");
			for (size_t k = 0; !mrc && ranges && k < nreg; k++) {
				if ((select > 0) != (reg[k].nr_accesses > 0))
					continue;
				ranges[nranges].start = reg[k].start;
				ranges[nranges++].end = reg[k].end;
				sel_bytes += reg[k].end - reg[k].start;
				json_object *x = json_object_new_object();
				jb_u64(x, "start", reg[k].start);
				jb_u64(x, "end", reg[k].end);
				jb_int(x, "nr_accesses", reg[k].nr_accesses);
				json_object_array_add(ra, x);
			}
			jb_u64(sel, "bytes", sel_bytes);
			free(reg);
			mo.only = ranges;
			mo.nonly = nranges;
			if (!mrc && !nranges) {	/* nothing of that kind: move nothing */
				mo.only = &(struct ct_vrange){ 0, 0 };
				mo.nonly = 1;
			}
		}
		if (!mrc)
			mrc = ct_migrate_process(&env->ctx->sys, pid, &mo, &r);
		free(ranges);
		mo.only = NULL;
		mo.nonly = 0;

		if (mrc) {
			bad++;
			migrate_record_error(o, pid, r.comm, ct_context_message(env->ctx));
			cmd_err(env, "%s", ct_context_message(env->ctx));
			json_object_array_add(arr, o);
			continue;
		}
		migrate_record_result(o, &r, mo.dry_run);
		if (r.exited)
			fprintf(stderr, "cxltier migrate: process %d (%s) exited during the run\n", pid, r.comm);
		if (r.pages_failed) {
			bad++;
			if (r.pages_moved)
				ok++;	/* partly: counts for the partial status */
			cmd_err(env, "process %d (%s): %llu pages did not move (see failed_by)", pid, r.comm,
				(unsigned long long)r.pages_failed);
		} else {
			ok++;
		}
		json_object_array_add(arr, o);
	}
	if (out_print(&env->out, &migrate_table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	rc = !bad ? EXIT_OK : ok ? EXIT_PARTIAL : EXIT_FAIL;
	if (stop)
		cmd_err(env, "stopped by a signal");
	goto out;
fail:
	cmd_err(env, "%s", ct_context_message(env->ctx));
	rc = EXIT_FAIL;
out:
	ct_procset_free(&set);
	json_object_put(root);
	free(pids);
	free(comms);
	free(cgroups);
	return rc;
}
