// SPDX-License-Identifier: GPL-2.0-only
/* cmd-poison.c - `cxltier poison [MEMDEV|REGION...]`: each memdev's poison
 * list read by the kernel on demand, with the region and host address of
 * every range; `poison inject|clear` (test tools) are in poison-change.c */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/json-build.h"
#include "cmd-poison.h"
#include "core/context.h"
#include "events/poison.h"
#include "cxl/topology.h"

static void usage(void)
{
	printf("usage: cxltier poison [MEMDEV|REGION...] [-j] [-o COLS] [-n] [-b]\n"
	       "       cxltier poison inject MEMDEV DPA [LENGTH] --yes-really   (a test tool)\n"
	       "       cxltier poison clear MEMDEV DPA [LENGTH] --yes-really    (a test tool)\n\n"
	       "Read the poison list (media errors) of CXL memdevs: the kernel asks each\n"
	       "device for it (Get Poison List, through memN/trigger_poison_list; root)\n"
	       "and traces every range with the region and host address that map it.\n"
	       "A region stands for its memdevs and shows the ranges inside it.\n"
	       "No argument: every memdev.\n\n"
	       "  -j, --json          {\"poison\":[...], \"memdevs\":[...]} (a summary per memdev)\n"
	       "  -o, -n, -b          table columns, no headings, sizes in bytes\n"
	       "Exit: 0 read (also when clean), 64 some memdevs read and some not, 77 the\n"
	       "kernel or the devices cannot read a poison list, 1 failure (a busy device\n"
	       "or a list incomplete too).\n"
	       "'cxltier poison inject --help' for the test tools.\n");
	poison_columns_help();
}

struct want {
	bool *direct;			/* [nmemdevs]: named itself (or nothing named): every range */
	bool *via_region;		/* [nmemdevs]: only through regions: their ranges */
	const char **regions;
	size_t nregions;
};

static bool in_regions(const struct ct_poison *p, void *arg)
{
	const struct want *w = arg;

	for (size_t i = 0; i < w->nregions; i++)
		if (!strcmp(p->region, w->regions[i]))
			return true;
	return false;
}

/* the memdevs the arguments name: 0, or an exit code with the bad name said */
static int resolve(struct cmd_env *env, const struct ct_topology *t, int argc, char **argv, struct want *w)
{
	for (int i = 0; i < argc; i++) {
		const struct ct_region *r = ct_topology_region(t, argv[i]);
		bool found = false;
		if (r) {
			w->regions[w->nregions++] = r->name;
			for (size_t k = 0; k < t->nmemdevs; k++)
				if (ct_region_has_memdev(r, t->memdevs[k].name))
					w->via_region[k] = found = true;
			if (!found) {
				cmd_err(env, "%s has no memdevs to read", argv[i]);
				return EXIT_FAIL;
			}
			continue;
		}
		for (size_t k = 0; k < t->nmemdevs; k++)
			if (ct_memdev_matches(&t->memdevs[k], argv[i]))
				w->direct[k] = found = true;
		if (!found) {
			cmd_err(env, "no memdev or region '%s' (see 'cxltier list')", argv[i]);
			return EXIT_FAIL;
		}
	}
	if (!argc)
		for (size_t k = 0; k < t->nmemdevs; k++)
			w->direct[k] = true;
	return 0;
}

static int read_all(struct cmd_env *env, const struct ct_topology *t, struct want *w, struct poison_out *out)
{
	size_t ok = 0, unsupported = 0, failed = 0;
	struct ct_poison_reader *r;
	int rc;

	if (ct_poison_open(env->ctx, &r)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return EXIT_FAIL;
	}
	for (size_t k = 0; k < t->nmemdevs; k++) {
		const struct ct_memdev *m = &t->memdevs[k];
		struct ct_poison_list l;
		if (!w->direct[k] && !w->via_region[k])
			continue;
		rc = ct_poison_read(r, m->name, &l);
		if (rc) {
			cmd_err(env, "%s", ct_context_message(env->ctx));
			poison_out_failed(out, m, ct_context_message(env->ctx), rc == -EOPNOTSUPP);
			rc == -EOPNOTSUPP ? unsupported++ : failed++;
		} else {
			poison_out_add(out, m, &l, t, w->direct[k] ? NULL : in_regions, w);
			if (l.lost) {
				cmd_err(env, "%s: the trace buffer dropped %lu poison records: the list is incomplete; "
					"run again", m->name, l.lost);
				failed++;
			} else if (l.scanning) {
				cmd_err(env, "%s: a media scan is running on the device: its poison list may be incomplete "
					"(the ranges read so far are shown); read it again when the scan has finished",
					m->name);
				failed++;
			} else
				ok++;
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

int cmd_poison(int argc, char **argv, struct cmd_env *env)
{
	static const struct option opts[] = {
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct ct_topology t = { 0 };
	struct want w = { 0 };
	struct poison_out out;
	int c, rc, prc;

	if (argc > 1 && (!strcmp(argv[1], "inject") || !strcmp(argv[1], "clear")))
		return poison_change(argc - 1, argv + 1, env, !strcmp(argv[1], "inject"));
	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTS, opts, NULL)) != -1)
		if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage)))
			return cmd_exit_code(rc);
	if ((rc = cmd_context(env)))
		return rc;
	if (!env->ctx->live) {
		cmd_err(env, "poison asks the devices for their poison lists: not possible on a captured tree (--sysroot)");
		return EXIT_UNSUPPORTED;
	}
	if (ct_topology_load(env->ctx, &t)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return EXIT_FAIL;
	}
	w.direct = calloc(t.nmemdevs + 1, sizeof(bool));
	w.via_region = calloc(t.nmemdevs + 1, sizeof(bool));
	w.regions = calloc((size_t)argc + 1, sizeof(char *));
	if (!w.direct || !w.via_region || !w.regions) {
		cmd_err(env, "out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	if ((rc = resolve(env, &t, argc - optind, argv + optind, &w)))
		goto out;
	if (!t.nmemdevs && !env->out.json)
		fprintf(stderr, "cxltier poison: no CXL memdevs on this system\n");
	poison_out_init(&out);
	rc = read_all(env, &t, &w, &out);
	prc = poison_out_print(env, &out);
	poison_out_free(&out);
	if (prc)
		rc = prc;
out:
	free(w.direct);
	free(w.via_region);
	free(w.regions);
	ct_topology_free(&t);
	return rc;
}
