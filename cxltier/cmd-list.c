// SPDX-License-Identifier: GPL-2.0-only
/* cmd-list.c - `cxltier list`: regions with their memdevs and dax devices,
 * memory blocks, nodes and tiers; options and filters */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "filter.h"
#include "json-build.h"
#include "list.h"
#include "../lib/context.h"
#include "../lib/topology.h"

static const char *const levels[] = { "rows", "children", NULL };
static const struct out_column columns[] = {
	{ "NAME", "name", OUT_STR, 0.1, 0, "region, memdev or dax device", NULL },
	{ "TYPE", "type", OUT_STR, 0.1, 0, "region, memdev or dax", NULL },
	{ "SIZE", "size", OUT_SIZE, 0.1, 0, "size (a region's memdev: its share, the decoder's DPA size)", NULL },
	{ "PMEM", "pmem_size", OUT_SIZE, 0.1, 0, "memdev persistent capacity", NULL },
	{ "MODE", "mode", OUT_STR, 0.1, 0, "region mode (ram, pmem) or dax mode (system-ram, devdax)", NULL },
	{ "SERIAL", "serial", OUT_HEX, 0.1, 0, "memdev serial number", NULL },
	{ "HOST", "host", OUT_STR, 0.1, 0, "memdev PCI device", NULL },
	{ "POS", "position", OUT_NUM, 0.1, 0, "memdev's position in the region interleave", NULL },
	{ "DECODER", "decoder", OUT_STR, 0.1, 0, "memdev's endpoint decoder for the region", NULL },
	{ "FIRMWARE", "firmware_version", OUT_STR, 0.1, 0, "memdev firmware version", NULL },
	{ "ENDPOINT", "endpoint", OUT_STR, 0.1, 0, "memdev endpoint port", NULL },
	{ "DEVNODE", "numa_node", OUT_NUM, 0.1, 0, "NUMA node of the memdev's PCI device (CPU affinity)", NULL },
	{ "RESOURCE", "resource", OUT_HEX, 0.1, 0, "host physical address", NULL },
	{ "WAYS", "interleave_ways", OUT_NUM, 0.1, 0, "region interleave ways", NULL },
	{ "GRANULARITY", "interleave_granularity", OUT_NUM, 0.1, 0, "region interleave granularity", NULL },
	{ "ROOT", "root_decoder", OUT_STR, 0.1, 0, "region root decoder", NULL },
	{ "STATE", "state", OUT_STR, 0.1, 0, "memdev enabled/disabled; region active/committed/disabled", NULL },
	{ "NODE", "target_node", OUT_NUM, 0.1, 0, "NUMA node the dax memory becomes", NULL },
	{ "TIER", "memory_tier", OUT_NUM, 0.1, 0, "memory tier of that node", NULL },
	{ "BLOCKS", "memory_blocks.total", OUT_NUM, 0.1, 0, "memory blocks of the dax device", NULL },
	{ "ONLINE", "memory_blocks.online", OUT_NUM, 0.1, 0, "blocks online", NULL },
	{ "MOVABLE", "memory_blocks.movable", OUT_NUM, 0.1, 0, "blocks online in ZONE_MOVABLE", NULL },
	{ "NORMAL", "memory_blocks.normal", OUT_NUM, 0.1, 0, "blocks online in ZONE_NORMAL", NULL },
};
static const struct out_table table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
	"NAME,TYPE,SIZE,MODE,SERIAL,HOST,POS,DECODER,STATE,NODE,TIER,BLOCKS,ONLINE,MOVABLE",
};

static void usage(void)
{
	printf("usage: cxltier list [-m MEMDEV] [-r REGION] [-d DAX] [-N NODE] [-j] [-o COLS] [-n] [-b]\n\n"
	       "Show the CXL memory chain: region -> memdevs (interleave positions) and\n"
	       "dax devices -> memory blocks -> NUMA node -> memory tier; memdevs in no\n"
	       "region on their own. Each object once.\n\n"
	       "  -m, --memdev LIST   only these memdevs and the regions they back (comma-separated, repeatable)\n"
	       "  -r, --region LIST   only these regions\n"
	       "  -d, --dax LIST      only these dax devices\n"
	       "  -N, --node LIST     only memory that landed in these NUMA nodes\n"
	       "  -j, --json          JSON: {\"memdevs\":[...], \"regions\":[{..., \"targets\":[...], \"dax_devices\":[...]}]}\n"
	       "  -o, --output COLS   table columns (+COLS adds to the default)\n"
	       "  -n, --noheadings    no table headings\n"
	       "  -b, --bytes         sizes in bytes\n"
	       "      --sysroot DIR   read a captured sysfs tree instead of the live system\n"
	       "  -v, --verbose       say more on stderr\n"
	       "Filters combine: OR within one, AND across them.\n");
	out_columns_help(&table);
}

struct filters {
	struct name_filter memdev, region, dax, node;
};

static bool dax_passes(struct filters *f, const struct ct_dax *d)
{
	char node[16];

	if (!filter_match(&f->dax, d->name))
		return false;
	if (!filter_active(&f->node))
		return true;
	snprintf(node, sizeof(node), "%d", d->target_node);
	return d->target_node >= 0 && filter_match(&f->node, node);
}

/* a region is kept when it passes its own filter, backs a chosen memdev and
 * holds a chosen dax device; a memdev when it passes its filter and, under
 * region/dax/node filters, backs a kept region */
static int select_objects(const struct ct_topology *t, struct filters *f, struct list_sel *sel)
{
	bool below = filter_active(&f->region) || filter_active(&f->dax) || filter_active(&f->node);

	sel->memdev = calloc(t->nmemdevs + 1, sizeof(bool));
	sel->region = calloc(t->nregions + 1, sizeof(bool));
	sel->dax = calloc(t->nregions + 1, sizeof(bool *));
	if (!sel->memdev || !sel->region || !sel->dax)
		return -1;
	for (size_t i = 0; i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		bool any_dax = false, any_memdev = !filter_active(&f->memdev);

		if (!(sel->dax[i] = calloc(r->ndax + 1, sizeof(bool))))
			return -1;
		for (size_t k = 0; k < r->ndax; k++)
			any_dax |= sel->dax[i][k] = dax_passes(f, &r->dax[k]);
		for (unsigned k = 0; k < r->ntargets; k++)
			any_memdev |= filter_active(&f->memdev) && filter_match(&f->memdev, r->memdevs[k]);
		sel->region[i] = filter_match(&f->region, r->name) && any_memdev &&
				 (any_dax || !(filter_active(&f->dax) || filter_active(&f->node)));
	}
	for (size_t i = 0; i < t->nmemdevs; i++) {
		const char *name = t->memdevs[i].name;
		bool backs = !below;

		for (size_t j = 0; j < t->nregions && !backs; j++)
			backs = sel->region[j] && ct_region_has_memdev(&t->regions[j], name);
		sel->memdev[i] = filter_match(&f->memdev, name) && backs;
	}
	return 0;
}

static void sel_free(const struct ct_topology *t, struct list_sel *sel)
{
	for (size_t i = 0; sel->dax && i < t->nregions; i++)
		free(sel->dax[i]);
	free(sel->dax);
	free(sel->region);
	free(sel->memdev);
}

static json_object *build(const struct ct_topology *t, const struct list_sel *sel, const struct list_style *st)
{
	json_object *root = json_object_new_object(), *mds = jb_arr(root, "memdevs"), *regs = jb_arr(root, "regions");

	for (size_t i = 0; i < t->nmemdevs; i++)
		if (sel->memdev[i])
			json_object_array_add(mds, list_memdev_json(t, &t->memdevs[i], st));
	for (size_t i = 0; i < t->nregions; i++)
		if (sel->region[i])
			json_object_array_add(regs, list_region_json(&t->regions[i], sel->dax[i], st));
	return root;
}

/* names given to a filter that exist nowhere are errors, not empty output */
static int check_names(struct cmd_env *env, const struct ct_topology *t, struct filters *f)
{
	int bad = 0;

	for (size_t i = 0; i < f->memdev.count; i++)
		if (!ct_topology_memdev(t, f->memdev.names[i])) {
			cmd_err(env, "no memdev '%s' on this system%s", f->memdev.names[i],
				t->nmemdevs ? " (see 'cxltier list')" : " (no CXL memdevs found)");
			bad = 1;
		}
	for (size_t i = 0; i < f->region.count; i++) {
		bool found = false;
		for (size_t j = 0; j < t->nregions; j++)
			found |= strcmp(t->regions[j].name, f->region.names[i]) == 0;
		if (!found) {
			cmd_err(env, "no region '%s' on this system (see 'cxltier list')", f->region.names[i]);
			bad = 1;
		}
	}
	for (size_t i = 0; i < f->dax.count; i++) {
		bool found = false;
		for (size_t j = 0; j < t->nregions; j++)
			for (size_t k = 0; k < t->regions[j].ndax; k++)
				found |= strcmp(t->regions[j].dax[k].name, f->dax.names[i]) == 0;
		if (!found) {
			cmd_err(env, "no CXL dax device '%s' on this system (see 'cxltier list')", f->dax.names[i]);
			bad = 1;
		}
	}
	for (size_t i = 0; i < f->node.count; i++) {
		char *end, *n = f->node.names[i];
		if (!strncmp(n, "node", 4)) {	/* "node1" means 1 */
			char *num = strdup(n + 4);
			if (!num)
				return EXIT_FAIL;
			free(n);
			f->node.names[i] = n = num;
		}
		strtol(n, &end, 10);
		if (!*n || *end) {
			cmd_err(env, "'%s' is not a NUMA node number", f->node.names[i]);
			return EXIT_USAGE;
		}
	}
	return bad ? EXIT_FAIL : EXIT_OK;
}

int cmd_list(int argc, char **argv, struct cmd_env *env)
{
	static const struct option opts[] = {
		{ "memdev", required_argument, NULL, 'm' },
		{ "region", required_argument, NULL, 'r' },
		{ "dax", required_argument, NULL, 'd' },
		{ "node", required_argument, NULL, 'N' },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct filters f = { 0 };
	struct list_style style = { 0 };
	struct list_sel sel = { 0 };
	struct ct_topology t;
	json_object *root;
	char err[256];
	int c, rc;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "m:r:d:N:" COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		struct name_filter *nf = c == 'm' ? &f.memdev : c == 'r' ? &f.region :
					 c == 'd' ? &f.dax : c == 'N' ? &f.node : NULL;
		if (nf) {
			filter_add(nf, optarg);
			continue;
		}
		rc = cmd_common_opt(env, c, optarg, argc, argv, usage);
		if (rc) {
			rc = cmd_exit_code(rc);
			goto out_filters;
		}
	}
	if (optind < argc) {
		cmd_err(env, "unexpected argument '%s' (filters take -m/-r/-d/-N)", argv[optind]);
		rc = EXIT_USAGE;
		goto out_filters;
	}
	rc = cmd_context(env);
	if (rc)
		goto out_filters;
	if (ct_topology_load(env->ctx, &t)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		rc = EXIT_FAIL;
		goto out_filters;
	}
	cmd_info(env, 1, "read the CXL topology through %s", t.backend ? t.backend : "nothing");
	rc = check_names(env, &t, &f);
	if (rc)
		goto out;
	if (!t.have_cxl_bus && !env->out.json)
		fprintf(stderr, "cxltier list: no CXL bus on this system (no cxl_acpi, or no CXL hardware)\n");
	if (select_objects(&t, &f, &sel)) {
		cmd_err(env, "out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	root = env->out.json ? build(&t, &sel, &style) : list_table_rows(&t, &sel);
	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	}
	json_object_put(root);
out:
	sel_free(&t, &sel);
	ct_topology_free(&t);
out_filters:
	filter_free(&f.memdev);
	filter_free(&f.region);
	filter_free(&f.dax);
	filter_free(&f.node);
	return rc;
}
