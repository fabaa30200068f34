// SPDX-License-Identifier: GPL-2.0-only
/* cmd-run.c - `cxltier run`: a command started under a memory policy over
 * tiers or nodes (the placement: lib/jobs/run-placement.h). The policy is
 * set on cxltier's own process, which then execs the command: the command
 * keeps cxltier's pid, environment and file descriptors but the ones the
 * library opened (every one O_CLOEXEC), and its status is run's. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "core/context.h"
#include "jobs/run-placement.h"
#include "mm/mempolicy.h"

/* env(1), nice(1), numactl: cxltier's own failure, the command found but
 * not run, the command not found */
#define RUN_FAILED 125
#define RUN_CANNOT_EXEC 126
#define RUN_NOT_FOUND 127

struct run_args {
	const char *tier, *node;
	int mode;
	bool dry_run;
};

#define ARG(f) offsetof(struct run_args, f)

/* "0-2,5" (ranges false: "0,1,2,5") */
static void node_list(const struct ct_nodeset *set, bool ranges, char *buf, size_t len)
{
	size_t off = 0;
	int n, first = -1, last = -2;

	buf[0] = '\0';
	for (n = ct_nodeset_next(set, 0);; n = ct_nodeset_next(set, n + 1)) {
		if (n >= 0 && n == last + 1 && ranges) {
			last = n;
			continue;
		}
		if (first >= 0 && off < len)
			off += (size_t)snprintf(buf + off, len - off, last > first ? "%s%d-%d" : "%s%d", off ? "," : "",
						first, last);
		if (n < 0)
			return;
		first = last = n;
	}
}

/* one line of what run does, on stdout (--dry-run) or stderr (-v) */
static void tell(const struct cmd_env *env, bool dry_run, const char *line)
{
	if (dry_run)
		printf("%s\n", line);
	else
		cmd_info(env, 1, "%s", line);
}

/* the policy and nodes; a weighted interleave's split by the kernel's weights */
static void say_placement(const struct cmd_env *env, bool dry_run, const struct ct_place *p, const char *cmd)
{
	char nodes[512], tiers[512], line[1200];
	unsigned sum = 0, w;
	int n;

	node_list(&p->nodes, true, nodes, sizeof(nodes));
	node_list(&p->tiers, false, tiers, sizeof(tiers));	/* tiers are no range */
	snprintf(line, sizeof(line), "%s%s under %s on node%s %s%s%s%s", dry_run ? "would run " : "running ", cmd,
		 ct_mpol_name(p->mode), ct_nodeset_count(&p->nodes) > 1 ? "s" : "", nodes,
		 tiers[0] ? ct_nodeset_count(&p->tiers) > 1 ? " (memory tiers " : " (memory tier " : "", tiers,
		 tiers[0] ? ")" : "");
	tell(env, dry_run, line);
	if (!p->has_weights)
		return;
	ct_nodeset_foreach(&p->nodes, n)
		sum += (w = ct_wi_weight(&p->weights, n)) ? w : 1;
	ct_nodeset_foreach(&p->nodes, n) {
		w = ct_wi_weight(&p->weights, n) ? ct_wi_weight(&p->weights, n) : 1;
		snprintf(line, sizeof(line), "node %d: weight %u of %u, %.1f %% of the pages%s", n, w, sum,
			 100.0 * w / sum, p->weights.has_auto ? p->weights.auto_on ? " (auto)" : " (manual)" : "");
		tell(env, dry_run, line);
	}
}

/* the command in place of cxltier: returns only when it could not be run */
static int exec_command(struct cmd_env *env, char **argv)
{
	int e;

	fflush(NULL);
	ct_context_free(env->ctx);	/* its descriptors are O_CLOEXEC: closed either way */
	env->ctx = NULL;
	execvp(argv[0], argv);
	e = errno;
	cmd_err(env, "%s: %s", argv[0], e == ENOENT ? "command not found" : strerror(e));
	return e == ENOENT ? RUN_NOT_FOUND : RUN_CANNOT_EXEC;
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	struct run_args *a = args;
	struct ct_place_opts o = { .tiers = a->tier, .nodes = a->node, .mode = a->mode,
				   .weights = a->dry_run || env->verbose };
	struct ct_place p;

	(void)argc;
	if (!a->tier && !a->node) {
		cmd_err(env, "which memory? give --tier TIERS or --node NODES");
		return RUN_FAILED;
	}
	if (env->sysroot && !a->dry_run) {
		cmd_err(env, "--sysroot %s: the policy would be this system's, the nodes the tree's: give --dry-run "
			"to resolve against the tree", env->sysroot);
		return RUN_FAILED;
	}
	if (ct_place_resolve(env->ctx, &o, &p)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		ct_place_free(&p);
		return RUN_FAILED;
	}
	if (a->dry_run || env->verbose)
		say_placement(env, a->dry_run, &p, argv[0]);
	ct_place_free(&p);	/* (the weights; the nodes and mode stay) */
	if (a->dry_run)
		return EXIT_OK;
	if (ct_place_apply(env->ctx, &p)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return RUN_FAILED;
	}
	return exec_command(env, argv);
}

#define MODE_MSG "give one mode: --bind, --preferred, --interleave or --weighted"

static const struct cli_opt opts[] = {
	{ .name = "tier", .arg = "TIERS", .store = CLI_STRING, .offset = ARG(tier), .complete = CLI_C_TIER,
	  .conflicts = "node", .conflict_msg = "name the memory one way: --tier TIERS or --node NODES",
	  .help = "the nodes of these memory tiers, comma-separated: tier\n"
		  "numbers, fastest, slowest, fastest:K or slowest:K (the K\n"
		  "fastest or slowest tiers)" },
	{ .name = "node", .arg = "NODES", .store = CLI_STRING, .offset = ARG(node), .complete = CLI_C_NODE,
	  .help = "these nodes: a list such as 0,2 or 0-3" },
	{ .name = "bind", .store = CLI_SET, .offset = ARG(mode), .max = CT_MPOL_BIND,
	  .conflicts = "preferred,interleave,weighted",
	  .conflict_msg = MODE_MSG, .help = "memory from these nodes only (MPOL_BIND)" },
	{ .name = "preferred", .store = CLI_SET, .offset = ARG(mode), .max = CT_MPOL_PREFERRED,
	  .conflicts = "bind,interleave,weighted",
	  .conflict_msg = MODE_MSG,
	  .help = "memory from these nodes first, then any (MPOL_PREFERRED; with\n"
		  "several nodes MPOL_PREFERRED_MANY, Linux 5.15+); the default" },
	{ .name = "interleave", .store = CLI_SET, .offset = ARG(mode), .max = CT_MPOL_INTERLEAVE,
	  .conflicts = "bind,preferred,weighted",
	  .conflict_msg = MODE_MSG, .help = "pages spread evenly over the nodes (MPOL_INTERLEAVE)" },
	{ .name = "weighted", .store = CLI_SET, .offset = ARG(mode), .max = CT_MPOL_WEIGHTED_INTERLEAVE,
	  .conflicts = "bind,preferred,interleave", .conflict_msg = MODE_MSG,
	  .help = "pages spread by the kernel's weights\n"
		  "(MPOL_WEIGHTED_INTERLEAVE, Linux 6.9+; -v shows the split)" },
	{ .name = "dry-run", .store = CLI_FLAG, .offset = ARG(dry_run),
	  .help = "say the policy and its nodes, run nothing" },
	{ NULL },
};

const struct cli_command command_run = {
	.name = "run",
	.summary = "run a command under a memory policy over tiers or nodes",
	.synopsis = "(--tier TIERS | --node NODES) [--bind|--preferred|--interleave|--weighted]\n"
		    "[--dry-run] [--] COMMAND [ARG]...",
	.about = "Set a NUMA memory policy over the nodes of the named memory tiers (or the\n"
		 "named nodes) and run COMMAND under it: cxltier becomes the command (exec),\n"
		 "so it keeps the pid, the environment and the open files, and run's exit\n"
		 "status is the command's. Options end at COMMAND; '--' before it is allowed.",
	.notes = "Tiers are the kernel's memory tiers as 'cxltier tiers' shows them:\n"
		 "--tier fastest:2 --weighted spreads over the two fastest tiers by weight.",
	.exit_help = "Exit: the command's status; 125 cxltier run itself failed (bad option, no such\n"
		     "tier or node, a mode this kernel lacks), 126 COMMAND cannot be run,\n"
		     "127 COMMAND not found",
	.opts = opts,
	.args_size = sizeof(struct run_args),
	.operands = "COMMAND",
	.operand_kind = CLI_C_FILE,
	.min_operands = 1,
	.max_operands = -1,
	.missing = "which command? give it after the options: cxltier run --node 0 -- COMMAND [ARG]...",
	.flags = CLI_NO_OUTPUT | CLI_OPERANDS_END | CLI_NO_LOCALE,
	.failure = RUN_FAILED,
	.run = run,
};
