/* SPDX-License-Identifier: GPL-2.0-only */
/* list-summary.h - `list --summary`: every memory block of the system by
 * node, as lsmem's summary */
#ifndef CXLTIER_LIST_SUMMARY_H
#define CXLTIER_LIST_SUMMARY_H

#include "cli/cli.h"
#include "render/topology-json.h"
#include "cxl/topology.h"

/* the table or JSON; an exit code */
int list_summary(struct cmd_env *env, const struct ct_topology *t, const struct topology_style *st);

#endif
