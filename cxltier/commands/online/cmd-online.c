// SPDX-License-Identifier: GPL-2.0-only
/* cmd-online.c - `cxltier online`: memory blocks of dax devices, regions,
 * memdevs, nodes or block ranges into ZONE_MOVABLE (by default), or as the
 * policy file says (the jobs: lib/jobs/blocks-change.h, policy-online.h;
 * the report: render/blocks-table.h) */
#include <stddef.h>
#include "cli/cli.h"
#include "cli/job-exit.h"
#include "cli/progress.h"
#include "cli/run-signals.h"
#include "render/blocks-table.h"
#include "render/recovered-json.h"
#include "core/conf.h"
#include "core/context.h"
#include "core/say.h"
#include "jobs/blocks-change.h"
#include "jobs/policy-online.h"

enum { ZONE_MOVABLE, ZONE_NORMAL };	/* --zone's words */

struct online_args {
	int zone;
	bool force, reonline, convert, whole_region, dry_run, rollback, policy, split;
	unsigned timeout;
	const char *config;
};

/* what the command line asks of the zone; an exit code */
static int check_zone(struct cmd_env *env, const struct online_args *a)
{
	if (a->zone == ZONE_NORMAL && !a->force) {
		cmd_err(env, "--zone normal puts the memory where the kernel can pin it: it can then never be offlined "
			"or removed reliably; add --force if that is what you want");
		return EXIT_USAGE;
	}
	if (a->zone == ZONE_NORMAL)
		cmd_warn(env, "onlining into ZONE_NORMAL: this memory can never be removed reliably");
	return EXIT_OK;
}

/* the job the options ask for, under the run's signal handlers */
static enum ct_job_end job(struct cmd_env *env, const struct online_args *a, char **targets, int n,
			      struct ct_blocks_change_report *r)
{
	struct ct_job_signals sig;
	struct progress pg;
	enum ct_job_end st;

	run_signals_begin(&sig, !a->dry_run);
	progress_begin(&pg, env, "online");
	if (a->policy)
		st = ct_policy_online(env->ctx, &(struct ct_policy_online_opts){
			.config = a->config, .targets = targets, .ntargets = n, .reonline = a->reonline,
			.dry_run = a->dry_run, .rollback = a->rollback, .timeout_s = a->timeout, .signals = sig,
			.progress = progress_tell(&pg) }, r);
	else
		st = ct_blocks_change(env->ctx, &(struct ct_blocks_change_opts){
			.want = a->zone == ZONE_NORMAL ? CT_WANT_KERNEL : CT_WANT_MOVABLE, .targets = targets,
			.ntargets = n, .reonline = a->reonline, .convert = a->convert, .force = a->force,
			.whole_region = a->whole_region, .dry_run = a->dry_run, .rollback = a->rollback,
			.timeout_s = a->timeout, .signals = sig, .progress = progress_tell(&pg) }, r);
	progress_end(&pg);
	run_signals_end();
	return st;
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
	const struct online_args *a = args;
	struct ct_blocks_change_report r;
	char err[256];
	int rc;

	if (!argc && !a->policy) {
		cmd_err(env, "what to online? give a target (daxX.Y, regionN, memN, nodeN, memoryN[-M], all)");
		return EXIT_USAGE;
	}
	if ((rc = check_zone(env, a)))
		return rc;
	if (out_check_columns(&env->out, &blocks_table, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		return EXIT_USAGE;
	}
	if ((rc = cmd_context(env)))
		return rc;
	rc = cmd_job_exit(job(env, a, argv, argc, &r));
	if (r.shown)
		rc = show(env, &r, a->split);
	ct_blocks_change_report_free(&r);
	return rc;
}

#define ARG(field) offsetof(struct online_args, field)
static const struct cli_opt opts[] = {
	{ .name = "zone", .arg = "ZONE", .store = CLI_CHOICE, .offset = ARG(zone), .words = "movable normal",
	  .complete = CLI_C_WORDS,
	  .help = "movable (default) or normal; normal needs --force: such\nmemory can never be offlined reliably again" },
	{ .name = "movable", .store = CLI_SET, .offset = ARG(zone), .max = ZONE_MOVABLE,
	  .help = "the same as --zone movable" },
	{ .name = "force", .store = CLI_FLAG, .offset = ARG(force),
	  .help = "--zone normal: do it all the same; --convert: hold the\nkernel's own onlining off while the device switches" },
	{ .name = "reonline", .store = CLI_FLAG, .offset = ARG(reonline),
	  .help = "blocks online in another zone: offline, online movable" },
	{ .name = "convert", .store = CLI_FLAG, .offset = ARG(convert),
	  .help = "a dax device in devdax mode: switch it to system-ram first\n(loads kmem when needed)" },
	{ .name = "whole-region", .store = CLI_FLAG, .offset = ARG(whole_region),
	  .help = "a memdev interleaved with others: online its whole region\n(every device of the set); refused without it" },
	{ .name = "dry-run", .store = CLI_FLAG, .offset = ARG(dry_run), .help = "show what would change, change nothing" },
	{ .name = "split", .store = CLI_FLAG, .offset = ARG(split),
	  .help = "the table one row a block (by default a row is a range of\nconsecutive blocks that went alike, as lsmem merges them)" },
	{ .name = "rollback", .store = CLI_FLAG, .offset = ARG(rollback),
	  .help = "when a block fails, return the others to where they were" },
	{ .name = "timeout", .arg = "SEC", .store = CLI_SECONDS, .offset = ARG(timeout), .max = 86400,
	  .help = "per block, and for the lock: give up after SEC seconds\n(default 30)" },
	{ .name = "policy", .store = CLI_FLAG, .offset = ARG(policy),
	  .help = "decide per /etc/cxltier.conf (udev hotplug); without\nTARGET: all CXL memory; a memN without a region gets one\nwhen the policy says create-region = yes" },
	{ .name = "config", .arg = "FILE", .store = CLI_STRING, .offset = ARG(config), .complete = CLI_C_FILE,
	  .help = "the policy file (default " CT_CONF_PATH ")" },
	{ NULL },
};
static const struct out_table *const tables[] = { &blocks_table, NULL };
static const struct online_args defaults = { .zone = ZONE_MOVABLE, .timeout = 30 };

const struct cli_command command_online = {
	.name = "online",
	.summary = "online memory blocks into ZONE_MOVABLE (dax, region, memdev, node, blocks)",
	.synopsis = "TARGET... [--zone movable|normal [--force]] [--reonline] [--convert] [--whole-region]"
		    " [--dry-run] [--rollback] [--timeout SEC]\n"
		    "--policy [--config FILE] [TARGET...]",
	.about = "Online memory blocks, in ZONE_MOVABLE unless asked otherwise, so that they\n"
		 "can be offlined and removed again. TARGET: daxX.Y, regionN, memN (all its\n"
		 "regions), nodeN, memoryN, memoryN-M, or all (every CXL-backed block).",
	.exit_help = "Exit: 0 all as asked, 64 partial (each failed block named), 1 failure, 77 no memory hotplug.",
	.opts = opts,
	.tables = tables,
	.args_size = sizeof(struct online_args),
	.args_init = &defaults,
	.operands = "TARGET",
	.operand_kind = CLI_C_TARGET,
	.max_operands = -1,
	.flags = CLI_NO_CONTEXT,
	.run = run,
};
