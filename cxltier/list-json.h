/* SPDX-License-Identifier: GPL-2.0-only */
/* list-json.h - the CXL objects of `list -j` as JSON, each object once:
 * {"memdevs":[...], "regions":[{..., "targets":[...], "dax_devices":[...]}]}.
 * Shared with `region`, which prints the region it made the same way. */
#ifndef CXLTIER_LIST_JSON_H
#define CXLTIER_LIST_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "cxl/topology.h"

struct list_style {
	int verbose;	/* -v levels: more fields */
	bool human;	/* -u: sizes and hex values as strings */
};

/* a memdev, with the names of the regions it backs */
json_object *list_memdev_json(const struct ct_topology *t, const struct ct_memdev *m,
			      const struct list_style *st);
/* a region with its targets (position, decoder, memdev) and its dax devices;
 * keep_dax[i] says whether r->dax[i] is listed (NULL: all) */
json_object *list_region_json(const struct ct_region *r, const bool *keep_dax, const struct list_style *st);
json_object *list_dax_json(const struct ct_dax *d, const struct list_style *st);
const char *list_region_state(const struct ct_region *r);
/* sizes and addresses: integers, or with -u strings ("1G", "0x110000000") */
void list_add_size(json_object *o, const char *k, uint64_t v, const struct list_style *st);
void list_add_hex(json_object *o, const char *k, uint64_t v, const struct list_style *st);

#endif
