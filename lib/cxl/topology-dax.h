/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* topology-dax.h - the CXL regions' dax devices through the rooted sysfs
 * reader, with each region's interleave set: what online/offline need */
#ifndef CXLTIER_TOPOLOGY_DAX_H
#define CXLTIER_TOPOLOGY_DAX_H

#include "cxl/topology.h"

/* regions (name, interleave set) with their dax devices (name, mode, size,
 * resource, target node); t->block_size set. 0 or -errno with a message */
int ct_topology_load_dax_sysfs(struct ct_context *ctx, struct ct_topology *t);

#endif
