// SPDX-License-Identifier: GPL-2.0-only
/* cmd-region.c - `cxltier region create|destroy`: the subcommands, how a
 * region is shown, and destroy */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blocks-change.h"
#include "json-build.h"
#include "cmd-list.h"
#include "cmd-region.h"
#include "core/context.h"
#include "change/region.h"

static const char *const levels[] = { "rows", "children", NULL };
static const struct out_column columns[] = {
	{ "NAME", "name", OUT_STR, 0.1, 0, "region, memdev or dax device", NULL },
	{ "TYPE", "type", OUT_STR, 0.1, 0, "region, memdev or dax", NULL },
	{ "SIZE", "size", OUT_SIZE, 0.1, 0, "size (a memdev: its share)", NULL },
	{ "MODE", "mode", OUT_STR, 0.1, 0, "region mode, dax mode", NULL },
	{ "POS", "position", OUT_NUM, 0.1, 0, "memdev's interleave position", NULL },
	{ "DECODER", "decoder", OUT_STR, 0.1, 0, "memdev's endpoint decoder", NULL },
	{ "SERIAL", "serial", OUT_HEX, 0.1, 0, "memdev serial number", NULL },
	{ "HOST", "host", OUT_STR, 0.1, 0, "memdev PCI device", NULL },
	{ "ROOT", "root_decoder", OUT_STR, 0.1, 0, "root decoder (CXL window)", NULL },
	{ "WAYS", "interleave_ways", OUT_NUM, 0.1, 0, "interleave ways", NULL },
	{ "GRANULARITY", "interleave_granularity", OUT_NUM, 0.1, 0, "interleave granularity", NULL },
	{ "RESOURCE", "resource", OUT_HEX, 0.1, 0, "host physical address", NULL },
	{ "STATE", "state", OUT_STR, 0.1, 0, "planned, active, committed, disabled, destroyed", NULL },
	{ "NODE", "target_node", OUT_NUM, 0.1, 0, "NUMA node of the dax memory", NULL },
	{ "BLOCKS", "memory_blocks.total", OUT_NUM, 0.1, 0, "memory blocks", NULL },
	{ "ONLINE", "memory_blocks.online", OUT_NUM, 0.1, 0, "blocks online", NULL },
};
static const struct out_table table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
	"NAME,TYPE,SIZE,MODE,POS,DECODER,ROOT,WAYS,GRANULARITY,STATE,NODE,BLOCKS,ONLINE",
};

static void usage(void)
{
	printf("usage: cxltier region create MEMDEV... [-d ROOT] [-w WAYS] [-g GRANULARITY] [-s SIZE] [--dry-run] [-j]\n"
	       "       cxltier region destroy REGION... [--offline] [--timeout SEC] [--dry-run] [-j]\n\n"
	       "Create a CXL RAM region over memdevs (interleaved when several), or destroy one.\n\n"
	       "create:\n"
	       "  MEMDEV              memN, N, a serial (0x... or decimal) or the PCI device\n"
	       "  -d, --decoder ROOT  the root decoder (CXL window); default: the first that can take them\n"
	       "  -w, --ways N        must equal the number of memdevs (a check)\n"
	       "  -g, --granularity N interleave granularity (default: the root decoder's)\n"
	       "  -s, --size SIZE     total size (K/M/G/T suffix; default: all they share)\n"
	       "destroy:\n"
	       "      --offline       offline the region's memory first (refused while online otherwise)\n"
	       "      --timeout SEC   per-block limit when offlining\n"
	       "both:\n"
	       "      --dry-run       show the plan; change nothing\n"
	       "  -j, --json          {\"regions\":[...]} as in 'cxltier list -j'\n"
	       "  -o, -n, -b, --sysroot DIR, -v: as everywhere (see cxltier(1))\n");
	out_columns_help(&table);
}

int region_exit_code(int rc)
{
	return rc == -EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL;
}

int region_show(struct cmd_env *env, const struct ct_topology *t, const struct ct_region *r, const char *state)
{
	struct ct_topology one = *t;
	bool keep = true, *none = calloc(t->nmemdevs + 1, sizeof(bool)), *dax = malloc((r->ndax + 1) * sizeof(bool));
	struct list_sel sel = { none, &keep, &dax };
	json_object *root, *o;
	char err[256];
	int rc = EXIT_OK;

	if (!none || !dax) {
		free(none);
		free(dax);
		cmd_err(env, "out of memory");
		return EXIT_FAIL;
	}
	one.regions = (struct ct_region *)r;
	one.nregions = 1;
	for (size_t i = 0; i < r->ndax; i++)
		dax[i] = true;
	if (env->out.json) {
		root = json_object_new_object();
		o = list_region_json(r, NULL, NULL);
		json_object_array_add(jb_arr(root, "regions"), o);
	} else {
		root = list_table_rows(&one, &sel);	/* memdevs only as the region's targets */
		o = json_object_array_get_idx(out_lookup(root, "rows"), 0);
	}
	if (state && o)
		jb_str(o, "state", state);
	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	}
	json_object_put(root);
	free(none);
	free(dax);
	return rc;
}

static int destroy_one(struct cmd_env *env, const struct ct_topology *t, const char *name, bool offline, bool dry,
		       struct change_opts *co)
{
	const struct ct_region *r = ct_topology_region(t, name);
	struct ct_region_teardown td;
	struct ct_hotplug_opts eo;
	int rc = ct_region_plan_destroy(env->ctx, t, name, &td);

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
		fprintf(stderr, "cxltier region: dry run: would %s%s%sfree %u endpoint decoder%s and delete %s "
			"(through %s); nothing was changed\n", td.online_blocks ? "offline its online memory blocks, " : "",
			td.enabled ? "unbind it, " : "", td.committed ? "reset its decoders, " : "",
			td.ntargets, td.ntargets == 1 ? "" : "s", name, td.method);
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
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		if (c == OPT_OFFLINE)
			offline = true;
		else if (c == OPT_DRY)
			co.dry_run = true;
		else if (c == OPT_TIMEOUT) {
			if ((rc = change_parse_timeout(env, optarg, &co)))
				return rc;
		} else if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage)))
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
		usage();
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

void region_usage(void)
{
	usage();
}
