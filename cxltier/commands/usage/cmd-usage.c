// SPDX-License-Identifier: GPL-2.0-only
/* cmd-usage.c - `cxltier usage`: where processes' and cgroups' memory is,
 * per node and per memory tier (numastat -p, with tiers); the JSON:
 * usage-json.c; the tables: usage-table.c */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/filter.h"
#include "cli/json-build.h"
#include "usage-json.h"
#include "usage-table.h"
#include "core/context.h"
#include "core/process.h"
#include "mm/tiers.h"
#include "mm/usage.h"

struct usage_args {
	struct name_filter pids, comms, cgroups;	/* each argument whole */
};

/* how the reads went */
struct usage_count {
	size_t good, bad, hidden;
};

/* --pid: digits and commas */
static int check_pids(struct cmd_env *env, void *args, const char *list)
{
	(void)args;
	for (const char *p = list; *p; p++)
		if ((*p < '0' || *p > '9') && *p != ',') {
			cmd_err(env, "--pid %s: process ids, comma-separated", list);
			return EXIT_USAGE;
		}
	return EXIT_OK;
}

/* --pid, --comm, or (with no choice) every process that has a memory map */
static int choose(struct cmd_env *env, const struct usage_args *a, bool all, struct ct_procset *set)
{
	struct ct_sysfs *s = &env->ctx->sys;
	char *end, *save;

	for (size_t i = 0; i < a->pids.count; i++)
		for (char *tok = strtok_r(a->pids.names[i], ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (ct_procset_add_pid(s, set, (int)strtol(tok, &end, 10)))
				return -1;
	for (size_t i = 0; i < a->comms.count; i++)
		if (ct_procset_add_comm(s, set, a->comms.names[i]))
			return -1;
	if (all && ct_procset_add_all(s, set))
		return -1;
	return 0;
}

/* every process chosen, into arr (all: those with memory, the ones not ours
 * to read counted as hidden) */
static void processes(struct cmd_env *env, const struct ct_procset *set, bool all, const struct ct_tiers *tiers,
		      json_object *arr, struct usage_count *n)
{
	for (size_t i = 0; i < set->count; i++) {
		const struct ct_process *p = &set->proc[i];
		struct ct_usage u;
		json_object *o;
		int urc = 1;
		if (all && (p->err || p->kernel_thread || p->no_mm))
			continue;	/* every process: those with memory */
		if (!p->err && (urc = ct_usage_process(&env->ctx->sys, p->pid, &u)) && all) {
			n->hidden += urc == -EPERM;	/* gone meanwhile, or not ours to read */
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
			n->bad++;
			continue;
		}
		usage_json(o, &u, tiers, true);
		n->good++;
	}
}

static void cgroups(struct cmd_env *env, const struct name_filter *cg, const struct ct_tiers *tiers, json_object *arr,
		    struct usage_count *n)
{
	for (size_t i = 0; i < cg->count; i++) {
		json_object *o = json_object_new_object();
		struct ct_usage u;
		jb_str(o, "cgroup", cg->names[i]);
		json_object_array_add(arr, o);
		if (ct_usage_cgroup(&env->ctx->sys, cg->names[i], &u)) {
			jb_str(o, "error", ct_context_message(env->ctx));
			cmd_err(env, "%s", ct_context_message(env->ctx));
			ct_error_clear(&env->ctx->err);
			n->bad++;
			continue;
		}
		usage_json(o, &u, tiers, false);
		n->good++;
	}
}

/* the processes' table, the cgroups' below it (or the JSON); an exit code */
static int print(struct cmd_env *env, json_object *root, bool procs, bool cgs)
{
	char err[256];
	int rc = out_print(&env->out, &usage_process_table, root, err, sizeof(err));

	if (!rc && !env->out.json && cgs) {
		if (procs)
			putchar('\n');
		rc = out_print(&env->out, &usage_cgroup_table, root, err, sizeof(err));
	}
	if (rc) {
		cmd_err(env, "%s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	const struct usage_args *a = args;
	bool named = a->pids.count || a->comms.count, all = !named && !a->cgroups.count;
	struct ct_procset set = { 0 };
	struct ct_tiers tiers = { 0 };
	struct usage_count n = { 0 };
	json_object *root;
	int rc;

	(void)argc, (void)argv;
	if ((named || all) && choose(env, a, all, &set)) {
		ct_procset_free(&set);
		return cmd_fail(env, EXIT_FAIL);
	}
	ct_tiers_load(&env->ctx->sys, &tiers);	/* none: no tier column */
	ct_error_clear(&env->ctx->err);
	root = json_object_new_object();
	if (named || all)
		processes(env, &set, all, &tiers, jb_arr(root, "processes"), &n);
	if (a->cgroups.count)
		cgroups(env, &a->cgroups, &tiers, jb_arr(root, "cgroups"), &n);
	if (n.hidden)
		cmd_warn(env, "%zu process%s left out: no permission to read numa_maps (root can)", n.hidden,
			 n.hidden == 1 ? "" : "es");
	if (!(rc = print(env, root, named, a->cgroups.count)))
		rc = !n.bad ? EXIT_OK : n.good ? EXIT_PARTIAL : EXIT_FAIL;
	ct_tiers_free(&tiers);
	ct_procset_free(&set);
	json_object_put(root);
	return rc;
}

#define ARG(field) offsetof(struct usage_args, field)
static const struct cli_opt opts[] = {
	{ .name = "pid", .arg = "LIST", .store = CLI_APPEND, .offset = ARG(pids), .parse = check_pids,
	  .complete = CLI_C_PID, .help = "process ids (comma-separated, repeatable)" },
	{ .name = "comm", .arg = "NAME", .store = CLI_APPEND, .offset = ARG(comms), .complete = CLI_C_COMM,
	  .help = "every process with this name" },
	{ .name = "cgroup", .arg = "PATH", .store = CLI_APPEND, .offset = ARG(cgroups), .complete = CLI_C_CGROUP,
	  .help = "a cgroup v2 (its path in the cgroup2 mount)" },
	{ NULL },
};
static const struct out_table *const tables[] = { &usage_process_table, NULL };

const struct cli_command command_usage = {
	.name = "usage",
	.summary = "where processes' and cgroups' memory is, per node and per memory tier",
	.synopsis = "[--pid LIST] [--comm NAME] [--cgroup PATH]... [-j]",
	.about = "Where the memory of processes (from numa_maps) or of cgroups (from cgroup v2\n"
		 "memory.numa_stat) is: per node and per memory tier. Without a choice: every\n"
		 "process with memory.",
	.notes = "JSON: {\"processes\":[{\"pid\",\"comm\",\"bytes\",\"nodes\":[...],\"tiers\":[...]}],\"cgroups\":[...]}",
	.opts = opts,
	.tables = tables,
	.args_size = sizeof(struct usage_args),
	.max_operands = 0,
	.run = run,
};
