// SPDX-License-Identifier: GPL-2.0-only
/* cmd-poison.c - `cxltier poison [MEMDEV|REGION...]`: each memdev's poison
 * list read by the kernel on demand, with the region and host address of
 * every range; `poison inject|clear` (test tools: poison-change.c). The
 * memdevs the operands name: poison-select.c; the lists as JSON and the
 * table's rows: render/poison-json.c; the columns: poison-table.c */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include "cli/cli.h"
#include "poison-change.h"
#include "poison-select.h"
#include "poison-table.h"
#include "render/poison-json.h"
#include "core/context.h"
#include "cxl/topology.h"
#include "events/poison.h"

/* {"poison":[...], "memdevs":[...]} or the table's tree; an exit code */
static int print(struct cmd_env *env, struct poison_out *o)
{
	json_object *root = json_object_new_object();
	char err[256];
	int rc = EXIT_OK;

	if (env->out.json) {
		json_object_object_add(root, "poison", json_object_get(o->records));
		json_object_object_add(root, "memdevs", json_object_get(o->memdevs));
	} else {
		json_object_object_add(root, "memdevs", json_object_get(o->rows));
	}
	if (out_print(&env->out, &poison_table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	}
	json_object_put(root);
	return rc;
}

/* a list read, but not whole: said, and counted as a failure */
static bool incomplete(struct cmd_env *env, const struct ct_memdev *m, const struct ct_poison_list *l)
{
	if (l->lost)
		cmd_err(env, "%s: the trace buffer dropped %lu poison records: the list is incomplete; run again",
			m->name, l->lost);
	else if (l->scanning)
		cmd_err(env, "%s: a media scan is running on the device: its poison list may be incomplete "
			"(the ranges read so far are shown); read it again when the scan has finished", m->name);
	return l->lost || l->scanning;
}

/* every memdev w names, read with one reader; an exit code */
static int read_all(struct cmd_env *env, const struct ct_topology *t, struct poison_want *w, struct poison_out *out)
{
	size_t ok = 0, unsupported = 0, failed = 0;
	struct ct_poison_reader *r;
	int rc;

	if (ct_poison_open(env->ctx, &r))
		return cmd_fail(env, EXIT_FAIL);
	for (size_t k = 0; k < t->nmemdevs; k++) {
		const struct ct_memdev *m = &t->memdevs[k];
		struct ct_poison_list l;
		if (!w->direct[k] && !w->via_region[k])
			continue;
		if ((rc = ct_poison_read(r, m->name, &l))) {
			cmd_err(env, "%s", ct_context_message(env->ctx));
			poison_out_failed(out, m, ct_context_message(env->ctx), rc == -EOPNOTSUPP);
			rc == -EOPNOTSUPP ? unsupported++ : failed++;
		} else {
			poison_out_add(out, m, &l, t, w->direct[k] ? NULL : poison_in_regions, w);
			incomplete(env, m, &l) ? failed++ : ok++;
		}
		ct_poison_list_free(&l);
		ct_error_clear(&env->ctx->err);
	}
	if (ct_poison_close(r)) {
		cmd_warn(env, "%s", ct_context_message(env->ctx));
		ct_error_clear(&env->ctx->err);
	}
	if (!failed && !unsupported)
		return EXIT_OK;
	if (ok)
		return EXIT_PARTIAL;
	return failed ? EXIT_FAIL : EXIT_UNSUPPORTED;
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	struct ct_topology t = { 0 };
	struct poison_want w = { 0 };
	struct poison_out out;
	int rc, prc;

	(void)args;
	if (!env->ctx->live) {
		cmd_err(env, "poison asks the devices for their poison lists: not possible on a captured tree (--sysroot)");
		return EXIT_UNSUPPORTED;
	}
	if (ct_topology_load(env->ctx, &t))
		return cmd_fail(env, EXIT_FAIL);
	if (!(rc = poison_select(env, &t, argc, argv, &w))) {
		if (!t.nmemdevs && !env->out.json)
			fprintf(stderr, "cxltier poison: no CXL memdevs on this system\n");
		poison_out_init(&out);
		rc = read_all(env, &t, &w, &out);
		if ((prc = print(env, &out)))
			rc = prc;
		poison_out_free(&out);
	}
	poison_want_free(&w);
	ct_topology_free(&t);
	return rc;
}

/* ---- poison inject|clear ---- */

struct change_args {
	bool yes;
};

/* one range injected or cleared, and what the kernel traced shown */
static int change(struct cmd_env *env, const struct change_args *a, bool inject, int argc, char **argv)
{
	const struct ct_memdev *m;
	struct ct_topology t = { 0 };
	struct ct_poison_list traced;
	struct poison_out out;
	uint64_t dpa, len;
	int rc;

	if ((rc = poison_change_args(env, inject, argc, argv, a->yes, &dpa, &len)) || (rc = cmd_context(env)))
		return rc;
	if (!env->ctx->live) {
		cmd_err(env, "poison %s acts on a live device: not possible on a captured tree (--sysroot)",
			inject ? "inject" : "clear");
		return EXIT_UNSUPPORTED;
	}
	if (ct_topology_load(env->ctx, &t))
		return cmd_fail(env, EXIT_FAIL);
	if (!(m = poison_change_memdev(env, &t, argv[0]))) {
		ct_topology_free(&t);
		return EXIT_FAIL;
	}
	if (!(rc = poison_change_apply(env, m, inject, dpa, len, &traced))) {
		poison_out_init(&out);
		poison_out_add(&out, m, &traced, &t, NULL, NULL);
		rc = print(env, &out);
		poison_out_free(&out);
	}
	ct_poison_list_free(&traced);
	ct_topology_free(&t);
	return rc;
}

static int run_inject(struct cmd_env *env, void *args, int argc, char **argv)
{
	return change(env, args, true, argc, argv);
}

static int run_clear(struct cmd_env *env, void *args, int argc, char **argv)
{
	return change(env, args, false, argc, argv);
}

static const struct cli_opt change_opts[] = {
	{ .name = "yes-really", .store = CLI_FLAG, .offset = offsetof(struct change_args, yes),
	  .help = "required: the data there is lost" },
	{ NULL },
};

#define CHANGE_ABOUT \
	"TEST TOOLS, for checking that poison is reported and handled. They destroy data:\n" \
	"inject makes the device report poison for that memory (real media then fails\n" \
	"reads of it: a machine check when the memory is in use), clear writes zeroes\n" \
	"over it. Through the kernel's debugfs files (cxl/MEMDEV/inject_poison and\n" \
	"clear_poison: debugfs mounted, a device with Inject/Clear Poison; root).\n\n" \
	"  MEMDEV              memN, N, a serial or the PCI device\n" \
	"  DPA                 device physical address, 64-byte aligned (0x... or decimal)\n" \
	"  LENGTH              bytes, a multiple of 64 (K/M suffix), 64 by default, at most 64K"
#define CHANGE_JSON "JSON: {\"poison\":[...]} what the kernel traced: DPA, HPA, region"

static const struct out_table *const tables[] = { &poison_table, NULL };

static const struct cli_command command_poison_inject = {
	.name = "inject",
	.summary = "make the device report poison at a DPA range (a test tool)",
	.synopsis = "MEMDEV DPA [LENGTH] --yes-really [-j]",
	.about = CHANGE_ABOUT,
	.notes = CHANGE_JSON,
	.opts = change_opts,
	.tables = tables,
	.args_size = sizeof(struct change_args),
	.operands = "MEMDEV DPA [LENGTH]",
	.operand_kind = CLI_C_MEMDEV,
	.min_operands = 2,
	.max_operands = 3,
	.missing = "poison inject MEMDEV DPA [LENGTH] (see 'cxltier poison inject --help')",
	.surplus = "poison inject MEMDEV DPA [LENGTH] (see 'cxltier poison inject --help')",
	.flags = CLI_NO_CONTEXT,
	.run = run_inject,
};

static const struct cli_command command_poison_clear = {
	.name = "clear",
	.summary = "write zeroes over a DPA range, clearing its poison (a test tool)",
	.synopsis = "MEMDEV DPA [LENGTH] --yes-really [-j]",
	.about = CHANGE_ABOUT,
	.notes = CHANGE_JSON,
	.opts = change_opts,
	.tables = tables,
	.args_size = sizeof(struct change_args),
	.operands = "MEMDEV DPA [LENGTH]",
	.operand_kind = CLI_C_MEMDEV,
	.min_operands = 2,
	.max_operands = 3,
	.missing = "poison clear MEMDEV DPA [LENGTH] (see 'cxltier poison clear --help')",
	.surplus = "poison clear MEMDEV DPA [LENGTH] (see 'cxltier poison clear --help')",
	.flags = CLI_NO_CONTEXT,
	.run = run_clear,
};

static const struct cli_command *const subcommands[] = { &command_poison_inject, &command_poison_clear, NULL };

const struct cli_command command_poison = {
	.name = "poison",
	.summary = "the devices' poison lists (media errors) with region and host address; inject/clear",
	.synopsis = "[MEMDEV|REGION...] [-j] [-o COLS] [-n] [-b]\n"
		    "inject MEMDEV DPA [LENGTH] --yes-really   (a test tool)\n"
		    "clear MEMDEV DPA [LENGTH] --yes-really    (a test tool)",
	.about = "Read the poison list (media errors) of CXL memdevs: the kernel asks each\n"
		 "device for it (Get Poison List, through memN/trigger_poison_list; root)\n"
		 "and traces every range with the region and host address that map it.\n"
		 "A region stands for its memdevs and shows the ranges inside it.\n"
		 "No argument: every memdev.",
	.notes = "JSON: {\"poison\":[...], \"memdevs\":[...]} (a summary per memdev)\n"
		 "'cxltier poison inject --help' for the test tools.",
	.exit_help = "Exit: 0 read (also when clean), 64 some memdevs read and some not, 77 the\n"
		     "kernel or the devices cannot read a poison list, 1 failure (a busy device\n"
		     "or a list incomplete too).",
	.tables = tables,
	.operands = "MEMDEV|REGION",
	.operand_kind = CLI_C_MEMDEV,
	.max_operands = -1,
	.run = run,
	.subcommands = subcommands,
};
