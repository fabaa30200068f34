// SPDX-License-Identifier: GPL-2.0-only
/* cmd-offline.c - `cxltier offline`: take memory blocks offline, with
 * bounded EBUSY retries, so the memory can be removed; with --remove, take
 * memdevs out (the jobs: lib/jobs/blocks-change.h, offline-remove.h; the
 * reports: render/blocks-table.h, offline-remove-table.c) */
#include <stddef.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/job-exit.h"
#include "cli/progress.h"
#include "cli/run-signals.h"
#include "offline-remove-table.h"
#include "render/blocks-table.h"
#include "render/recovered-json.h"
#include "core/context.h"
#include "core/say.h"
#include "jobs/blocks-change.h"
#include "jobs/offline-remove.h"

struct offline_args {
	bool whole_region, dry_run, rollback, remove;	/* --remove: never with --rollback (the table says) */
	bool split;
	unsigned timeout;
};

static int columns_checked(struct cmd_env *env, const struct out_table *t)
{
	char err[256];

	if (!out_check_columns(&env->out, t, err, sizeof(err)))
		return EXIT_OK;
	cmd_err(env, "%s", err);
	return EXIT_USAGE;
}

/* --remove: each memdev taken out; an exit code */
static int remove_memdevs(struct cmd_env *env, const struct offline_args *a, char **memdevs, int n)
{
	struct ct_offline_remove_report r;
	struct ct_job_signals sig;
	struct progress pg;
	char err[256];
	int rc;

	for (int i = 0; i < n; i++)
		if (strncmp(memdevs[i], "mem", 3) || !strncmp(memdevs[i], "memory", 6)) {
			cmd_err(env, "--remove takes memdevs (memN), not '%s'", memdevs[i]);
			return EXIT_USAGE;
		}
	if ((rc = columns_checked(env, &remove_table)))
		return rc;
	run_signals_begin(&sig, !a->dry_run);
	progress_begin(&pg, env, "offline");
	ct_offline_remove(env->ctx, &(struct ct_offline_remove_opts){ .memdevs = memdevs, .n = n,
		.whole_region = a->whole_region, .dry_run = a->dry_run, .timeout_s = a->timeout, .signals = sig,
		.progress = progress_tell(&pg) }, &r);
	progress_end(&pg);
	run_signals_end();
	rc = cmd_job_exit(r.end);
	if (r.shown && remove_table_print(&env->out, &r, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	}
	ct_offline_remove_report_free(&r);
	return rc;
}

/* the blocks, then the lines that close the run; an exit code */
static int show(struct cmd_env *env, const struct ct_blocks_change_report *r, bool split)
{
	struct blocks_line lines[BLOCKS_LINES];
	char err[256];

	if (blocks_table_print(&env->out, r, split, env->out.json ? recovered_json(&r->recovered) : NULL, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		return EXIT_USAGE;
	}
	for (size_t i = 0, n = blocks_closing(r, lines); i < n; i++)
		ct_say(&env->ctx->say, lines[i].kind, "%s", lines[i].text);	/* as the job's own */
	return cmd_job_exit(r->end);
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	const struct offline_args *a = args;
	struct ct_blocks_change_report r;
	struct ct_job_signals sig;
	struct progress pg;
	int rc;

	if ((rc = cmd_context(env)))
		return rc;
	if (a->remove)
		return remove_memdevs(env, a, argv, argc);
	if ((rc = columns_checked(env, &blocks_table)))
		return rc;
	run_signals_begin(&sig, !a->dry_run);
	progress_begin(&pg, env, "offline");
	ct_blocks_change(env->ctx, &(struct ct_blocks_change_opts){ .want = CT_WANT_OFFLINE, .targets = argv,
		.ntargets = argc, .whole_region = a->whole_region, .dry_run = a->dry_run, .rollback = a->rollback,
		.timeout_s = a->timeout, .signals = sig, .progress = progress_tell(&pg) }, &r);
	progress_end(&pg);
	run_signals_end();
	rc = cmd_job_exit(r.end);
	if (r.shown)
		rc = show(env, &r, a->split);
	ct_blocks_change_report_free(&r);
	return rc;
}

#define ARG(field) offsetof(struct offline_args, field)
static const struct cli_opt opts[] = {
	{ .name = "whole-region", .store = CLI_FLAG, .offset = ARG(whole_region),
	  .help = "a memdev interleaved with others: offline its whole region\n(every device of the set); refused without it" },
	{ .name = "dry-run", .store = CLI_FLAG, .offset = ARG(dry_run), .help = "show what would change, change nothing" },
	{ .name = "split", .store = CLI_FLAG, .offset = ARG(split),
	  .help = "the table one row a block (by default a row is a range of\nconsecutive blocks that went alike, as lsmem merges them)" },
	{ .name = "rollback", .store = CLI_FLAG, .offset = ARG(rollback),
	  .help = "when a block cannot be offlined, online again those that were" },
	{ .name = "timeout", .arg = "SEC", .store = CLI_SECONDS, .offset = ARG(timeout), .max = 86400,
	  .help = "per block, and for the lock: give up after SEC seconds\n(default 30); SIGINT stops cleanly" },
	{ .name = "remove", .store = CLI_FLAG, .offset = ARG(remove), .conflicts = "rollback",
	  .conflict_msg = "--remove keeps what went offline offline (a second run goes on from there): "
			  "--rollback does not apply",
	  .help = "memN: offline the regions it backs, destroy them, disable it\nand say whether the card can be removed; busy blocks are named\nwith the processes that have pages on their node" },
	{ NULL },
};
static const struct out_table *const tables[] = { &blocks_table, &remove_table, NULL };
static const struct offline_args defaults = { .timeout = 30 };

const struct cli_command command_offline = {
	.name = "offline",
	.summary = "offline memory blocks, with bounded retries when busy",
	.synopsis = "TARGET... [--whole-region] [--dry-run] [--rollback] [--timeout SEC]\n"
		    "MEMDEV... --remove [--whole-region] [--dry-run] [--timeout SEC]",
	.about = "Offline memory blocks. TARGET: daxX.Y, regionN, memN, nodeN, memoryN, memoryN-M, or\n"
		 "all (every CXL-backed block). A busy block (pages being migrated away, or\n"
		 "pinned) is retried with back-off until --timeout, then reported.",
	.exit_help = "Exit: 0 all offline (--remove: every memdev safe to remove), 64 partial (each busy block\n"
		     "named), 1 failure, 77 no memory hotplug.",
	.opts = opts,
	.tables = tables,
	.args_size = sizeof(struct offline_args),
	.args_init = &defaults,
	.operands = "TARGET",
	.operand_kind = CLI_C_TARGET,
	.min_operands = 1,
	.max_operands = -1,
	.missing = "what to offline? give a target (daxX.Y, regionN, memN, nodeN, memoryN[-M], all)",
	.flags = CLI_NO_CONTEXT,
	.run = run,
};
