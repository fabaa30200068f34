/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tiers.h - the kernel's memory tiers (/sys/devices/virtual/memory_tiering) */
#ifndef CXLTIER_TIERS_H
#define CXLTIER_TIERS_H

#include "nodelist.h"
#include "sysfs.h"

struct ct_tier {
	int id;			/* memory_tierN: N = abstract distance >> 7 */
	struct ct_nodeset nodes;
};

struct ct_tiers {
	struct ct_tier *tier;
	size_t count;		/* 0: no memory tiering on this kernel */
};

int ct_tiers_load(struct ct_sysfs *s, struct ct_tiers *t);
void ct_tiers_free(struct ct_tiers *t);
/* the tier holding a node, -1 when none */
int ct_tiers_of_node(const struct ct_tiers *t, int node);

#endif
