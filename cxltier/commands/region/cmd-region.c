// SPDX-License-Identifier: GPL-2.0-only
/* cmd-region.c - `cxltier region create|destroy`: a CXL RAM region over
 * memdevs, or regions taken apart (the jobs: lib/jobs/region-change.h; how
 * a region is shown: region-show.c) */
#include <stddef.h>
#include <stdint.h>
#include "cli/cli.h"
#include "cli/job-exit.h"
#include "cli/progress.h"
#include "cli/run-signals.h"
#include "region-show.h"
#include "core/context.h"
#include "jobs/region-change.h"

struct create_args {
	const char *decoder;
	unsigned ways, granularity;
	uint64_t size;
	bool dry_run;
};

struct destroy_args {
	bool offline, dry_run;
	unsigned timeout;
};

/* what the job made or took apart shown, else its status */
static int shown(struct cmd_env *env, struct ct_region_change_report *r)
{
	int rc = region_show(env, r);

	rc = rc ? rc : cmd_job_exit(r->end);
	ct_region_change_report_free(r);
	return rc;
}

static int create_run(struct cmd_env *env, void *args, int argc, char **argv)
{
	const struct create_args *a = args;
	struct ct_region_change_report r;
	struct ct_job_signals sig;
	struct progress pg;

	run_signals_begin(&sig, !a->dry_run);
	progress_begin(&pg, env, "region create");
	ct_region_change_create(env->ctx, &(struct ct_region_create_opts){ .memdevs = argv, .n = argc,
		.root_decoder = a->decoder, .ways = a->ways, .granularity = a->granularity, .size = a->size,
		.dry_run = a->dry_run, .signals = sig, .progress = progress_tell(&pg) }, &r);
	progress_end(&pg);
	run_signals_end();
	return shown(env, &r);
}

static int destroy_run(struct cmd_env *env, void *args, int argc, char **argv)
{
	const struct destroy_args *a = args;
	struct ct_region_change_report r;
	struct ct_job_signals sig;
	struct progress pg;

	run_signals_begin(&sig, !a->dry_run);
	progress_begin(&pg, env, "region destroy");
	ct_region_change_destroy(env->ctx, &(struct ct_region_destroy_opts){ .regions = argv, .n = argc,
		.offline = a->offline, .dry_run = a->dry_run, .timeout_s = a->timeout, .signals = sig,
		.progress = progress_tell(&pg) }, &r);
	progress_end(&pg);
	run_signals_end();
	return shown(env, &r);
}

static const struct out_table *const tables[] = { &region_table, NULL };

#define CREATE(field) offsetof(struct create_args, field)
static const struct cli_opt create_opts[] = {
	{ .name = "decoder", .arg = "ROOT", .store = CLI_STRING, .offset = CREATE(decoder),
	  .complete = CLI_C_DECODER, .help = "the root decoder (CXL window); default: the first that can take them" },
	{ .name = "ways", .key = 'w', .arg = "N", .store = CLI_UINT, .offset = CREATE(ways), .max = 1 << 20,
	  .help = "must equal the number of memdevs (a check)" },
	{ .name = "granularity", .key = 'g', .arg = "BYTES", .store = CLI_UINT, .offset = CREATE(granularity),
	  .max = 1 << 20, .help = "interleave granularity (default: the root decoder's)" },
	{ .name = "size", .key = 's', .arg = "SIZE", .store = CLI_SIZE, .offset = CREATE(size),
	  .help = "total size: 512M, 1.5G, 1GiB, 1GB (10^9 bytes);\ndefault: all they share" },
	{ .name = "dry-run", .store = CLI_FLAG, .offset = CREATE(dry_run), .help = "show the plan; change nothing" },
	{ NULL },
};

static const struct cli_command command_region_create = {
	.name = "create",
	.summary = "create a CXL RAM region over memdevs (interleaved when several)",
	.synopsis = "MEMDEV... [-d ROOT] [-w WAYS] [-g GRANULARITY] [-s SIZE] [--dry-run] [-j]",
	.about = "Create a CXL RAM region over memdevs (interleaved when several). MEMDEV: memN, N,\n"
		 "a serial (0x... or decimal) or the PCI device.",
	.opts = create_opts,
	.tables = tables,
	.args_size = sizeof(struct create_args),
	.operands = "MEMDEV",
	.operand_kind = CLI_C_MEMDEV,
	.min_operands = 1,
	.max_operands = -1,
	.missing = "give the memdevs: cxltier region create MEMDEV...",
	.run = create_run,
};

#define DESTROY(field) offsetof(struct destroy_args, field)
static const struct cli_opt destroy_opts[] = {
	{ .name = "offline", .store = CLI_FLAG, .offset = DESTROY(offline),
	  .help = "offline the region's memory first (refused while online otherwise)" },
	{ .name = "force", .store = CLI_FLAG, .offset = DESTROY(offline),
	  .help = "the same, as 'cxl destroy-region -f' users type it; a block that cannot\n"
		  "go offline stops the destroy and the memory is put back online (ndctl's\n"
		  "-f goes on and leaks the address space)" },
	{ .name = "timeout", .arg = "SEC", .store = CLI_SECONDS, .offset = DESTROY(timeout), .max = 86400,
	  .help = "per-block limit when offlining, and for the lock" },
	{ .name = "dry-run", .store = CLI_FLAG, .offset = DESTROY(dry_run), .help = "show the steps; change nothing" },
	{ NULL },
};

static const struct cli_command command_region_destroy = {
	.name = "destroy",
	.summary = "take CXL regions apart",
	.synopsis = "REGION... [--offline|-f] [--timeout SEC] [--dry-run] [-j]",
	.about = "Take regions apart: unbind, reset the decoders, free the endpoint decoders'\n"
		 "capacity, delete; their online memory offlined first with --offline.",
	.opts = destroy_opts,
	.tables = tables,
	.args_size = sizeof(struct destroy_args),
	.operands = "REGION",
	.operand_kind = CLI_C_REGION,
	.min_operands = 1,
	.max_operands = -1,
	.missing = "give the region to destroy: cxltier region destroy REGION",
	.run = destroy_run,
};

static const struct cli_command *const subcommands[] = { &command_region_create, &command_region_destroy, NULL };

const struct cli_command command_region = {
	.name = "region",
	.summary = "create a CXL RAM region over memdevs (interleaved), or destroy one",
	.about = "Create a CXL RAM region over memdevs (interleaved when several), or destroy one.",
	.notes = "JSON: {\"regions\":[...]} as in 'cxltier list -j'",
	.tables = tables,
	.operands = "'create' or 'destroy'",
	.subcommands = subcommands,
};
