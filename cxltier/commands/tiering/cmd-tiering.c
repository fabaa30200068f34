// SPDX-License-Identifier: GPL-2.0-only
/* cmd-tiering.c - `cxltier tiering`: the kernel's own tiering switches
 * (demotion in reclaim, NUMA balancing's mode, its promotion rate limit)
 * shown, or set under the lock with a record of the change (the job:
 * lib/jobs/tiering-set.h; the report: tiering-json.c) */
#include <stddef.h>
#include <stdint.h>
#include "cli/cli.h"
#include "cli/job-exit.h"
#include "cli/option-values.h"
#include "cli/run-signals.h"
#include "render/recovered-json.h"
#include "tiering-json.h"
#include "core/context.h"
#include "jobs/tiering-set.h"

struct tiering_args {
	int demotion, balancing;	/* -1: not given; else the index of the word */
	int64_t promote_rate;		/* -1: not given */
	bool dry_run;
	unsigned timeout;
};

/* --promote-rate: MB/s, 0 to the kernel's int */
static int parse_rate(struct cmd_env *env, void *args, const char *arg)
{
	struct tiering_args *a = args;
	uint64_t v;

	if (value_rate_mbps(arg, CT_PROMOTE_RATE_MAX, &v)) {
		cmd_err(env, "--promote-rate %s: not a rate: give MB/s from 0 to %d (\"65536\"), or a size a second "
			"in whole MiB (\"512M\", \"1G/s\")", arg, CT_PROMOTE_RATE_MAX);
		return EXIT_USAGE;
	}
	a->promote_rate = (int64_t)v;
	return EXIT_OK;
}

/* the table or the JSON of root; an exit code */
static int print(struct cmd_env *env, const struct out_table *t, json_object *root)
{
	char err[256];
	int rc = EXIT_OK;

	if (out_print(&env->out, t, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	}
	json_object_put(root);
	return rc;
}

static int show(struct cmd_env *env)
{
	struct ct_tiering_settings t;

	ct_tiering_settings_read(&env->ctx->sys, &t);
	return print(env, &tiering_show_table, tiering_json(&t, NULL));
}

static int set(struct cmd_env *env, const struct tiering_args *a)
{
	struct ct_tiering_set_opts o = {
		.want = { a->demotion, a->balancing, a->promote_rate }, .dry_run = a->dry_run, .timeout_s = a->timeout,
	};
	struct ct_tiering_set_report r;
	json_object *root, *rec;
	char err[256];
	int rc;

	if (out_check_columns(&env->out, &tiering_set_table, err, sizeof(err))) {
		cmd_err(env, "%s", err);	/* before anything changes */
		return EXIT_USAGE;
	}
	run_signals_begin(&o.signals, !a->dry_run);
	rc = cmd_job_exit(ct_tiering_set(env->ctx, &o, &r));
	run_signals_end();
	if (r.end == CT_JOB_UNSUPPORTED)
		return rc;
	root = tiering_json(NULL, &r);
	if ((rec = recovered_json(&r.recovered)))
		json_object_object_add(root, "recovered", rec);
	return print(env, &tiering_set_table, root) ? EXIT_USAGE : rc;
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	const struct tiering_args *a = args;
	bool setting = a->demotion >= 0 || a->balancing >= 0 || a->promote_rate >= 0;

	(void)argc, (void)argv;
	if (a->dry_run && !setting) {
		cmd_err(env, "--dry-run: nothing to set: give --demotion, --balancing or --promote-rate");
		return EXIT_USAGE;
	}
	return setting ? set(env, a) : show(env);
}

#define ARG(field) offsetof(struct tiering_args, field)
static const struct cli_opt opts[] = {
	{ .name = "demotion", .arg = "on|off", .store = CLI_CHOICE, .offset = ARG(demotion), .words = "off on",
	  .complete = CLI_C_WORDS,
	  .help = "demotion in reclaim: cold pages move to the next lower\ntier (CXL memory) instead of being dropped or swapped" },
	{ .name = "balancing", .arg = "MODE", .store = CLI_CHOICE, .offset = ARG(balancing),
	  .words = "off normal tiering normal+tiering", .complete = CLI_C_WORDS,
	  .help = "NUMA balancing: off, normal (pages follow their tasks'\nnodes), tiering (hot pages promoted from lower tiers),\nor normal+tiering" },
	{ .name = "promote-rate", .arg = "MB/S", .store = CLI_PARSE, .parse = parse_rate,
	  .help = "the most a node takes in promoted pages a second, in\nMB/s (\"65536\", \"1G/s\"); 0 stops promotion" },
	{ .name = "dry-run", .store = CLI_FLAG, .offset = ARG(dry_run), .help = "show what would be written, write nothing" },
	{ .name = "timeout", .arg = "SEC", .store = CLI_SECONDS, .offset = ARG(timeout), .max = 86400,
	  .help = "for the lock: give up after SEC seconds (default 30)" },
	{ NULL },
};
static const struct out_table *const tables[] = { &tiering_show_table, NULL };
static const struct tiering_args defaults = { .demotion = -1, .balancing = -1, .promote_rate = -1, .timeout = 30 };

const struct cli_command command_tiering = {
	.name = "tiering",
	.summary = "the kernel's tiering switches: demotion, NUMA balancing, promotion rate",
	.synopsis = "[--demotion on|off] [--balancing off|normal|tiering|normal+tiering] [--promote-rate MB/S]"
		    " [--dry-run] [--timeout SEC]",
	.about = "Show the kernel's own tiering switches (with no option), or set them: demotion\n"
		 "of cold pages to lower tiers in reclaim, NUMA balancing's mode (its\n"
		 "memory-tiering bit promotes hot pages from lower tiers), and the promotion rate\n"
		 "limit. A run killed between two writes is set back by the next run.",
	.notes = "JSON: {\"switches\":[{\"name\",\"file\",\"value\",\"kernel_value\",...}],\"recovered\":[...]}",
	.exit_help = "Exit: 0 done, 1 failure (the kernel refused: what was written set back), 2 usage,\n"
		     "77 the kernel has no such switch (its file named).",
	.opts = opts,
	.tables = tables,
	.args_size = sizeof(struct tiering_args),
	.args_init = &defaults,
	.operand_kind = CLI_C_NONE,
	.max_operands = 0,
	.run = run,
};
