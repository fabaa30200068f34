/* SPDX-License-Identifier: GPL-2.0-only */
/* list.h - what the parts of `cxltier list` share */
#ifndef CXLTIER_LIST_H
#define CXLTIER_LIST_H

#include <stdbool.h>
#include <json-c/json.h>
#include "list-json.h"
#include "../lib/topology.h"

/* which objects the filters keep, by index into the topology's arrays */
struct list_sel {
	bool *memdev;		/* [nmemdevs] */
	bool *region;		/* [nregions] */
	bool **dax;		/* [nregions][ndax] */
};

/* {"rows":[...]} for the table: each row has "type" and "children" */
json_object *list_table_rows(const struct ct_topology *t, const struct list_sel *sel);

#endif
