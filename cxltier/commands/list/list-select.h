/* SPDX-License-Identifier: GPL-2.0-only */
/* list-select.h - which objects `cxltier list`'s filters keep, and the
 * check that every name given names something */
#ifndef CXLTIER_LIST_SELECT_H
#define CXLTIER_LIST_SELECT_H

#include <stdbool.h>
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
/* after list_select (a port is also named by its host): the ports and buses
 * that matched nothing and exist nowhere; an exit code, each named on stderr */
int list_check_ports(struct cmd_env *env, const struct list_filters *f);
void list_sel_free(const struct ct_topology *t, struct topology_sel *sel);

#endif
