/* SPDX-License-Identifier: GPL-2.0-only */
/* list-detail.h - what `list -v` adds to the JSON: the root decoders, each
 * memdev's endpoint decoders and port path; at -vvv its partitioning and
 * firmware */
#ifndef CXLTIER_LIST_DETAIL_H
#define CXLTIER_LIST_DETAIL_H

#include <json-c/json.h>
#include "cli/cli.h"
#include "render/topology-json.h"
#include "cxl/fabric.h"
#include "cxl/topology.h"

/* "root_decoders" into the root */
void list_detail_roots(json_object *root, const struct ct_fabric *f, const struct ct_topology *t,
		       const struct topology_style *st);
/* a memdev's "path" and "decoders"; at -vvv (m: the memdev) its
 * "partition_info" (live) and "firmware" */
void list_detail_memdev(struct cmd_env *env, json_object *mo, const char *name, const struct ct_memdev *m,
			const struct ct_fabric *f, const struct topology_style *st);

#endif
