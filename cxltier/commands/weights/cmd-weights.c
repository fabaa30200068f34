// SPDX-License-Identifier: GPL-2.0-only
/* cmd-weights.c - `cxltier weights`: the weighted-interleave weights, per
 * node the bandwidth each comes from, the weight the kernel's auto mode
 * gives it (and with -v the arithmetic), the kernel's weight and mode; and
 * setting them: the computed ones, given ones, or the kernel's auto mode
 * (the job: lib/jobs/weights-set.h; the model: lib/views/tier-model.h) */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/job-exit.h"
#include "cli/run-signals.h"
#include "change/weights-record.h"
#include "core/context.h"
#include "weights-view.h"

struct weights_args {
	bool set, set_auto, dry_run;
	unsigned timeout;
};

/* "0=3", "node1=1", or a comma-separated list of them, into v (up to max) */
static int parse_given(struct cmd_env *env, char *arg, struct ct_weights_change *v, unsigned *n, unsigned max)
{
	for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
		char *num = !strncmp(tok, "node", 4) ? tok + 4 : tok, *end;
		long node = -1, w = -1;

		if (*num >= '0' && *num <= '9')
			node = strtol(num, &end, 10);
		if (node >= 0 && *end == '=' && end[1] >= '0' && end[1] <= '9')
			w = strtol(end + 1, &end, 10);
		if (node < 0 || node >= CT_WI_MAX_NODES || w < 0 || *end) {
			cmd_err(env, "'%s': give NODE=WEIGHT (e.g. 0=3,1=1)", tok);
			return EXIT_USAGE;
		}
		if (w < 1 || w > CT_WI_WEIGHT_MAX) {
			cmd_err(env, "'%s': a weight is 1 to %d", tok, CT_WI_WEIGHT_MAX);
			return EXIT_USAGE;
		}
		for (unsigned i = 0; i < *n; i++)
			if (v[i].node == node) {
				cmd_err(env, "node%ld is given twice", node);
				return EXIT_USAGE;
			}
		if (*n == max) {
			cmd_err(env, "too many nodes given");
			return EXIT_USAGE;
		}
		v[(*n)++] = (struct ct_weights_change){ .node = (int)node, .new = (unsigned)w };
	}
	return EXIT_OK;
}

/* the command line's set: how, and the given weights; an exit code */
static int check(struct cmd_env *env, const struct weights_args *a, int argc, char **argv,
		 struct ct_weights_set_opts *o, struct ct_weights_change *v)
{
	int rc;

	if (argc && !a->set) {
		cmd_err(env, "'%s': weights are given with --set (--set 0=3,1=1)", argv[0]);
		return EXIT_USAGE;
	}
	if (a->dry_run && !a->set && !a->set_auto) {
		cmd_err(env, "--dry-run: with --set or --auto (there is nothing else to try)");
		return EXIT_USAGE;
	}
	o->how = a->set_auto ? CT_WEIGHTS_AUTO : argc ? CT_WEIGHTS_GIVEN : CT_WEIGHTS_COMPUTED;
	for (int i = 0; i < argc; i++)
		if ((rc = parse_given(env, argv[i], v, &o->ngiven, CT_WI_MAX_NODES)))
			return rc;
	o->given = v;
	o->dry_run = a->dry_run;
	o->timeout_s = a->timeout;
	return EXIT_OK;
}

static const char *how_name(enum ct_weights_how h)
{
	return h == CT_WEIGHTS_AUTO ? "auto" : h == CT_WEIGHTS_GIVEN ? "given" : "computed";
}

/* the set, under the run's signal handlers; an exit code (the report in r) */
static int set(struct cmd_env *env, struct ct_weights_set_opts *o, struct ct_weights_set_report *r)
{
	struct ct_job_signals sig;
	enum ct_job_end end;

	run_signals_begin(&sig, !o->dry_run);
	o->stop = sig.stop;
	end = ct_weights_set(env->ctx, o, r);
	run_signals_end();
	if (end == CT_JOB_DONE && r->auto_turned_off)
		cmd_info(env, 0, "%s the kernel's auto mode off: these weights stay until 'cxltier weights --auto'",
			 o->dry_run ? "writing the weights would turn" : "writing the weights turned");
	else if (end == CT_JOB_DONE && !r->writes && !o->dry_run)
		cmd_info(env, 0, "nothing to change: the kernel holds these weights%s",
			 o->how == CT_WEIGHTS_AUTO ? " in auto mode" : "");
	return cmd_job_exit(end);
}

static int show(struct cmd_env *env, const struct ct_weights_set_report *r, const struct ct_weights_set_opts *o)
{
	struct ct_tier_model m;
	json_object *root;
	char err[256];
	int pid, rc = ct_tier_model_load(env->ctx, -1, &m);

	if (rc)
		return cmd_fail(env, rc == -EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL);
	if (!r && !m.weights.have)
		cmd_err(env, "%s", m.weights.error);
	if (!r && m.weights.have && (pid = ct_weights_record_pending(env->ctx)))
		cmd_warn(env, "a weights change was killed between two writes (pid %d): the kernel may hold a mix of "
			 "two sets; the next 'cxltier weights --set' or '--auto' puts the old set back", pid);
	root = weights_json(&m, r, r ? how_name(o->how) : NULL, o->dry_run);
	rc = EXIT_OK;
	if (weights_print(env, root, r != NULL, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	} else if (!r && !m.weights.have) {
		rc = EXIT_UNSUPPORTED;
	}
	json_object_put(root);
	ct_tier_model_free(&m);
	return rc;
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	const struct weights_args *a = args;
	struct ct_weights_set_opts o = { 0 };
	struct ct_weights_set_report r;
	struct ct_weights_change *v = calloc(CT_WI_MAX_NODES, sizeof(*v));
	int rc, src;

	if (!v)
		return EXIT_FAIL;
	if ((rc = check(env, a, argc, argv, &o, v)) || (rc = cmd_context(env))) {
		free(v);
		return rc;
	}
	if (!a->set && !a->set_auto) {
		free(v);
		return show(env, NULL, &o);
	}
	rc = set(env, &o, &r);
	if (r.end != CT_JOB_UNSUPPORTED && r.end != CT_JOB_BAD_INPUT && (src = show(env, &r, &o)) && !rc)
		rc = src;
	ct_weights_set_report_free(&r);
	free(v);
	return rc;
}

#define ARG(field) offsetof(struct weights_args, field)
static const struct cli_opt opts[] = {
	{ .name = "set", .store = CLI_FLAG, .offset = ARG(set), .conflicts = "auto",
	  .help = "write the computed weights (CALC), or the ones given as\nNODE=WEIGHT operands (--set 0=3,1=1; 1-255)" },
	{ .name = "auto", .store = CLI_FLAG, .offset = ARG(set_auto),
	  .help = "switch the kernel to its auto mode: it derives the weights\nfrom bandwidth itself (Linux 6.16 or later)" },
	{ .name = "dry-run", .store = CLI_FLAG, .offset = ARG(dry_run), .help = "show what would be written, write nothing" },
	{ .name = "timeout", .arg = "SEC", .store = CLI_SECONDS, .offset = ARG(timeout), .max = 86400,
	  .help = "for the lock: give up after SEC seconds (default 30)" },
	{ NULL },
};
static const struct out_table *const tables[] = { &weights_table, NULL };
static const struct weights_args defaults = { .timeout = 30 };

const struct cli_command command_weights = {
	.name = "weights",
	.summary = "weighted-interleave weights: from bandwidth, the kernel's, set",
	.synopsis = "[-v] [-j] [-o COLS]\n--set [NODE=WEIGHT[,...]...] [--dry-run] [--timeout SEC]\n--auto [--dry-run]",
	.about = "The kernel's weighted-interleave weights (MPOL_WEIGHTED_INTERLEAVE, Linux 6.9+)\n"
		 "beside the bandwidth each node has (the access1 figures tiers ranks by) and the\n"
		 "weight the kernel's auto mode derives from it (-v: the arithmetic). --set writes\n"
		 "the computed weights or given ones, --auto lets the kernel derive them (6.16+).\n"
		 "A run killed between two node writes is found by the next --set or --auto,\n"
		 "which puts the old set back.",
	.exit_help = "Exit: 0 done, 1 failure, 2 bad weights or nodes, 77 no weighted interleave (or no auto mode).",
	.opts = opts,
	.tables = tables,
	.args_size = sizeof(struct weights_args),
	.args_init = &defaults,
	.operands = "NODE=WEIGHT",
	.operand_kind = CLI_C_NONE,
	.max_operands = -1,
	.flags = CLI_NO_CONTEXT,
	.run = run,
};
