// SPDX-License-Identifier: GPL-2.0-only
/* region-show.c - a region as `list` prints it, for `region create` and
 * `destroy` (region-show.h) */
#include <stdlib.h>
#include "region-show.h"
#include "cli/json-build.h"
#include "render/recovered-json.h"
#include "render/topology-json.h"

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
const struct out_table region_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
	"NAME,TYPE,SIZE,MODE,POS,DECODER,ROOT,WAYS,GRANULARITY,STATE,NODE,BLOCKS,ONLINE",
};

/* one region: {"regions":[...]} with -j, else its tree (its memdevs as the
 * region's targets only); state, when given, replaces the region's own */
static json_object *region_doc(const struct cmd_env *env, const struct ct_topology *t, const struct ct_region *r,
			       const char *state, bool *none, bool *dax)
{
	struct ct_topology one = *t;
	bool keep = true;
	struct topology_sel sel = { none, &keep, &dax };
	json_object *root, *o;

	one.regions = (struct ct_region *)r;
	one.nregions = 1;
	for (size_t i = 0; i < r->ndax; i++)
		dax[i] = true;
	if (env->out.json) {
		root = json_object_new_object();
		o = topology_region_json(r, NULL, NULL);
		json_object_array_add(jb_arr(root, "regions"), o);
	} else {
		root = topology_table_rows(&one, &sel);
		o = json_object_array_get_idx(out_lookup(root, "rows"), 0);
	}
	if (state && o)
		jb_str(o, "state", state);
	return root;
}

int region_show(struct cmd_env *env, const struct ct_region_change_report *r)
{
	const struct ct_topology *t = &r->topology;
	char err[256];
	int rc = EXIT_OK;

	for (size_t i = 0; i < r->nshown; i++) {
		const struct ct_region *reg = &r->shown[i].region;
		bool *none = calloc(t->nmemdevs + 1, sizeof(bool)), *dax = malloc((reg->ndax + 1) * sizeof(bool));
		json_object *root, *rec;

		if (!none || !dax) {
			free(none);
			free(dax);
			cmd_err(env, "out of memory");
			return EXIT_FAIL;
		}
		root = region_doc(env, t, reg, r->shown[i].state, none, dax);
		if (env->out.json && (rec = recovered_json(&r->recovered)))
			json_object_object_add(root, "recovered", rec);
		if (out_print(&env->out, &region_table, root, err, sizeof(err))) {
			cmd_err(env, "%s", err);
			rc = EXIT_USAGE;
		}
		json_object_put(root);
		free(none);
		free(dax);
	}
	return rc;
}
