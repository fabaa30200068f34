/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd-list.h - what the parts of `cxltier list` share */
#ifndef CXLTIER_LIST_H
#define CXLTIER_LIST_H

#include <stdbool.h>
#include <json-c/json.h>
#include "cmd.h"
#include "filter.h"
#include "list-json.h"
#include "cxl/topology.h"

/* which objects the filters keep, by index into the topology's arrays */
struct list_sel {
	bool *memdev;		/* [nmemdevs] */
	bool *region;		/* [nregions] */
	bool **dax;		/* [nregions][ndax] */
};

/* -m, -s, -r, -d, -N: OR within one, AND across them */
struct list_filters {
	struct name_filter memdev, serial, region, dax, node;
};

/* names that exist nowhere: an exit code, each named on stderr */
int list_check_names(struct cmd_env *env, const struct ct_topology *t, struct list_filters *f);
/* 0, or -1 out of memory */
int list_select(const struct ct_topology *t, struct list_filters *f, struct list_sel *sel);
void list_sel_free(const struct ct_topology *t, struct list_sel *sel);
void list_filters_free(struct list_filters *f);

/* {"rows":[...]} for the table: each row has "type" and "children" */
json_object *list_table_rows(const struct ct_topology *t, const struct list_sel *sel);
/* -v: "root_decoders", each memdev's endpoint "decoders" and "path";
 * -vvv: its "partition_info" (live), "firmware", and list_health_detail's */
void list_add_detail(struct cmd_env *env, json_object *root, const struct ct_topology *t, const struct list_style *st);
/* -vvv on a live system: the memdev's "health", "alert_config", "media_errors" */
void list_health_detail(struct cmd_env *env, json_object *mo, const struct ct_memdev *m, const struct ct_topology *t);
/* --summary: an exit code */
int list_summary(struct cmd_env *env, const struct ct_topology *t, const struct list_style *st);

#endif
