// SPDX-License-Identifier: GPL-2.0-only
/* cmd-online.c - `cxltier online`: memory blocks of dax devices, regions,
 * memdevs, nodes or block ranges into ZONE_MOVABLE (by default) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blocks-change.h"
#include "online-policy.h"
#include "core/context.h"
#include "change/dax-convert.h"

static void usage(void)
{
	printf("usage: cxltier online TARGET... [--zone movable|normal [--force]] [--reonline]\n"
	       "                      [--convert] [--whole-region] [--dry-run] [--rollback] [--timeout SEC]\n"
	       "       cxltier online --policy [--config FILE] [TARGET...]\n\n"
	       "Online memory blocks, in ZONE_MOVABLE unless asked otherwise, so that they\n"
	       "can be offlined and removed again. TARGET: daxX.Y, regionN, memN (all its\n"
	       "regions), nodeN, memoryN, memoryN-M, or all (every CXL-backed block).\n\n"
	       "      --zone Z       movable (default) or normal; normal needs --force: such\n"
	       "                     memory can never be offlined reliably again\n"
	       "      --reonline     blocks online in another zone: offline, online movable\n"
	       "      --convert      a dax device in devdax mode: switch it to system-ram first\n"
	       "                     (loads kmem when needed)\n"
	       "      --whole-region a memdev interleaved with others: online its whole region\n"
	       "                     (every device of the set); refused without it\n"
	       "      --dry-run      show what would change, change nothing\n"
	       "      --rollback     when a block fails, return the others to where they were\n"
	       "      --timeout SEC  give up after SEC seconds (default 30)\n"
	       "      --policy       decide per /etc/cxltier.conf (udev hotplug); without\n"
	       "                     TARGET: all CXL memory; a memN without a region gets one\n"
	       "                     when the policy says create-region = yes\n"
	       "      --config FILE  the policy file (default " DEFAULT_CONFIG ")\n"
	       "  -j, -o, -n, -v, --sysroot DIR   as for every command\n"
	       "Exit: 0 all as asked, 64 partial (each failed block named), 1 failure, 77 no memory hotplug.\n");
}

/* --convert: devdax to system-ram through the library; an exit code */
static int convert_to_ram(struct cmd_env *env, const char *name, bool force)
{
	struct ct_dax_convert_result res;
	int rc;

	if (!env->ctx->live) {
		cmd_err(env, "--convert works on the live system only (not with --sysroot)");
		return EXIT_USAGE;
	}
	rc = ct_dax_convert_to_ram(env->ctx, name, force, &res);
	if (res.loaded_kmem)
		fprintf(stderr, "cxltier online: loaded the kmem module\n");
	if (rc == -EBUSY && res.auto_online[0] && !res.paused) {
		cmd_err(env, "auto_online_blocks is '%s': converting %s would let the kernel online its memory into "
			"ZONE_NORMAL first; add --force to switch auto-onlining off for the conversion", res.auto_online, name);
		return EXIT_FAIL;
	}
	if (rc) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return EXIT_FAIL;
	}
	if (res.paused)
		fprintf(stderr, "cxltier online: the kernel's own onlining (auto_online_blocks=%s) held off while %s "
			"switched, then set back\n", res.auto_online, name);
	fprintf(stderr, "cxltier online: %s is now in system-ram mode (kmem%s)\n", name,
		res.bound_by_kmem ? " took it as it loaded" : "");
	return EXIT_OK;
}

int cmd_online(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_ZONE = 0x4001, OPT_FORCE, OPT_REONLINE, OPT_CONVERT, OPT_DRY, OPT_ROLLBACK, OPT_TIMEOUT,
	       OPT_POLICY, OPT_CONFIG, OPT_MOVABLE, OPT_WHOLE };
	static const struct option opts[] = {
		{ "zone", required_argument, NULL, OPT_ZONE },
		{ "movable", no_argument, NULL, OPT_MOVABLE },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "reonline", no_argument, NULL, OPT_REONLINE },
		{ "convert", no_argument, NULL, OPT_CONVERT },
		{ "dry-run", no_argument, NULL, OPT_DRY },
		{ "rollback", no_argument, NULL, OPT_ROLLBACK },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "policy", no_argument, NULL, OPT_POLICY },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "whole-region", no_argument, NULL, OPT_WHOLE },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct change_opts co = { .want = CT_WANT_MOVABLE, .timeout_s = 30 };
	bool force = false, convert = false, policy = false, normal = false;
	const char *config = NULL;
	struct ct_topology t = { 0 };
	struct ct_blocks_plan plan = { 0 };
	struct ct_policy pol = { 0 };
	int c, rc, converted = 0;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		switch (c) {
		case OPT_ZONE:
			if (!strcmp(optarg, "normal"))
				normal = true;
			else if (strcmp(optarg, "movable")) {
				cmd_err(env, "--zone %s: give movable or normal", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_MOVABLE: normal = false; break;
		case OPT_FORCE: force = true; break;
		case OPT_REONLINE: co.reonline = true; break;
		case OPT_CONVERT: convert = true; break;
		case OPT_DRY: co.dry_run = true; break;
		case OPT_ROLLBACK: co.rollback = true; break;
		case OPT_POLICY: policy = true; break;
		case OPT_CONFIG: config = optarg; break;
		case OPT_WHOLE: co.whole_region = true; break;
		case OPT_TIMEOUT:
			if ((rc = change_parse_timeout(env, optarg, &co)))
				return rc;
			break;
		default:
			if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage)))
				return cmd_exit_code(rc);
		}
	}
	if (optind >= argc && !policy) {
		cmd_err(env, "what to online? give a target (daxX.Y, regionN, memN, nodeN, memoryN[-M], all)");
		return EXIT_USAGE;
	}
	if (normal && !force) {
		cmd_err(env, "--zone normal puts the memory where the kernel can pin it: it can then never be offlined "
			"or removed reliably; add --force if that is what you want");
		return EXIT_USAGE;
	}
	if (normal)
		cmd_warn(env, "onlining into ZONE_NORMAL: this memory can never be removed reliably");
	co.want = normal ? CT_WANT_KERNEL : CT_WANT_MOVABLE;
	plan.all_zones = co.dry_run;	/* a dry run shows every block's zones */
	if ((rc = change_check_columns(env)) || (rc = cmd_context(env)))
		return rc;
	if ((rc = change_begin_load(env, &co, argv + optind, argc - optind, policy, &t)))
		return rc;
	change_warn_auto_online(env);
	if (policy) {
		if (policy_read(env, config ? config : DEFAULT_CONFIG, config != NULL, &pol)) {
			rc = EXIT_FAIL;
			goto out;
		}
		if ((rc = policy_regions(env, &t, &pol, argv + optind, argc - optind, &co)))
			goto out;
		change_phase(env, "policy and regions (created, topology read again)");
		if (policy_plan(env, &t, &pol, argv + optind, argc - optind, &plan, &co)) {
			rc = EXIT_FAIL;
			goto out;
		}
		if (!plan.n)
			cmd_info(env, 1, "nothing for the policy to online");
	} else {
		if ((rc = scope_refuse_interleaved(env, &t, argv + optind, argc - optind, co.whole_region)))
			goto out;
		for (int i = optind; i < argc; i++) {
			const struct ct_dax *devdax = NULL;
			rc = ct_blocks_plan_add_target(&env->ctx->sys, &t, &plan, argv[i], &devdax);
			if (rc == -EMEDIUMTYPE && convert && devdax && co.dry_run) {
				ct_error_clear(&env->ctx->err);
				fprintf(stderr, "cxltier online: dry run: %s would be switched to system-ram mode (kmem), "
					"then its blocks onlined\n", devdax->name);
				continue;	/* its blocks do not exist before */
			}
			if (rc == -EMEDIUMTYPE && convert && devdax) {
				char name[CT_NAME];
				ct_strlcpy(name, devdax->name, sizeof(name));
				if ((rc = convert_to_ram(env, name, force)) == EXIT_USAGE)
					goto out;
				if (rc) {	/* named; the other targets go on */
					co.targets_failed = true;
					continue;
				}
				converted++;
				/* the same view as before (memdevs too): the target is found again */
				ct_topology_free(&t);
				if ((rc = change_load(env, argv + optind, argc - optind, false, &t)))
					goto out;
				i--;	/* again, now in system-ram mode */
				continue;
			}
			if (rc == -EMEDIUMTYPE && strncmp(argv[i], "dax", 3)) {
				/* a region or memdev: the blocks of its system-ram dax
				 * devices are planned all the same */
				cmd_err(env, "%s", ct_context_message(env->ctx));
				ct_error_clear(&env->ctx->err);
				co.targets_failed = true;
				continue;
			}
			if (rc && converted) {
				/* a device was switched already: its blocks are
				 * onlined all the same, this target named */
				cmd_err(env, "%s", ct_context_message(env->ctx));
				ct_error_clear(&env->ctx->err);
				co.targets_failed = true;
				continue;
			}
			if (rc) {
				cmd_err(env, "%s", ct_context_message(env->ctx));
				rc = rc == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
				goto out;
			}
		}
	}
	rc = change_run(env, &t, argv + optind, argc - optind, &plan, &co);
out:
	change_end();
	if (co.regions)
		json_object_put(co.regions);
	ct_policy_free(&pol);
	ct_blocks_plan_free(&plan);
	ct_topology_free(&t);
	return rc;
}
