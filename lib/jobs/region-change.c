// SPDX-License-Identifier: GPL-2.0-only
/* region-create.c - `cxltier region create MEMDEV...`: resolve the memdevs,
 * plan (root decoder, ways, granularity, order, size), show or carry it out */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blocks-change.h"
#include "cmd-region.h"
#include "core/context.h"
#include "change/region.h"
#include "core/units.h"

static int parse_uint(struct cmd_env *env, const char *opt, const char *arg, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 0);

	if (end == arg || *end || *arg == '-' || v > 1 << 20) {
		cmd_err(env, "%s %s: give a number", opt, arg);
		return EXIT_USAGE;
	}
	*out = (unsigned)v;
	return EXIT_OK;
}

/* each argument names exactly one memdev */
static int resolve(struct cmd_env *env, const struct ct_topology *t, char **specs, int n, const char **names)
{
	for (int i = 0; i < n; i++) {
		const struct ct_memdev *hit = NULL;
		for (size_t k = 0; k < t->nmemdevs; k++) {
			if (!ct_memdev_matches(&t->memdevs[k], specs[i]))
				continue;
			if (hit) {
				cmd_err(env, "'%s' names both %s and %s (by id and by serial): say memN or 0x<serial>",
					specs[i], hit->name, t->memdevs[k].name);
				return EXIT_USAGE;
			}
			hit = &t->memdevs[k];
		}
		if (!hit) {
			cmd_err(env, "no memdev '%s' on this system%s", specs[i],
				t->nmemdevs ? " (see 'cxltier list')" : " (no CXL memdevs found)");
			return EXIT_FAIL;
		}
		names[i] = hit->name;
	}
	return EXIT_OK;
}

static struct ct_region planned(const struct ct_region_plan *p)
{
	struct ct_region r;

	memset(&r, 0, sizeof(r));
	snprintf(r.name, sizeof(r.name), "%s", p->next_name[0] ? p->next_name : "(new)");
	snprintf(r.mode, sizeof(r.mode), "ram");
	snprintf(r.root_decoder, sizeof(r.root_decoder), "%s", p->root_decoder);
	r.size = p->size;
	r.ways = p->ways;
	r.granularity = p->granularity;
	r.ntargets = p->ways;
	for (unsigned i = 0; i < p->ways; i++) {
		snprintf(r.targets[i], CT_NAME, "%s", p->members[i].decoder);
		snprintf(r.memdevs[i], CT_NAME, "%s", p->members[i].memdev);
		r.dpa[i].size = p->members[i].dpa_size;
		r.dpa[i].resource = UINT64_MAX;	/* the kernel allocates it */
	}
	return r;
}

static int create(struct cmd_env *env, struct ct_topology *t, const struct ct_region_req *req, bool dry)
{
	struct change_opts co = { .want = CT_WANT_MOVABLE, .dry_run = dry };
	struct ct_region_plan plan;
	const struct ct_region *r;
	int rc;

	/* plan under the lock: two runs must not pick the same decoders */
	if ((rc = change_begin(env, &co)))
		return rc;
	rc = ct_region_plan_create(env->ctx, req, &plan);
	if (rc) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		change_end();
		return region_exit_code(rc);
	}
	if (dry) {
		struct ct_region pr = planned(&plan);
		fprintf(stderr, "cxltier region: dry run: would create %s under %s: %u way%s x %llu MiB, granularity %u, "
			"through %s; nothing was changed\n", pr.name, plan.root_decoder, plan.ways, plan.ways == 1 ? "" : "s",
			(unsigned long long)(plan.size / plan.ways >> 20), plan.granularity, plan.method);
		return region_show(env, t, &pr, "planned");
	}
	change_warn_auto_online(env);	/* its memory could land in ZONE_NORMAL by itself */
	rc = ct_region_create(env->ctx, &plan);
	change_end();
	if (rc) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return region_exit_code(rc);
	}
	ct_topology_free(t);
	if (ct_topology_load(env->ctx, t) || !(r = ct_topology_region(t, plan.region))) {
		cmd_err(env, "created %s, but cannot read it back: %s", plan.region, ct_context_message(env->ctx));
		return EXIT_FAIL;
	}
	cmd_info(env, 0, "created %s under %s (through %s)", plan.region, plan.root_decoder, plan.method);
	if (!r->ndax)
		cmd_warn(env, "%s has no dax device yet (is dax_cxl loaded?)", plan.region);
	return region_show(env, t, r, NULL);
}

int region_create(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_DRY = 0x2001 };
	static const struct option opts[] = {
		{ "decoder", required_argument, NULL, 'd' },
		{ "ways", required_argument, NULL, 'w' },
		{ "granularity", required_argument, NULL, 'g' },
		{ "size", required_argument, NULL, 's' },
		{ "dry-run", no_argument, NULL, OPT_DRY },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct ct_region_req req = { 0 };
	const char *names[CT_MAX_TARGETS];
	struct ct_topology t;
	bool dry = false;
	int c, rc, n;

	env->opts = opts;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "d:w:g:s:" COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		rc = EXIT_OK;
		if (c == 'd')
			req.root_decoder = optarg;
		else if (c == 'w')
			rc = parse_uint(env, "--ways", optarg, &req.ways);
		else if (c == 'g')
			rc = parse_uint(env, "--granularity", optarg, &req.granularity);
		else if (c == 's') {
			if (ct_parse_size(optarg, &req.size) || !req.size) {
				cmd_err(env, "--size %s: give bytes, or a number with K, M, G or T", optarg);
				rc = EXIT_USAGE;
			}
		} else if (c == OPT_DRY)
			dry = true;
		else if ((rc = cmd_common_opt(env, c, optarg, argc, argv, region_usage)))
			return cmd_exit_code(rc);
		if (rc)
			return rc;
	}
	n = argc - optind;
	if (n <= 0) {
		cmd_err(env, "give the memdevs: cxltier region create MEMDEV...");
		return EXIT_USAGE;
	}
	if (n > CT_MAX_TARGETS) {
		cmd_err(env, "%d memdevs: a region interleaves at most %d", n, CT_MAX_TARGETS);
		return EXIT_USAGE;
	}
	if ((rc = cmd_context(env)))
		return rc;
	if (ct_topology_load(env->ctx, &t)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return EXIT_FAIL;
	}
	rc = resolve(env, &t, argv + optind, n, names);
	if (!rc) {
		req.memdevs = names;
		req.nmemdevs = (size_t)n;
		rc = create(env, &t, &req, dry);
	}
	ct_topology_free(&t);
	return rc;
}
