// SPDX-License-Identifier: GPL-2.0-only
/* cmd-migrate.c - `cxltier migrate`: move chosen processes' pages to a node
 * or tier, or spread them over nodes by weight (--spread weighted), once,
 * with a before/after report per process. Its options and their checks:
 * migrate-args.c, the spread's nodes and weights spread-nodes.c; the
 * moves: mm/migrate.h, with --hot or --cold jobs/migrate-sampled.h; the
 * report: migrate-json.c */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/progress.h"
#include "cli/run-signals.h"
#include "cli/json-build.h"
#include "migrate-args.h"
#include "migrate-json.h"
#include "spread-nodes.h"
#include "core/context.h"
#include "core/process.h"
#include "core/sysfs.h"
#include "jobs/migrate-sampled.h"
#include "mm/migrate.h"
#include "mm/tiers.h"

/* every process chosen by --pid, --comm and --cgroup, once */
static int choose(struct cmd_env *env, const struct migrate_args *a, struct ct_procset *set)
{
	struct ct_sysfs *s = &env->ctx->sys;

	for (size_t i = 0; i < a->pids.count; i++)
		for (const char *p = a->pids.names[i]; *p;) {	/* (checked: digits and commas) */
			char *end;
			long pid = strtol(p, &end, 10);
			if (end == p) {
				p++;
				continue;
			}
			if (ct_procset_add_pid(s, set, (int)pid))
				return -1;
			p = end;
		}
	for (size_t i = 0; i < a->comms.count; i++)
		if (ct_procset_add_comm(s, set, a->comms.names[i]))
			return -1;
	for (size_t i = 0; i < a->cgroups.count; i++)
		if (ct_procset_add_cgroup(s, set, a->cgroups.names[i]))
			return -1;
	return 0;
}

/* one process's record; counts what went well and what did not */
static void record(struct cmd_env *env, const struct migrate_args *a, const struct ct_migrate_result *r,
		   const struct ct_tiers *tiers, json_object *o, size_t *ok, size_t *bad)
{
	if (r->err) {
		(*bad)++;
		migrate_record_error(o, r->pid, r->comm, r->error);
		cmd_err(env, "%s", r->error);
		return;
	}
	migrate_record_result(o, r, a->mo.dry_run, tiers);
	if (r->replaced) {
		(*bad)++;
		cmd_err(env, "%s", r->note);
	} else if (r->exited) {
		fprintf(stderr, "cxltier migrate: process %d (%s) exited during the run\n", r->pid, r->comm);
	}
	if (r->pages_failed) {
		(*bad)++;
		if (r->pages_moved)
			(*ok)++;	/* partly: counts for the partial status */
		cmd_err(env, "process %d (%s): %llu pages did not move (see failed_by)", r->pid, r->comm,
			(unsigned long long)r->pages_failed);
	} else if (!r->replaced) {
		(*ok)++;
	}
	cmd_info(env, 1, "process %d (%s): scan %.3f s, move %.3f s", r->pid, r->comm, r->scan_seconds,
		 r->move_seconds);
}

/* one record per process reached (with what DAMON chose of it) */
static void report(struct cmd_env *env, const struct migrate_args *a, const struct ct_migrate_task *t, size_t n,
		   const struct ct_migrate_sample *samples, json_object *arr, size_t *ok, size_t *bad)
{
	struct ct_tiers tiers = { 0 };

	ct_tiers_load(&env->ctx->sys, &tiers);	/* none: no per-tier figures */
	ct_error_clear(&env->ctx->err);
	for (size_t i = 0; i < n; i++) {
		json_object *o;
		if (!t[i].r.mechanism && !t[i].r.err)
			continue;	/* never reached: stopped by a signal */
		o = json_object_new_object();
		if (samples[i].chosen)
			migrate_record_selection(o, a->select, a->interval_ms, samples[i].reg, samples[i].nreg);
		json_object_array_add(arr, o);
		record(env, a, &t[i].r, &tiers, o, ok, bad);
	}
	ct_tiers_free(&tiers);
}

/* what a run holds */
struct moves {
	struct ct_procset set;
	struct ct_migrate_task *tasks;
	struct ct_migrate_sample *samples;
	struct ct_migrate_totals sum;
};

/* the processes chosen, the stop signals caught; 0 or an exit code */
static int prepare(struct cmd_env *env, struct migrate_args *a, struct moves *m)
{
	int rc, nofile;

	if ((rc = migrate_check(env, a)) || (rc = cmd_context(env)) || (rc = migrate_resolve(env, a)))
		return rc;
	if (a->spread && (rc = spread_nodes_resolve(env, a->nodes, a->weights, a->weight, &a->weights_from_kernel)))
		return rc;
	if (a->spread)
		a->mo.spread = a->weight;
	/* a pidfd per chosen process, held for the run: as many as allowed */
	if ((nofile = ct_nofile_raise()))
		cmd_info(env, 1, "the limit of open files stays as it was: %s", strerror(-nofile));
	ct_migrate_setup();
	if (choose(env, a, &m->set))
		return cmd_fail(env, EXIT_FAIL);
	/* every way out that can run code tears down what was set up */
	a->mo.stop = run_signals_stop_flag();
	m->tasks = calloc(m->set.count + 1, sizeof(*m->tasks));
	m->samples = calloc(m->set.count + 1, sizeof(*m->samples));
	if (!m->tasks || !m->samples) {
		cmd_err(env, "out of memory");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < m->set.count; i++)
		m->tasks[i].proc = &m->set.proc[i];
	return 0;
}

/* the moves, shown as they go on a terminal (cli/progress.h); -1 when
 * the run failed (said), else an exit code for DAMON's failure, or 0 */
static int moves(struct cmd_env *env, struct migrate_args *a, struct moves *m)
{
	struct progress pg;
	int rc = 0, fatal = 0;

	progress_begin(&pg, env, "migrate");
	a->mo.on_process = progress_process;
	a->mo.on_process_arg = &pg;
	if (!a->select) {
		rc = ct_migrate_run(&env->ctx->sys, &a->mo, m->tasks, m->set.count, &m->sum);
	} else {	/* a failure of DAMON: the processes before it are still reported */
		m->sum.jobs = 1;	/* (the schema's floor, when DAMON fails before any run) */
		rc = ct_migrate_sampled(env->ctx, &a->mo, a->select > 0, a->interval_ms, m->tasks, m->set.count,
					m->samples, &m->sum);
	}
	progress_end(&pg);
	a->mo.on_process = NULL;
	if (rc && !a->select)
		return cmd_fail(env, -1);
	if (rc)
		fatal = cmd_fail(env, rc == -EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL);
	return fatal;
}

/* the moves, then the report; an exit code */
static int move(struct cmd_env *env, struct migrate_args *a, struct moves *m)
{
	json_object *root;
	size_t ok = 0, bad = 0;
	char err[256];
	int rc, fatal = moves(env, a, m);

	if (fatal < 0)
		return EXIT_FAIL;
	root = json_object_new_object();
	report(env, a, m->tasks, m->set.count, m->samples, jb_arr(root, "processes"), &ok, &bad);
	migrate_record_run(root, &m->sum, env);
	if (a->spread)
		migrate_record_spread(root, a->weight, a->weights_from_kernel, a->mo.tolerance_pct);
	if (out_print(&env->out, a->spread ? &migrate_spread_table : &migrate_table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		json_object_put(root);
		return EXIT_USAGE;
	}
	json_object_put(root);
	rc = fatal ? fatal : !bad && !*a->mo.stop ? EXIT_OK : ok ? EXIT_PARTIAL : EXIT_FAIL;
	if (*a->mo.stop)
		cmd_err(env, "stopped by a signal: the processes not named above were not moved");
	return rc;
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	struct moves m = { 0 };
	int rc;

	(void)argc, (void)argv;
	if (!(rc = prepare(env, args, &m)))
		rc = move(env, args, &m);
	for (size_t i = 0; m.tasks && i < m.set.count; i++)
		ct_migrate_selection_free(&m.tasks[i].sel);
	ct_migrate_sampled_free(m.samples, m.set.count);
	free(m.tasks);
	free(m.samples);
	ct_procset_free(&m.set);
	return rc;
}

#define ARG(field) offsetof(struct migrate_args, field)
static const struct cli_opt opts[] = {
	{ .name = "pid", .arg = "LIST", .store = CLI_APPEND, .offset = ARG(pids), .parse = migrate_check_pids,
	  .complete = CLI_C_PID, .help = "process ids (comma-separated, repeatable)" },
	{ .name = "comm", .arg = "NAME", .store = CLI_APPEND, .offset = ARG(comms), .complete = CLI_C_COMM,
	  .help = "every process with this name" },
	{ .name = "cgroup", .arg = "PATH", .store = CLI_APPEND, .offset = ARG(cgroups), .complete = CLI_C_CGROUP,
	  .help = "every process of a cgroup v2 (its path in the cgroup2 mount)" },
	{ .name = "to", .arg = "NODE", .store = CLI_PARSE, .parse = migrate_parse_to, .complete = CLI_C_NODE,
	  .conflicts = "to-tier", .conflict_msg = "give one target: --to NODE or --to-tier N|fastest|slowest",
	  .help = "the target node" },
	{ .name = "to-tier", .arg = "TIER", .store = CLI_STRING, .offset = ARG(to_tier), .complete = CLI_C_TIER,
	  .help = "the first node of a tier: fastest, slowest, or its id" },
	{ .name = "from", .arg = "NODES", .store = CLI_STRING, .offset = ARG(from), .complete = CLI_C_NODE,
	  .help = "only pages on these nodes (or tierN); default: all but the target" },
	{ .name = "spread", .arg = "weighted", .store = CLI_PARSE, .parse = migrate_parse_spread, .words = "weighted",
	  .complete = CLI_C_WORDS, .conflicts = "to,to-tier,from,hot,cold,interval",
	  .help = "no target: spread the pages over nodes by their weighted-interleave\n"
		  "weights, moving the fewest pages that reach that split" },
	{ .name = "nodes", .arg = "NODES", .store = CLI_STRING, .offset = ARG(nodes), .complete = CLI_C_NODE,
	  .conflicts = "weights",
	  .help = "the spread's nodes (or tierN,...); default: the nodes with memory\n"
		  "that the kernel has a weight for" },
	{ .name = "weights", .arg = "N=W,...", .store = CLI_PARSE, .parse = migrate_parse_weights,
	  .help = "the spread's nodes and weights (0-255), instead of the kernel's" },
	{ .name = "tolerance", .arg = "PCT", .store = CLI_PARSE, .parse = migrate_parse_tolerance,
	  .help = "a node off its target by at most PCT % of the pages stays (default 5)" },
	{ .name = "max-bytes", .arg = "SIZE", .store = CLI_PARSE, .parse = migrate_parse_max_bytes,
	  .help = "move at most this much per process (K, M, G suffixes)" },
	{ .name = "rate", .arg = "MB/S", .store = CLI_PARSE, .parse = migrate_parse_rate,
	  .help = "at most this fast (all jobs together), so the process is not stalled" },
	{ .name = "dry-run", .store = CLI_FLAG, .offset = ARG(mo.dry_run), .help = "show what would move, move nothing" },
	{ .name = "hot", .store = CLI_SET, .offset = ARG(select), .max = 1, .conflicts = "cold",
	  .help = "only pages accessed during --interval, as DAMON's virtual-address monitoring\n"
		  "sees them (never someone else's DAMON)" },
	{ .name = "cold", .store = CLI_SET, .offset = ARG(select), .max = -1, .conflicts = "hot",
	  .help = "only pages not accessed during --interval, the same way" },
	{ .name = "interval", .arg = "SEC", .store = CLI_PARSE, .parse = migrate_parse_interval,
	  .help = "how long to watch for --hot/--cold (default 5)" },
	{ .name = "jobs", .arg = "N", .store = CLI_PARSE, .parse = migrate_parse_jobs,
	  .help = "move up to N processes, or parts of one, at once\n"
		  "(default: [migrate] jobs in " MIGRATE_CONFIG ", else 1)" },
	{ .name = "config", .arg = "FILE", .store = CLI_STRING, .offset = ARG(config), .complete = CLI_C_FILE,
	  .help = "read [migrate] from FILE" },
	{ NULL },
};
static const struct out_table *const tables[] = { &migrate_table, NULL };
static const struct migrate_args defaults = { .mo = { .to = -1, .tolerance_pct = 5 }, .interval_ms = 5000 };

const struct cli_command command_migrate = {
	.name = "migrate",
	.summary = "move chosen processes' pages to a node or tier, once, with a report",
	.synopsis = "(--pid LIST | --comm NAME | --cgroup PATH)... (--to NODE | --to-tier N|fastest|slowest)\n"
		    "[--from NODES|tierN] [--hot|--cold [--interval SEC]] [--max-bytes SIZE] [--rate MB/s]\n"
		    "[--jobs N] [--dry-run] [-j]\n"
		    "(--pid LIST | --comm NAME | --cgroup PATH)... --spread weighted\n"
		    "[--nodes NODES|tierN,... | --weights N=W,...] [--tolerance PCT] [--max-bytes SIZE] [--rate MB/s]\n"
		    "[--jobs N] [--dry-run] [-j]",
	.about = "Move the pages of the chosen processes to a node, once: promote to a faster\n"
		 "tier or demote to a slower one. The whole process goes with migrate_pages(2);\n"
		 "with a byte or rate limit (or --dry-run, --hot, --cold) page by page with\n"
		 "move_pages(2) in batches, each page that cannot move counted by errno.\n"
		 "With --spread weighted, spread them over nodes by weight instead.",
	.exit_help = "Exit: 0 all moved, 64 some pages or processes failed (each named), 1 failure.",
	.opts = opts,
	.tables = tables,
	.args_size = sizeof(struct migrate_args),
	.args_init = &defaults,
	.max_operands = 0,
	.flags = CLI_NO_CONTEXT | CLI_CHECK_COLUMNS,
	.run = run,
};
