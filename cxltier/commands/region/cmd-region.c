// SPDX-License-Identifier: GPL-2.0-only
/* cmd-region.c - `cxltier region create|destroy`: the subcommands, and
 * destroy (create: region-create.c; how a region is shown: region-show.c) */
#include <stdio.h>
#include <string.h>
#include "blocks-change.h"
#include "cmd-region.h"
#include "core/context.h"
#include "change/region.h"

static int destroy_one(struct cmd_env *env, const struct ct_topology *t, const char *name, bool offline, bool dry,
		       struct change_opts *co)
{
	const struct ct_region *r = ct_topology_region(t, name);
	struct ct_region_teardown td;
	struct ct_blocks_opts eo;
	size_t nrec;
	const struct ct_region_recovery *rec = change_recovered(&nrec);
	int rc;

	/* gone already: a killed destroy of it finished, or a killed create of
	 * it undone, by this run's recovery */
	for (size_t i = 0; i < nrec && !r && !dry; i++)
		if (!strcmp(rec[i].region, name) && (!strcmp(rec[i].outcome, "finished") || !strcmp(rec[i].outcome, "undone"))) {
			struct ct_region gone;
			memset(&gone, 0, sizeof(gone));
			snprintf(gone.name, sizeof(gone.name), "%s", name);
			snprintf(gone.mode, sizeof(gone.mode), "ram");
			cmd_info(env, 0, "destroyed %s (by finishing or undoing the killed run above)", name);
			return region_show(env, t, &gone, "destroyed");
		}
	rc = ct_region_plan_destroy(env->ctx, t, name, &td);

	if (rc) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return region_exit_code(rc);
	}
	if (dry) {
		if (td.online_blocks && !offline) {
			cmd_err(env, "%s has %u memory blocks online: destroy would refuse without --offline", name,
				td.online_blocks);
			return EXIT_FAIL;
		}
		unsigned nfree = 0;	/* (a position a destroy cut short emptied has none) */
		for (unsigned i = 0; i < td.ntargets; i++)
			nfree += td.targets[i][0] != '\0';
		fprintf(stderr, "cxltier region: dry run: would %s%s%sfree %u endpoint decoder%s and delete %s "
			"(through %s); nothing was changed\n", td.online_blocks ? "offline its online memory blocks, " : "",
			td.enabled ? "unbind it, " : "", td.committed ? "reset its decoders, " : "",
			nfree, nfree == 1 ? "" : "s", name, td.method);
		return region_show(env, t, r, NULL);
	}
	change_exec_opts(co, &eo);
	rc = ct_region_destroy(env->ctx, t, &td, offline ? &eo : NULL);
	if (rc) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return region_exit_code(rc);
	}
	cmd_info(env, 0, "destroyed %s (through %s)", name, td.method);
	return region_show(env, t, r, "destroyed");
}

int region_destroy(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_OFFLINE = 0x2001, OPT_DRY, OPT_TIMEOUT };
	static const struct option opts[] = {
		{ "offline", no_argument, NULL, OPT_OFFLINE },
		{ "force", no_argument, NULL, 'f' },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "dry-run", no_argument, NULL, OPT_DRY },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct change_opts co = { .want = CT_WANT_OFFLINE, .rollback = true, .whole_region = true };
	struct ct_topology t;
	bool offline = false;
	int c, rc, failed = 0, done = 0, first = EXIT_OK;

	env->opts = opts;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "f" COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		if (c == OPT_OFFLINE || c == 'f')	/* -f: cxl destroy-region's habit (see region_usage) */
			offline = true;
		else if (c == OPT_DRY)
			co.dry_run = true;
		else if (c == OPT_TIMEOUT) {
			if ((rc = change_parse_timeout(env, optarg, &co)))
				return rc;
		} else if ((rc = cmd_common_opt(env, c, optarg, argc, argv, region_usage)))
			return cmd_exit_code(rc);
	}
	if (optind >= argc) {
		cmd_err(env, "give the region to destroy: cxltier region destroy REGION");
		return EXIT_USAGE;
	}
	if ((rc = cmd_context(env)))
		return rc;
	/* the lock first: no other cxltier changes blocks or regions meanwhile */
	if ((rc = change_begin(env, &co)))
		return rc;
	if (ct_topology_load(env->ctx, &t)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		change_end();
		return EXIT_FAIL;
	}
	for (int i = optind; i < argc; i++) {
		rc = destroy_one(env, &t, argv[i], offline, co.dry_run, &co);
		if (rc && !failed)
			first = rc;
		rc ? failed++ : done++;
	}
	change_end();
	ct_topology_free(&t);
	return !failed ? EXIT_OK : done ? EXIT_PARTIAL : first;
}

int cmd_region(int argc, char **argv, struct cmd_env *env)
{
	const char *sub = argc > 1 ? argv[1] : "";

	if (!strcmp(sub, "create"))
		return region_create(argc - 1, argv + 1, env);
	if (!strcmp(sub, "destroy"))
		return region_destroy(argc - 1, argv + 1, env);
	if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
		region_usage();
		return EXIT_OK;
	}
	if (!strcmp(sub, "--list-opts")) {
		printf("create\ndestroy\n");
		return EXIT_OK;
	}
	cmd_err(env, "%s%s%s: say 'create' or 'destroy' (see 'cxltier region --help')", sub[0] ? "unknown subcommand '" : "a subcommand is needed",
		sub[0] ? sub : "", sub[0] ? "'" : "");
	return EXIT_USAGE;
}
