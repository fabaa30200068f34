// SPDX-License-Identifier: GPL-2.0-only
/* region-show.c - what `cxltier region create` and `destroy` share: how a
 * region is shown (the columns, one region as `list` prints it), the help
 * that lists those columns, and the exit code for a lib failure */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blocks-change.h"
#include "cli/json-build.h"
#include "render/topology-json.h"
#include "cmd-region.h"
#include "cxl/topology.h"

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

void region_usage(void)
{
	printf("usage: cxltier region create MEMDEV... [-d ROOT] [-w WAYS] [-g GRANULARITY] [-s SIZE] [--dry-run] [-j]\n"
	       "       cxltier region destroy REGION... [--offline|-f] [--timeout SEC] [--dry-run] [-j]\n\n"
	       "Create a CXL RAM region over memdevs (interleaved when several), or destroy one.\n\n"
	       "create:\n"
	       "  MEMDEV              memN, N, a serial (0x... or decimal) or the PCI device\n"
	       "  -d, --decoder ROOT  the root decoder (CXL window); default: the first that can take them\n"
	       "  -w, --ways N        must equal the number of memdevs (a check)\n"
	       "  -g, --granularity N interleave granularity (default: the root decoder's)\n"
	       "  -s, --size SIZE     total size (K/M/G/T suffix; default: all they share)\n"
	       "destroy:\n"
	       "      --offline       offline the region's memory first (refused while online otherwise)\n"
	       "  -f, --force         the same, as 'cxl destroy-region -f' users type it; a block that cannot\n"
	       "                      go offline stops the destroy and the memory is put back online (ndctl's\n"
	       "                      -f goes on and leaks the address space)\n"
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
	struct topology_sel sel = { none, &keep, &dax };
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
		o = topology_region_json(r, NULL, NULL);
		json_object_array_add(jb_arr(root, "regions"), o);
	} else {
		root = topology_table_rows(&one, &sel);	/* memdevs only as the region's targets */
		o = json_object_array_get_idx(out_lookup(root, "rows"), 0);
	}
	if (state && o)
		jb_str(o, "state", state);
	if (env->out.json)
		change_recovered_json(root);
	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	}
	json_object_put(root);
	free(none);
	free(dax);
	return rc;
}
