// SPDX-License-Identifier: GPL-2.0-only
/* cmd-list.c - `cxltier list`: memdev -> region -> dax -> blocks -> node -> tier */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "filter.h"
#include "json-build.h"
#include "../lib/context.h"
#include "../lib/topology.h"

static const char *const levels[] = { "memdevs", "regions", "dax_devices", NULL };
static const char *const level_names[] = { "memdev", "region", "dax", NULL };
static const struct out_column columns[] = {
	{ "NAME", "name", OUT_STR, 0.1, 0, "memdev, region or dax device", NULL },
	{ "TYPE", "@level", OUT_STR, 0.1, 0, "memdev, region or dax", NULL },
	{ "SIZE", "size|ram_size", OUT_SIZE, 0.1, 0, "size (memdev: volatile capacity)", NULL },
	{ "PMEM", "pmem_size", OUT_SIZE, 0.1, 0, "memdev persistent capacity", NULL },
	{ "MODE", "mode", OUT_STR, 0.1, 0, "region mode (ram, pmem) or dax mode (system-ram, devdax)", NULL },
	{ "SERIAL", "serial", OUT_HEX, 0.1, 0, "memdev serial number", NULL },
	{ "HOST", "host", OUT_STR, 0.1, 0, "memdev PCI device", NULL },
	{ "FIRMWARE", "firmware_version", OUT_STR, 0.1, 0, "memdev firmware version", NULL },
	{ "ENDPOINT", "endpoint", OUT_STR, 0.1, 0, "memdev endpoint port", NULL },
	{ "DEVNODE", "numa_node", OUT_NUM, 0.1, 0, "NUMA node of the memdev's PCI device (CPU affinity)", NULL },
	{ "RESOURCE", "resource", OUT_HEX, 0.1, 0, "host physical address", NULL },
	{ "WAYS", "interleave_ways", OUT_NUM, 0.1, 0, "region interleave ways", NULL },
	{ "GRANULARITY", "interleave_granularity", OUT_NUM, 0.1, 0, "region interleave granularity", NULL },
	{ "DECODERS", "decoders", OUT_STR, 0.1, 0, "region endpoint decoders", NULL },
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
	levels, level_names, columns, sizeof(columns) / sizeof(columns[0]),
	"NAME,TYPE,SIZE,MODE,SERIAL,HOST,STATE,NODE,TIER,BLOCKS,ONLINE,MOVABLE",
};

static void usage(void)
{
	printf("usage: cxltier list [-m MEMDEV] [-r REGION] [-d DAX] [-N NODE] [-j] [-o COLS] [-n] [-b]\n\n"
	       "Show the CXL memory chain: memdev -> endpoint -> region -> dax device ->\n"
	       "memory blocks -> NUMA node -> memory tier.\n\n"
	       "  -m, --memdev LIST   only these memdevs (comma-separated, repeatable)\n"
	       "  -r, --region LIST   only these regions\n"
	       "  -d, --dax LIST      only these dax devices\n"
	       "  -N, --node LIST     only memory that landed in these NUMA nodes\n"
	       "  -j, --json          JSON: {\"memdevs\":[{..., \"regions\":[{..., \"dax_devices\":[...]}]}]}\n"
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

static json_object *dax_json(const struct ct_dax *d)
{
	json_object *o = json_object_new_object(), *b;

	jb_str(o, "name", d->name);
	jb_str(o, "mode", d->mode);
	jb_u64(o, "size", d->size);
	jb_u64(o, "resource", d->resource);
	if (d->target_node >= 0)
		jb_int(o, "target_node", d->target_node);
	if (d->memory_tier >= 0)
		jb_int(o, "memory_tier", d->memory_tier);
	if (d->blocks.total) {
		b = json_object_new_object();
		jb_u64(b, "first", d->blocks.first);
		jb_int(b, "total", d->blocks.total);
		jb_int(b, "online", d->blocks.online);
		jb_int(b, "offline", d->blocks.offline);
		jb_int(b, "movable", d->blocks.movable);
		jb_int(b, "normal", d->blocks.normal);
		json_object_object_add(o, "memory_blocks", b);
	}
	return o;
}

static const char *region_state(const struct ct_region *r)
{
	if (r->enabled)
		return "active";
	return r->committed ? "committed" : "disabled";
}

static char nodename[16];
static const char *node_name(int n)
{
	snprintf(nodename, sizeof(nodename), "%d", n);
	return nodename;
}

static json_object *region_json(const struct ct_region *r, struct filters *f)
{
	json_object *o = json_object_new_object(), *decs = json_object_new_array(), *daxes;

	jb_str(o, "name", r->name);
	if (r->mode[0])
		jb_str(o, "mode", r->mode);
	jb_u64(o, "size", r->size);
	if (r->resource)
		jb_u64(o, "resource", r->resource);
	jb_int(o, "interleave_ways", r->ways);
	if (r->granularity)
		jb_int(o, "interleave_granularity", r->granularity);
	for (unsigned i = 0; i < r->ntargets; i++)
		json_object_array_add(decs, json_object_new_string(r->targets[i]));
	json_object_object_add(o, "decoders", decs);
	if (r->root_decoder[0])
		jb_str(o, "root_decoder", r->root_decoder);
	jb_bool(o, "committed", r->committed);
	jb_bool(o, "enabled", r->enabled);
	jb_str(o, "state", region_state(r));
	daxes = json_object_new_array();
	for (size_t i = 0; i < r->ndax; i++) {
		const struct ct_dax *d = &r->dax[i];
		if (!filter_match(&f->dax, d->name))
			continue;
		if (filter_active(&f->node) && (d->target_node < 0 || !filter_match(&f->node, node_name(d->target_node))))
			continue;
		json_object_array_add(daxes, dax_json(d));
	}
	json_object_object_add(o, "dax_devices", daxes);
	return o;
}

static json_object *memdev_json(const struct ct_memdev *m)
{
	json_object *o = json_object_new_object();

	jb_str(o, "name", m->name);
	if (m->has_serial)
		jb_u64(o, "serial", m->serial);
	if (m->host[0])
		jb_str(o, "host", m->host);
	jb_u64(o, "ram_size", m->ram_size);
	jb_u64(o, "pmem_size", m->pmem_size);
	if (m->firmware[0])
		jb_str(o, "firmware_version", m->firmware);
	if (m->numa_node >= 0)
		jb_int(o, "numa_node", m->numa_node);
	if (m->endpoint[0])
		jb_str(o, "endpoint", m->endpoint);
	jb_bool(o, "enabled", m->enabled);
	jb_str(o, "state", m->enabled ? "enabled" : "disabled");
	return o;
}

static json_object *build(const struct ct_topology *t, struct filters *f)
{
	json_object *root = json_object_new_object(), *mds = json_object_new_array();
	bool below = filter_active(&f->region) || filter_active(&f->dax) || filter_active(&f->node);

	for (size_t i = 0; i < t->nmemdevs; i++) {
		const struct ct_memdev *m = &t->memdevs[i];
		json_object *mo, *regs;

		if (!filter_match(&f->memdev, m->name))
			continue;
		mo = memdev_json(m);
		regs = json_object_new_array();
		for (size_t j = 0; j < t->nregions; j++) {
			const struct ct_region *r = &t->regions[j];
			json_object *ro, *daxes;
			if (!ct_region_has_memdev(r, m->name) || !filter_match(&f->region, r->name))
				continue;
			ro = region_json(r, f);
			json_object_object_get_ex(ro, "dax_devices", &daxes);
			if ((filter_active(&f->dax) || filter_active(&f->node)) && !json_object_array_length(daxes)) {
				json_object_put(ro);
				continue;
			}
			json_object_array_add(regs, ro);
		}
		if (below && !json_object_array_length(regs)) {
			json_object_put(mo);
			json_object_put(regs);
			continue;
		}
		json_object_object_add(mo, "regions", regs);
		json_object_array_add(mds, mo);
	}
	json_object_object_add(root, "memdevs", mds);
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
	root = build(&t, &f);
	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	}
	json_object_put(root);
out:
	ct_topology_free(&t);
out_filters:
	filter_free(&f.memdev);
	filter_free(&f.region);
	filter_free(&f.dax);
	filter_free(&f.node);
	return rc;
}
