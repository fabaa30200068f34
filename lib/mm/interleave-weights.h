/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * interleave-weights.h - the kernel's weighted-interleave weights
 * (/sys/kernel/mm/mempolicy/weighted_interleave/nodeN, 6.9+: 1-255, the
 * weight MPOL_WEIGHTED_INTERLEAVE gives each node) and, from 6.16, its mode
 * (.../auto: "true" when the kernel derives the weights from each node's
 * bandwidth itself, "false" when they were written by hand).
 */
#ifndef CXLTIER_INTERLEAVE_WEIGHTS_H
#define CXLTIER_INTERLEAVE_WEIGHTS_H

#include <stdbool.h>
#include "core/sysfs.h"

#define CT_WI_DIR "/sys/kernel/mm/mempolicy/weighted_interleave"
#define CT_WI_MAX_NODES 1024		/* MAX_NUMNODES of the largest NODES_SHIFT */
#define CT_WI_WEIGHT_MAX 255

struct ct_wi_node {
	int node;
	unsigned weight;		/* 1-255 */
};

struct ct_wi_state {
	bool has_auto;			/* the kernel has .../auto (6.16+) */
	bool auto_on;			/* .../auto reads true */
	unsigned n;			/* nodes with a nodeN file, by id */
	struct ct_wi_node *nodes;	/* malloc'd */
};

/* the weights and the mode: 0; -EOPNOTSUPP with a message when the kernel
 * has no weighted interleave (before 6.9, or CONFIG_NUMA off); -errno with a
 * message naming the file for anything else (EACCES said as permission) */
int ct_wi_read(struct ct_sysfs *s, struct ct_wi_state *st);
void ct_wi_free(struct ct_wi_state *st);
/* the weight of a node, 0 when the kernel shows none for it */
unsigned ct_wi_weight(const struct ct_wi_state *st, int node);

#endif
