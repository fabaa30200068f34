/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tiers.h - the kernel's memory tiers (/sys/devices/virtual/memory_tiering) */
#ifndef CXLTIER_TIERS_H
#define CXLTIER_TIERS_H

#include <stdbool.h>
#include "core/nodeset.h"
#include "core/sysfs.h"

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

/* what the demotion rule needs to know of the nodes */
struct ct_tier_node_info {
	int (*distance)(const void *ctx, int from, int to);	/* SLIT; < 0 unknown */
	bool (*has_cpu)(const void *ctx, int node);
};

/*
 * The preferred demotion targets of a node, as mm/memory-tiers.c computes
 * them (establish_demotion_targets, find_next_best_node): nodes of the next
 * slower tier, nearest first (headless nodes and nodes numbered above this
 * one first among equals), as long as their distance is the first one's.
 * Returns the number of targets (0: the node is in the slowest tier or has
 * no tier); *allowed gets every node in slower tiers.
 */
int ct_tiers_demotion_targets(const struct ct_tiers *t, int node, const struct ct_tier_node_info *info,
			      const void *ctx, struct ct_nodeset *preferred, struct ct_nodeset *allowed);

#endif
