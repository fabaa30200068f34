// SPDX-License-Identifier: GPL-2.0-only
/* cmd-usage.c - `cxltier usage`: where processes' and cgroups' memory is,
 * per node and per memory tier (numastat -p, with tiers) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/json-build.h"
#include "core/context.h"
#include "core/process.h"
#include "mm/tiers.h"
#include "mm/usage.h"

static void fmt_name(json_object *rec, char *buf, size_t len);
static void fmt_tiers(json_object *rec, char *buf, size_t len);
static const struct out_column columns[] = {
	{ "NAME", "pid", OUT_STR, 0.2, 0, "the process (PID and name), cgroup or node", fmt_name },
	{ "TIER", "tier", OUT_NUM, 0.1, 0, "the node's memory tier", NULL },
	{ "SIZE", "bytes", OUT_SIZE, 0.1, 0, "memory on the node (all of it on the process's line)", NULL },
	{ "ANON", "anon", OUT_SIZE, 0.1, 0, "anonymous memory (heap, stack, private)", NULL },
	{ "FILE", "file", OUT_SIZE, 0.1, 0, "file-backed and shared memory", NULL },
	{ "HUGE", "huge", OUT_SIZE, 0.1, 0, "hugetlb pages (processes)", NULL },
	{ "KERNEL", "kernel", OUT_SIZE, 0.1, 0, "kernel stacks, page tables, slab (cgroups)", NULL },
	{ "TIERS", "tiers", OUT_STR, 0.2, 0, "memory per tier", fmt_tiers },
	{ "ERROR", "error", OUT_STR, 0.2, 0, "why it could not be read", NULL },
};
static const char *const plevels[] = { "processes", "nodes", NULL };
static const char *const clevels[] = { "cgroups", "nodes", NULL };
static const struct out_table ptable = { plevels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
					 "NAME,TIER,SIZE,ANON,FILE,HUGE,TIERS" };
static const struct out_table ctable = { clevels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
					 "NAME,TIER,SIZE,ANON,FILE,KERNEL,TIERS" };

static void usage(void)
{
	printf("usage: cxltier usage [--pid LIST] [--comm NAME] [--cgroup PATH]... [-j]\n\n"
	       "Where the memory of processes (from numa_maps) or of cgroups (from cgroup v2\n"
	       "memory.numa_stat) is: per node and per memory tier. Without a choice: every\n"
	       "process with memory.\n\n"
	       "      --pid LIST        process ids (comma-separated, repeatable)\n"
	       "      --comm NAME       every process with this name\n"
	       "      --cgroup PATH     a cgroup v2 (its path in the cgroup2 mount)\n");
	out_columns_help(&ptable);
}

static void fmt_name(json_object *rec, char *buf, size_t len)
{
	json_object *v;

	if ((v = out_lookup(rec, "pid")))
		snprintf(buf, len, "%d %s", json_object_get_int(v), json_object_get_string(out_lookup(rec, "comm")));
	else if ((v = out_lookup(rec, "cgroup")))
		snprintf(buf, len, "%s", json_object_get_string(v));
	else
		snprintf(buf, len, "node%d", json_object_get_int(out_lookup(rec, "node")));
}

static void fmt_tiers(json_object *rec, char *buf, size_t len)
{
	json_object *t = out_lookup(rec, "tiers");
	size_t off = 0;
	char hs[32];

	buf[0] = '\0';
	for (size_t i = 0; t && i < json_object_array_length(t) && off < len; i++) {
		json_object *x = json_object_array_get_idx(t, i);
		off += snprintf(buf + off, len - off, "%s%d:%s", i ? "," : "", json_object_get_int(out_lookup(x, "tier")),
				out_human_size(json_object_get_uint64(out_lookup(x, "bytes")), hs, sizeof(hs)));
	}
}

/* the usage into o: total, per node (with its tier), per tier */
static void usage_json(json_object *o, const struct ct_usage *u, const struct ct_tiers *tiers, bool process)
{
	json_object *nodes, *ta;
	uint64_t per_tier[64] = { 0 };
	int tier_id[64], ntiers = 0;

	jb_u64(o, "bytes", ct_usage_bytes(u));
	nodes = jb_arr(o, "nodes");
	for (int n = 0; n < CT_USAGE_MAX_NODES; n++) {
		const struct ct_usage_node *un = &u->node[n];
		uint64_t b = ct_usage_node_bytes(un);
		int tier = ct_tiers_of_node(tiers, n), k;
		json_object *x;
		if (!b)
			continue;
		x = json_object_new_object();
		jb_int(x, "node", n);
		jb_int_known(x, "tier", tier);
		jb_u64(x, "bytes", b);
		jb_u64(x, "anon", un->anon);
		jb_u64(x, "file", un->file);
		jb_u64(x, process ? "huge" : "kernel", process ? un->huge : un->kernel);
		json_object_array_add(nodes, x);
		for (k = 0; k < ntiers && tier_id[k] != tier; k++)
			;
		if (tier < 0 || k == 64)
			continue;
		if (k == ntiers)
			tier_id[ntiers++] = tier;
		per_tier[k] += b;
	}
	ta = jb_arr(o, "tiers");
	for (int k = 0; k < ntiers; k++) {
		json_object *x = json_object_new_object();
		jb_int(x, "tier", tier_id[k]);
		jb_u64(x, "bytes", per_tier[k]);
		json_object_array_add(ta, x);
	}
}

/* --pid, --comm, or (with no choice) every process that has a memory map */
static int choose(struct cmd_env *env, char **pids, size_t npid, char **comms, size_t ncomm, struct ct_procset *set)
{
	struct ct_sysfs *s = &env->ctx->sys;
	char *end, *save;

	for (size_t i = 0; i < npid; i++)
		for (char *tok = strtok_r(pids[i], ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (ct_procset_add_pid(s, set, (int)strtol(tok, &end, 10)))
				return -1;
	for (size_t i = 0; i < ncomm; i++)
		if (ct_procset_add_comm(s, set, comms[i]))
			return -1;
	if (!npid && !ncomm && ct_procset_add_all(s, set))
		return -1;
	return 0;
}

static bool valid_pids(struct cmd_env *env, char *list)
{
	for (char *p = list; *p; p++)
		if ((*p < '0' || *p > '9') && *p != ',') {
			cmd_err(env, "--pid %s: process ids, comma-separated", list);
			return false;
		}
	return true;
}

int cmd_usage(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_PID = 0x8001, OPT_COMM, OPT_CGROUP };
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, OPT_PID }, { "comm", required_argument, NULL, OPT_COMM },
		{ "cgroup", required_argument, NULL, OPT_CGROUP }, COMMON_LONG_OPTS, { NULL, 0, NULL, 0 },
	};
	char **pids = NULL, **comms = NULL, **cgroups = NULL, err[256];
	size_t npid = 0, ncomm = 0, ncg = 0, bad = 0, good = 0, hidden = 0;
	struct ct_procset set = { 0 };
	struct ct_tiers tiers = { 0 };
	json_object *root = NULL, *arr;
	bool all;
	int c, rc = EXIT_OK;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		char ***v = c == OPT_PID ? &pids : c == OPT_COMM ? &comms : c == OPT_CGROUP ? &cgroups : NULL;
		size_t *n = c == OPT_PID ? &npid : c == OPT_COMM ? &ncomm : &ncg;
		if (v) {
			char **nv = realloc(*v, (*n + 1) * sizeof(*nv));
			if (!nv || (c == OPT_PID && !valid_pids(env, optarg))) {
				free(nv ? nv : *v);
				*v = NULL;
				rc = nv ? EXIT_USAGE : EXIT_FAIL;
				goto out;
			}
			*v = nv;
			nv[(*n)++] = optarg;
		} else if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage))) {
			rc = cmd_exit_code(rc);
			goto out;
		}
	}
	if ((rc = cmd_context(env)))
		goto out;
	all = !npid && !ncomm && !ncg;
	if ((npid || ncomm || all) && choose(env, pids, npid, comms, ncomm, &set)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		rc = EXIT_FAIL;
		goto out;
	}
	ct_tiers_load(&env->ctx->sys, &tiers);	/* none: no tier column */
	ct_error_clear(&env->ctx->err);
	root = json_object_new_object();
	arr = npid || ncomm || all ? jb_arr(root, "processes") : NULL;
	for (size_t i = 0; i < set.count; i++) {
		const struct ct_process *p = &set.proc[i];
		struct ct_usage u;
		json_object *o;
		int urc = 1;
		if (all && (p->err || p->kernel_thread || p->no_mm))
			continue;	/* every process: those with memory */
		if (!p->err && (urc = ct_usage_process(&env->ctx->sys, p->pid, &u)) && all) {
			hidden += urc == -EPERM;	/* gone meanwhile, or not ours to read */
			ct_error_clear(&env->ctx->err);
			continue;
		}
		o = json_object_new_object();
		jb_int(o, "pid", p->pid);
		jb_str(o, "comm", p->comm);
		json_object_array_add(arr, o);
		if (urc) {
			jb_str(o, "error", p->err ? p->why : ct_context_message(env->ctx));
			cmd_err(env, "%s", p->err ? p->why : ct_context_message(env->ctx));
			ct_error_clear(&env->ctx->err);
			bad++;
			continue;
		}
		usage_json(o, &u, &tiers, true);
		good++;
	}
	arr = ncg ? jb_arr(root, "cgroups") : NULL;
	for (size_t i = 0; i < ncg; i++) {
		json_object *o = json_object_new_object();
		struct ct_usage u;
		jb_str(o, "cgroup", cgroups[i]);
		json_object_array_add(arr, o);
		if (ct_usage_cgroup(&env->ctx->sys, cgroups[i], &u)) {
			jb_str(o, "error", ct_context_message(env->ctx));
			cmd_err(env, "%s", ct_context_message(env->ctx));
			ct_error_clear(&env->ctx->err);
			bad++;
			continue;
		}
		usage_json(o, &u, &tiers, false);
		good++;
	}
	if (hidden)
		cmd_warn(env, "%zu process%s left out: no permission to read numa_maps (root can)", hidden,
			 hidden == 1 ? "" : "es");
	rc = out_print(&env->out, &ptable, root, err, sizeof(err));
	if (!rc && !env->out.json && ncg) {	/* the cgroups' table below the processes' */
		if (npid || ncomm)
			putchar('\n');
		rc = out_print(&env->out, &ctable, root, err, sizeof(err));
	}
	if (rc) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	rc = !bad ? EXIT_OK : good ? EXIT_PARTIAL : EXIT_FAIL;
out:
	ct_tiers_free(&tiers);
	ct_procset_free(&set);
	json_object_put(root);
	free(pids);
	free(comms);
	free(cgroups);
	return rc;
}
