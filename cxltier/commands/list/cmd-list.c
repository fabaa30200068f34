// SPDX-License-Identifier: GPL-2.0-only
/* cmd-list.c - `cxltier list`: regions with their memdevs and dax devices,
 * memory blocks, nodes and tiers. Its options, the filters (list-select.c),
 * the objects as JSON or the tree's rows (render/topology-json.c), what -v
 * adds (list-detail.c; at -vvv list-health.c and the media errors as
 * render/poison-json.c shows them), --summary (list-summary.c) */
#include <stddef.h>
#include <stdio.h>
#include "cli/cli.h"
#include "cli/json-build.h"
#include "list-detail.h"
#include "list-health.h"
#include "list-select.h"
#include "list-summary.h"
#include "list-table.h"
#include "render/poison-json.h"
#include "render/topology-json.h"
#include "core/context.h"
#include "cxl/fabric.h"
#include "cxl/topology.h"

struct list_args {
	struct list_filters f;
	bool human;
	bool summary;
};

/* -vvv: a live memdev's health, alert configuration and media errors */
static void memdev_health(struct cmd_env *env, json_object *mo, const struct ct_memdev *m, const struct ct_topology *t)
{
	struct ct_poison_list l = { 0 };

	if (list_health_detail(env, mo, m, &l)) {
		json_object *arr = jb_arr(mo, "media_errors");
		for (size_t i = 0; i < l.n; i++)
			json_object_array_add(arr, poison_record_json(&l, &l.recs[i], t, false));
	}
	ct_poison_list_free(&l);
}

/* -v and up: the decode topology, and per memdev what its level adds */
static void add_detail(struct cmd_env *env, json_object *root, const struct ct_topology *t,
		       const struct topology_style *st)
{
	json_object *mds;
	struct ct_fabric f;

	if (st->verbose < 1)
		return;
	if (ct_fabric_load(env->ctx, &f)) {
		cmd_warn(env, "no decoder detail: %s", ct_context_message(env->ctx));
		ct_error_clear(&env->ctx->err);
		return;
	}
	list_detail_roots(root, &f, t, st);
	if (json_object_object_get_ex(root, "memdevs", &mds))
		for (size_t i = 0; i < json_object_array_length(mds); i++) {
			json_object *mo = json_object_array_get_idx(mds, i), *name;
			const struct ct_memdev *m;
			if (!json_object_object_get_ex(mo, "name", &name))
				continue;
			m = st->verbose >= 3 ? ct_topology_memdev(t, json_object_get_string(name)) : NULL;
			list_detail_memdev(env, mo, json_object_get_string(name), m, &f, st);
			if (m)
				memdev_health(env, mo, m, t);
		}
	ct_fabric_free(&f);
}

/* {"memdevs":[...], "regions":[...]}, each object once */
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
	add_detail(env, root, t, st);
	return root;
}

static int print(struct cmd_env *env, const struct ct_topology *t, const struct topology_sel *sel,
		 const struct topology_style *st)
{
	json_object *root = env->out.json ? build(env, t, sel, st) : topology_table_rows(t, sel);
	char err[256];
	int rc = EXIT_OK;

	if (out_print(&env->out, &list_table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	}
	json_object_put(root);
	return rc;
}

/* the objects the filters keep; an exit code */
static int show(struct cmd_env *env, struct list_filters *f, const struct ct_topology *t,
		const struct topology_style *st)
{
	struct topology_sel sel = { 0 };
	struct ct_fabric fab = { 0 };
	int rc;

	if ((rc = list_check_names(env, t, f)))
		return rc;
	if (!t->have_cxl_bus && !env->out.json)
		fprintf(stderr, "cxltier list: no CXL bus on this system (no cxl_acpi, or no CXL hardware)\n");
	if (list_filters_need_fabric(f) && ct_fabric_load(env->ctx, &fab))
		rc = cmd_fail(env, EXIT_FAIL);
	else if (list_select(&env->ctx->sys, t, &fab, f, &sel)) {
		cmd_err(env, "out of memory");
		rc = EXIT_FAIL;
	} else if (!(rc = list_check_ports(env, f)))
		rc = print(env, t, &sel, st);
	ct_fabric_free(&fab);
	list_sel_free(t, &sel);
	return rc;
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	struct list_args *a = args;
	struct topology_style st = { env->verbose, a->human };
	struct ct_topology t;
	int rc;

	if (argc) {	/* (before the context: a usage error first) */
		cmd_err(env, "unexpected argument '%s' (filters take -m/--serial/--region/-d/-N/-p/-e/--bus%s)", argv[0],
			env->given & CLI_GIVEN_BYTES ? "; -b is --bytes here: a bus is --bus" : "");
		return EXIT_USAGE;
	}
	if ((rc = cmd_context(env)))
		return rc;
	if (ct_topology_load(env->ctx, &t))
		return cmd_fail(env, EXIT_FAIL);
	cmd_info(env, 1, "read the CXL topology through %s", t.backend ? t.backend : "nothing");
	rc = a->summary ? list_summary(env, &t, &st) : show(env, &a->f, &t, &st);
	ct_topology_free(&t);
	return rc;
}

#define ARG(field) offsetof(struct list_args, field)
static const struct cli_opt opts[] = {
	{ .name = "memdev", .key = 'm', .arg = "LIST", .store = CLI_LIST, .offset = ARG(f.memdev),
	  .complete = CLI_C_MEMDEV,
	  .help = "only these memdevs and the regions they back (comma-separated, repeatable):\n"
		  "memN, N, a serial (0x... or decimal), the PCI device, or all" },
	{ .name = "serial", .arg = "LIST", .store = CLI_LIST, .offset = ARG(f.serial),
	  .help = "only memdevs with these serial numbers" },
	{ .name = "region", .arg = "LIST", .store = CLI_LIST, .offset = ARG(f.region),
	  .complete = CLI_C_REGION, .help = "only these regions" },
	{ .name = "dax", .key = 'd', .arg = "LIST", .store = CLI_LIST, .offset = ARG(f.dax), .complete = CLI_C_DAX,
	  .help = "only these dax devices" },
	{ .name = "node", .key = 'N', .arg = "LIST", .store = CLI_LIST, .offset = ARG(f.node), .complete = CLI_C_NODE,
	  .help = "only memory that landed in these NUMA nodes" },
	{ .name = "port", .key = 'p', .arg = "LIST", .store = CLI_LIST, .offset = ARG(f.port), .complete = CLI_C_PORT,
	  .help = "only memdevs below these CXL ports (as cxl list -p: rootN, portN, a switch's\n"
		  "or host bridge's port, endpointN, an id, a port's host, root, all) and\n"
		  "their regions" },
	{ .name = "endpoint", .key = 'e', .arg = "LIST", .store = CLI_LIST, .offset = ARG(f.endpoint),
	  .complete = CLI_C_ENDPOINT, .help = "only memdevs behind these endpoints (endpointN, its id, or the memdev)" },
	{ .name = "bus", .arg = "LIST", .store = CLI_LIST, .offset = ARG(f.bus), .complete = CLI_C_BUS,
	  .help = "only memdevs on these CXL buses (rootN, its id, or the provider: ACPI.CXL);\n"
		  "cxl list's -b: here -b is --bytes, as in every cxltier command" },
	{ .name = "human", .key = 'u', .store = CLI_FLAG, .offset = ARG(human),
	  .help = "JSON sizes and addresses as strings (\"1G\", \"0x110000000\")" },
	{ .name = "summary", .store = CLI_FLAG, .offset = ARG(summary),
	  .conflicts = "memdev,serial,region,dax,node,port,endpoint,bus",
	  .help = "memory blocks by node: online, offline, movable, normal, CXL (as lsmem)" },
	{ NULL },
};
static const struct out_table *const tables[] = { &list_table, NULL };

const struct cli_command command_list = {
	.name = "list",
	.summary = "show CXL memdevs, regions, dax devices, memory blocks, nodes and tiers",
	.synopsis = "[-m MEMDEV] [-s SERIAL] [-r REGION] [-d DAX] [-N NODE] [-p PORT] [-e ENDPOINT] [--bus BUS]"
		    " [-j] [-u] [-v...]\n"
		    "--summary [-j] [-u]",
	.about = "Show the CXL memory chain: region -> memdevs (interleave positions) and\n"
		 "dax devices -> memory blocks -> NUMA node -> memory tier; memdevs in no\n"
		 "region on their own. Each object once.",
	.notes = "JSON: {\"memdevs\":[...], \"regions\":[{..., \"targets\":[...], \"dax_devices\":[...]}]};\n"
		 "-v adds root decoders, endpoint decoders and port paths; -vvv partition, firmware,\n"
		 "health, alert configuration and media errors.\n"
		 "Filters combine: OR within one, AND across them.",
	.opts = opts,
	.tables = tables,
	.args_size = sizeof(struct list_args),
	.max_operands = -1,	/* run() refuses them, saying what the filters are */
	.flags = CLI_NO_CONTEXT,
	.run = run,
};
