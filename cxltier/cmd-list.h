/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd-list.h - what the parts of `cxltier list` share */
#ifndef CXLTIER_CMD_LIST_H
#define CXLTIER_CMD_LIST_H

#include <stdbool.h>
#include <json-c/json.h>
#include "cli/cli.h"
#include "cli/filter.h"
#include "render/topology-json.h"
#include "cxl/fabric.h"
#include "cxl/topology.h"

/* -m, -s, -r, -d, -N, -p, -e, --bus: OR within one, AND across them */
struct list_filters {
	struct name_filter memdev, serial, region, dax, node;
	struct name_filter port, endpoint, bus;	/* ndctl's -p, -e, -b: through the fabric */
};

/* a port, endpoint or bus filter is given: list_select needs the fabric */
bool list_filters_need_fabric(const struct list_filters *f);

/* names that exist nowhere: an exit code, each named on stderr */
int list_check_names(struct cmd_env *env, const struct ct_topology *t, struct list_filters *f);
/* 0, or -1 out of memory; fab: the fabric when list_filters_need_fabric() */
int list_select(struct ct_sysfs *s, const struct ct_topology *t, const struct ct_fabric *fab, struct list_filters *f,
		struct topology_sel *sel);
void list_sel_free(const struct ct_topology *t, struct topology_sel *sel);
void list_filters_free(struct list_filters *f);

/* -v: "root_decoders", each memdev's endpoint "decoders" and "path";
 * -vvv: its "partition_info" (live), "firmware", and list_health_detail's */
void list_add_detail(struct cmd_env *env, json_object *root, const struct ct_topology *t, const struct topology_style *st);
/* -vvv on a live system: the memdev's "health", "alert_config", "media_errors" */
void list_health_detail(struct cmd_env *env, json_object *mo, const struct ct_memdev *m, const struct ct_topology *t);
/* --summary: an exit code */
int list_summary(struct cmd_env *env, const struct ct_topology *t, const struct topology_style *st);

#endif
