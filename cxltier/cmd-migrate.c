// SPDX-License-Identifier: GPL-2.0-only
/* cmd-migrate.c - `cxltier migrate`: move chosen processes' pages to a node
 * or tier, once, with a before/after report per process */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/json-build.h"
#include "migrate-args.h"
#include "migrate-json.h"
#include "core/context.h"
#include "mm/damon.h"
#include "mm/migrate.h"
#include "core/process.h"
#include "core/sysfs.h"
#include "mm/tiers.h"

static void usage(void)
{
	printf("usage: cxltier migrate (--pid LIST | --comm NAME | --cgroup PATH)...\n"
	       "                       (--to NODE | --to-tier N|fastest|slowest) [--from NODES|tierN]\n"
	       "                       [--hot|--cold [--interval SEC]] [--max-bytes SIZE] [--rate MB/s]\n"
	       "                       [--jobs N] [--dry-run] [-j]\n\n"
	       "Move the pages of the chosen processes to a node, once: promote to a faster\n"
	       "tier or demote to a slower one. The whole process goes with migrate_pages(2);\n"
	       "with a byte or rate limit (or --dry-run, --hot, --cold) page by page with\n"
	       "move_pages(2) in batches, each page that cannot move counted by errno.\n\n"
	       "      --pid LIST        process ids (comma-separated, repeatable)\n"
	       "      --comm NAME       every process with this name\n"
	       "      --cgroup PATH     every process of a cgroup v2 (its path in the cgroup2 mount)\n"
	       "      --to NODE         the target node\n"
	       "      --to-tier T       the first node of tier T (fastest, slowest, or its id)\n"
	       "      --from NODES      only pages on these nodes (or tierN); default: all but the target\n"
	       "      --max-bytes SIZE  move at most this much per process (K, M, G suffixes)\n"
	       "      --rate MB/S       at most this fast (all jobs together), so the process is not stalled\n"
	       "      --dry-run         show what would move, move nothing\n"
	       "      --hot, --cold     only pages accessed (or not) during --interval, as DAMON's\n"
	       "                        virtual-address monitoring sees them (never someone else's DAMON)\n"
	       "      --interval SEC    how long to watch for --hot/--cold (default 5)\n"
	       "      --jobs N          move up to N processes, or parts of one, at once\n"
	       "                        (default: [migrate] jobs in " MIGRATE_CONFIG ", else 1)\n"
	       "      --config FILE     read [migrate] from FILE\n"
	       "Exit: 0 all moved, 64 some pages or processes failed (each named), 1 failure.\n");
	out_columns_help(&migrate_table);
}

static volatile sig_atomic_t stop;
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT };
static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

/* every process chosen by --pid, --comm and --cgroup, once */
static int choose(struct cmd_env *env, const struct migrate_args *a, struct ct_procset *set)
{
	for (size_t i = 0; i < a->npid; i++)
		if (ct_procset_add_pid(&env->ctx->sys, set, a->pids[i]))
			return -1;
	for (size_t i = 0; i < a->ncomm; i++)
		if (ct_procset_add_comm(&env->ctx->sys, set, a->comms[i]))
			return -1;
	for (size_t i = 0; i < a->ncg; i++)
		if (ct_procset_add_cgroup(&env->ctx->sys, set, a->cgroups[i]))
			return -1;
	return 0;
}

static void add_totals(struct ct_migrate_totals *sum, const struct ct_migrate_totals *t)
{
	sum->jobs = t->jobs > sum->jobs ? t->jobs : sum->jobs;
	sum->seconds += t->seconds;
	sum->scan_seconds += t->scan_seconds;
	sum->move_seconds += t->move_seconds;
	sum->bytes_moved += t->bytes_moved;
	sum->bytes_to_move += t->bytes_to_move;
}

/* --hot/--cold: watch each process with DAMON, then move what was chosen
 * right away (the choice is fresh); the jobs share out one process's ranges.
 * A process that cannot be watched (gone, init, a kernel thread) is its own
 * record; only a failure of DAMON itself (or memory) stops the run: its exit
 * status is returned, and what ran before is still reported. */
static int sample_and_move(struct cmd_env *env, const struct migrate_args *a, struct ct_migrate_task *t, size_t n,
			   json_object **sel, struct ct_migrate_totals *sum)
{
	for (size_t i = 0; i < n && !stop; i++) {
		struct ct_access_region *reg = NULL;
		struct ct_migrate_totals one;
		struct ct_damon_run run = { 0 };
		size_t nreg = 0;
		bool watched = false;
		int rc = ct_process_check(&env->ctx->sys, t[i].proc);

		if (!rc)
			rc = ct_process_movable(&env->ctx->sys, t[i].proc);
		if (!rc) {
			watched = true;
			rc = ct_damon_sample(&env->ctx->sys, t[i].proc->pid, a->interval_ms, &stop, &reg, &nreg, &run);
		}
		if (run.stale_owner)
			cmd_warn(env, "removed the DAMON setup that a killed cxltier (pid %d) left behind", run.stale_owner);
		if (run.stat_paused)
			cmd_info(env, 1, "DAMON_STAT paused for %u ms (it holds DAMON exclusively), then on again",
				 a->interval_ms);
		if (watched && (rc == -EOPNOTSUPP || rc == -EBUSY || rc == -EWOULDBLOCK || rc == -EPERM)) {
			cmd_err(env, "%s", ct_context_message(env->ctx));
			return rc == -EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL;
		}
		if (!rc && ct_migrate_select_access(&t[i].sel, reg, nreg, a->select > 0)) {
			free(reg);
			cmd_err(env, "out of memory");
			return EXIT_FAIL;
		}
		if (!rc) {
			sel[i] = json_object_new_object();
			migrate_record_selection(sel[i], a->select, a->interval_ms, reg, nreg);
		}
		free(reg);
		if (rc) {	/* not watched (gone, refused, or DAMON failed for it): nothing of it moves, the error is its record */
			char why[sizeof(t[i].r.error)];
			ct_strlcpy(why, ct_context_message(env->ctx), sizeof(why));
			ct_error_clear(&env->ctx->err);
			t[i].sel.on = true;
			if (!ct_migrate_run(&env->ctx->sys, &a->mo, &t[i], 1, &one))
				add_totals(sum, &one);
			if (!t[i].r.err) {
				t[i].r.err = rc;
				ct_strlcpy(t[i].r.error, why, sizeof(t[i].r.error));
			}
			continue;
		}
		if (ct_migrate_run(&env->ctx->sys, &a->mo, &t[i], 1, &one)) {
			cmd_err(env, "%s", ct_context_message(env->ctx));
			return EXIT_FAIL;
		}
		add_totals(sum, &one);
	}
	return 0;
}

/* one record per process; counts what went well and what did not */
static void report(struct cmd_env *env, const struct migrate_args *a, struct ct_migrate_task *t, size_t n,
		   json_object **sel, json_object *arr, size_t *ok, size_t *bad)
{
	struct ct_tiers tiers = { 0 };

	ct_tiers_load(&env->ctx->sys, &tiers);	/* none: no per-tier figures */
	ct_error_clear(&env->ctx->err);
	for (size_t i = 0; i < n; i++) {
		const struct ct_migrate_result *r = &t[i].r;
		json_object *o;

		if (!r->mechanism && !r->err)
			continue;	/* never reached: stopped by a signal */
		o = json_object_new_object();
		if (sel[i])
			json_object_object_add(o, "selection", json_object_get(json_object_object_get(sel[i], "selection")));
		json_object_array_add(arr, o);
		if (r->err) {
			(*bad)++;
			migrate_record_error(o, r->pid, r->comm, r->error);
			cmd_err(env, "%s", r->error);
			continue;
		}
		migrate_record_result(o, r, a->mo.dry_run, &tiers);
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
	ct_tiers_free(&tiers);
}

int cmd_migrate(int argc, char **argv, struct cmd_env *env)
{
	struct migrate_args a;
	struct ct_procset set = { 0 };
	struct ct_migrate_task *tasks = NULL;
	struct ct_migrate_totals sum = { 0 };
	json_object *root = NULL, **sel = NULL;
	struct sigaction sa;
	size_t ok = 0, bad = 0;
	char err[256];
	int rc, fatal = 0, nofile;

	if ((rc = migrate_parse(argc, argv, env, &a, usage))) {
		rc = cmd_exit_code(rc);
		goto out;
	}
	/* a usage error means nothing was done: -o is checked before anything moves */
	if (out_check_columns(&env->out, &migrate_table, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	if ((rc = cmd_context(env)) || (rc = migrate_resolve(env, &a)))
		goto out;
	/* a pidfd per chosen process, held for the run: as many as allowed */
	if ((nofile = ct_nofile_raise()))
		cmd_info(env, 1, "the limit of open files stays as it was: %s", strerror(-nofile));
	ct_migrate_setup();
	if (choose(env, &a, &set)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		rc = EXIT_FAIL;
		goto out;
	}
	a.mo.stop = &stop;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	/* every way out that can run code tears down what was set up */
	for (size_t k = 0; k < sizeof(stop_signals) / sizeof(stop_signals[0]); k++)
		sigaction(stop_signals[k], &sa, NULL);
	tasks = calloc(set.count + 1, sizeof(*tasks));
	sel = calloc(set.count + 1, sizeof(*sel));
	if (!tasks || !sel) {
		cmd_err(env, "out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < set.count; i++)
		tasks[i].proc = &set.proc[i];
	/* fatal: DAMON itself failed; the processes before it are still reported */
	if (a.select) {
		sum.jobs = 1;	/* (the schema's floor, when DAMON fails before any run) */
		fatal = sample_and_move(env, &a, tasks, set.count, sel, &sum);
	} else if (ct_migrate_run(&env->ctx->sys, &a.mo, tasks, set.count, &sum)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		rc = EXIT_FAIL;
		goto out;
	}
	root = json_object_new_object();
	report(env, &a, tasks, set.count, sel, jb_arr(root, "processes"), &ok, &bad);
	migrate_record_run(root, &sum, env);
	if (out_print(&env->out, &migrate_table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	rc = fatal ? fatal : !bad && !stop ? EXIT_OK : ok ? EXIT_PARTIAL : EXIT_FAIL;
	if (stop)
		cmd_err(env, "stopped by a signal: the processes not named above were not moved");
out:
	for (size_t i = 0; tasks && i < set.count; i++) {
		ct_migrate_selection_free(&tasks[i].sel);
		json_object_put(sel[i]);
	}
	free(tasks);
	free(sel);
	ct_procset_free(&set);
	json_object_put(root);
	migrate_args_free(&a);
	return rc;
}
