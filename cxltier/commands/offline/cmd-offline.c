// SPDX-License-Identifier: GPL-2.0-only
/* cmd-offline.c - `cxltier offline`: take memory blocks offline, with
 * bounded EBUSY retries, so the memory can be removed */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blocks-change.h"
#include "core/context.h"

static void usage(void)
{
	printf("usage: cxltier offline TARGET... [--whole-region] [--dry-run] [--rollback] [--timeout SEC]\n"
	       "       cxltier offline MEMDEV... --remove [--whole-region] [--dry-run] [--timeout SEC]\n\n"
	       "Offline memory blocks. TARGET: daxX.Y, regionN, memN, nodeN, memoryN, memoryN-M, or\n"
	       "all (every CXL-backed block). A busy block (pages being migrated away, or\n"
	       "pinned) is retried with back-off until --timeout, then reported.\n\n"
	       "      --whole-region a memdev interleaved with others: offline its whole region\n"
	       "                     (every device of the set); refused without it\n"
	       "      --dry-run      show what would change, change nothing\n"
	       "      --rollback     when a block cannot be offlined, online again those that were\n"
	       "      --timeout SEC  give up after SEC seconds (default 30); SIGINT stops cleanly\n"
	       "      --remove       memN: offline the regions it backs, destroy them, disable it\n"
	       "                     and say whether the card can be removed; busy blocks are named\n"
	       "                     with the processes that have pages on their node\n"
	       "  -j, -o, -n, -v, --sysroot DIR   as for every command\n"
	       "Exit: 0 all offline (--remove: every memdev safe to remove), 64 partial (each busy block\n"
	       "named), 1 failure, 77 no memory hotplug.\n");
}

int cmd_offline(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_DRY = 0x4101, OPT_ROLLBACK, OPT_TIMEOUT, OPT_WHOLE, OPT_REMOVE };
	static const struct option opts[] = {
		{ "dry-run", no_argument, NULL, OPT_DRY },
		{ "rollback", no_argument, NULL, OPT_ROLLBACK },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "whole-region", no_argument, NULL, OPT_WHOLE },
		{ "remove", no_argument, NULL, OPT_REMOVE },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct change_opts co = { .want = CT_WANT_OFFLINE, .timeout_s = 30 };
	struct ct_topology t = { 0 };
	struct ct_blocks_plan plan = { 0 };
	bool remove = false;
	int c, rc = EXIT_OK;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		if (c == OPT_DRY)
			co.dry_run = true;
		else if (c == OPT_ROLLBACK)
			co.rollback = true;
		else if (c == OPT_WHOLE)
			co.whole_region = true;
		else if (c == OPT_REMOVE)
			remove = true;
		else if (c == OPT_TIMEOUT) {
			if ((rc = change_parse_timeout(env, optarg, &co)))
				return rc;
		} else if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage)))
			return cmd_exit_code(rc);
	}
	if (optind >= argc) {
		cmd_err(env, "what to offline? give a target (daxX.Y, regionN, memN, nodeN, memoryN[-M], all)");
		return EXIT_USAGE;
	}
	if ((rc = cmd_context(env)))
		return rc;
	if (remove) {
		if (co.rollback) {
			cmd_err(env, "--remove keeps what went offline offline (a second run goes on from there): "
				"--rollback does not apply");
			return EXIT_USAGE;
		}
		return offline_remove(env, argv + optind, argc - optind, &co);
	}
	plan.all_zones = co.dry_run;	/* a dry run shows every block's zones */
	if ((rc = change_check_columns(env)))
		return rc;
	if ((rc = change_begin_load(env, &co, argv + optind, argc - optind, false, &t)))
		return rc;
	if ((rc = scope_refuse_interleaved(env, &t, argv + optind, argc - optind, co.whole_region)))
		goto out;
	for (int i = optind; i < argc; i++) {
		const struct ct_dax *devdax = NULL;
		rc = ct_blocks_plan_add_target(&env->ctx->sys, &t, &plan, argv[i], &devdax);
		if (rc == -EMEDIUMTYPE && devdax && strncmp(argv[i], "dax", 3)) {
			/* a region or memdev: its system-ram dax devices are planned */
			cmd_info(env, 0, "%s is in %s mode: none of its memory is hot-plugged, nothing of it to offline",
				 devdax->name, devdax->mode);
			ct_error_clear(&env->ctx->err);
			continue;
		}
		if (rc) {
			cmd_err(env, "%s", ct_context_message(env->ctx));
			rc = rc == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
			goto out;
		}
	}
	rc = change_run(env, &t, argv + optind, argc - optind, &plan, &co);
out:
	change_end();
	ct_blocks_plan_free(&plan);
	ct_topology_free(&t);
	return rc;
}
