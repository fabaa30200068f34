/* SPDX-License-Identifier: GPL-2.0-only */
/* topology-json.h - the CXL objects of `list -j` as JSON, each object once:
 * {"memdevs":[...], "regions":[{..., "targets":[...], "dax_devices":[...]}]},
 * and as the rows of `list`'s tree. Shared with `region`, which prints the
 * region it made the same way. */
#ifndef CXLTIER_TOPOLOGY_JSON_H
#define CXLTIER_TOPOLOGY_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "cxl/topology.h"

struct topology_style {
	int verbose;	/* -v levels: more fields */
	bool human;	/* -u: sizes and hex values as strings */
};

/* a memdev, with the names of the regions it backs */
json_object *topology_memdev_json(const struct ct_topology *t, const struct ct_memdev *m,
			      const struct topology_style *st);
/* a region with its targets (position, decoder, memdev) and its dax devices;
 * keep_dax[i] says whether r->dax[i] is listed (NULL: all) */
json_object *topology_region_json(const struct ct_region *r, const bool *keep_dax, const struct topology_style *st);
json_object *topology_dax_json(const struct ct_dax *d, const struct topology_style *st);
const char *topology_region_state(const struct ct_region *r);
/* sizes and addresses: integers, or with -u strings ("1G", "0x110000000") */
void topology_add_size(json_object *o, const char *k, uint64_t v, const struct topology_style *st);
void topology_add_hex(json_object *o, const char *k, uint64_t v, const struct topology_style *st);

/* which objects are kept, by index into the topology's arrays */
struct topology_sel {
	bool *memdev;		/* [nmemdevs] */
	bool *region;		/* [nregions] */
	bool **dax;		/* [nregions][ndax] */
};

/* {"rows":[...]} for the table: each row has "type" and "children" */
json_object *topology_table_rows(const struct ct_topology *t, const struct topology_sel *sel);

#endif
