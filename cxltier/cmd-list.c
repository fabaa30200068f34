// SPDX-License-Identifier: GPL-2.0-only
/* cmd-list.c - `cxltier list`: regions with their memdevs and dax devices,
 * memory blocks, nodes and tiers; options and filters */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/filter.h"
#include "cli/json-build.h"
#include "cmd-list.h"
#include "core/context.h"
#include "cxl/topology.h"

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
	printf("usage: cxltier list [-m MEMDEV] [-s SERIAL] [-r REGION] [-d DAX] [-N NODE] [-p PORT] [-e ENDPOINT]\n"
	       "                    [--bus BUS] [-j] [-u] [-v...] [-o COLS] [-n] [-b]\n"
	       "       cxltier list --summary [-j] [-u]\n\n"
	       "Show the CXL memory chain: region -> memdevs (interleave positions) and\n"
	       "dax devices -> memory blocks -> NUMA node -> memory tier; memdevs in no\n"
	       "region on their own. Each object once.\n\n"
	       "  -m, --memdev LIST   only these memdevs and the regions they back (comma-separated, repeatable):\n"
	       "                      memN, N, a serial (0x... or decimal), the PCI device, or all\n"
	       "  -s, --serial LIST   only memdevs with these serial numbers\n"
	       "  -r, --region LIST   only these regions\n"
	       "  -d, --dax LIST      only these dax devices\n"
	       "  -N, --node LIST     only memory that landed in these NUMA nodes\n"
	       "  -p, --port LIST     only memdevs below these CXL ports (as cxl list -p: rootN, portN, a switch's\n"
	       "                      or host bridge's port, endpointN, an id, a port's host, root, all) and\n"
	       "                      their regions\n"
	       "  -e, --endpoint LIST only memdevs behind these endpoints (endpointN, its id, or the memdev)\n"
	       "      --bus LIST      only memdevs on these CXL buses (rootN, its id, or the provider: ACPI.CXL);\n"
	       "                      cxl list's -b: here -b is --bytes, as in every cxltier command\n"
	       "  -j, --json          JSON: {\"memdevs\":[...], \"regions\":[{..., \"targets\":[...], \"dax_devices\":[...]}]}\n"
	       "  -u, --human         JSON sizes and addresses as strings (\"1G\", \"0x110000000\")\n"
	       "  -v, --verbose       JSON: -v root decoders, endpoint decoders, port paths; -vvv partition, firmware\n"
	       "      --summary       memory blocks by node: online, offline, movable, normal, CXL (as lsmem)\n"
	       "  -o, --output COLS   table columns (+COLS adds to the default)\n"
	       "  -n, --noheadings    no table headings\n"
	       "  -b, --bytes         sizes in bytes\n"
	       "      --sysroot DIR   read a captured sysfs tree instead of the live system\n"
	       "Filters combine: OR within one, AND across them.\n");
	out_columns_help(&table);
}

static json_object *build(struct cmd_env *env, const struct ct_topology *t, const struct topology_sel *sel,
			  const struct topology_style *st)
{
	json_object *root = json_object_new_object(), *mds = jb_arr(root, "memdevs"), *regs = jb_arr(root, "regions");

	for (size_t i = 0; i < t->nmemdevs; i++)
		if (sel->memdev[i])
			json_object_array_add(mds, topology_memdev_json(t, &t->memdevs[i], st));
	for (size_t i = 0; i < t->nregions; i++)
		if (sel->region[i])
			json_object_array_add(regs, topology_region_json(&t->regions[i], sel->dax[i], st));
	list_add_detail(env, root, t, st);
	return root;
}

int cmd_list(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_SUMMARY = 0x2001, OPT_BUS };
	static const struct option opts[] = {
		{ "memdev", required_argument, NULL, 'm' },
		{ "serial", required_argument, NULL, 's' },
		{ "region", required_argument, NULL, 'r' },
		{ "dax", required_argument, NULL, 'd' },
		{ "node", required_argument, NULL, 'N' },
		{ "port", required_argument, NULL, 'p' },
		{ "endpoint", required_argument, NULL, 'e' },
		{ "bus", required_argument, NULL, OPT_BUS },
		{ "human", no_argument, NULL, 'u' },
		{ "summary", no_argument, NULL, OPT_SUMMARY },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct list_filters f = { 0 };
	struct topology_style style = { 0 };
	struct topology_sel sel = { 0 };
	struct ct_fabric fab = { 0 };
	struct ct_topology t;
	bool summary = false, bytes = false;
	json_object *root;
	char err[256];
	int c, rc;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "m:s:r:d:N:p:e:u" COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		struct name_filter *nf = c == 'm' ? &f.memdev : c == 's' ? &f.serial : c == 'r' ? &f.region :
					 c == 'd' ? &f.dax : c == 'N' ? &f.node : c == 'p' ? &f.port :
					 c == 'e' ? &f.endpoint : c == OPT_BUS ? &f.bus : NULL;
		if (nf) {
			if (filter_add(nf, optarg)) {
				cmd_err(env, "out of memory");
				rc = EXIT_FAIL;
				goto out_filters;
			}
			continue;
		}
		if (c == 'u' || c == OPT_SUMMARY) {
			style.human |= c == 'u';
			summary |= c == OPT_SUMMARY;
			continue;
		}
		bytes |= c == 'b';
		rc = cmd_common_opt(env, c, optarg, argc, argv, usage);
		if (rc) {
			rc = cmd_exit_code(rc);
			goto out_filters;
		}
	}
	style.verbose = env->verbose;
	if (optind < argc) {
		cmd_err(env, "unexpected argument '%s' (filters take -m/-s/-r/-d/-N/-p/-e/--bus%s)", argv[optind],
			bytes ? "; -b is --bytes here: a bus is --bus" : "");
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
	if (summary) {
		rc = list_summary(env, &t, &style);
		goto out;
	}
	rc = list_check_names(env, &t, &f);
	if (rc)
		goto out;
	if (!t.have_cxl_bus && !env->out.json)
		fprintf(stderr, "cxltier list: no CXL bus on this system (no cxl_acpi, or no CXL hardware)\n");
	if (list_filters_need_fabric(&f) && ct_fabric_load(env->ctx, &fab)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		rc = EXIT_FAIL;
		goto out;
	}
	if (list_select(&env->ctx->sys, &t, &fab, &f, &sel)) {
		cmd_err(env, "out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	/* (after the selection: a port is also named by its host) */
	for (size_t i = 0; i < f.port.count; i++)
		if (!f.port.matched[i] && strcmp(f.port.names[i], "root") && strcmp(f.port.names[i], "all") &&
		    !ct_fabric_port_exists(&env->ctx->sys, f.port.names[i], NULL)) {
			cmd_err(env, "no CXL port '%s' on this system (rootN, portN, endpointN, an id or a port's host; "
				"see 'cxltier list -v')", f.port.names[i]);
			rc = EXIT_FAIL;
		}
	for (size_t i = 0; i < f.bus.count; i++)
		if (!f.bus.matched[i] && strcmp(f.bus.names[i], "all") && !ct_fabric_port_exists(&env->ctx->sys, f.bus.names[i],
								 (const char *const[]){ "root", NULL })) {
			cmd_err(env, "no CXL bus '%s' with memdevs on this system (rootN, its id, or ACPI.CXL)",
				f.bus.names[i]);
			rc = EXIT_FAIL;
		}
	if (rc)
		goto out;
	root = env->out.json ? build(env, &t, &sel, &style) : topology_table_rows(&t, &sel);
	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	}
	json_object_put(root);
out:
	ct_fabric_free(&fab);
	list_sel_free(&t, &sel);
	ct_topology_free(&t);
out_filters:
	list_filters_free(&f);
	return rc;
}
