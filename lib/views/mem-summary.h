/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mem-summary.h - every memory block of the system counted by node,
 * state and zone, and how much of it is CXL memory (`list --summary`, as
 * lsmem's summary) */
#ifndef CXLTIER_MEM_SUMMARY_H
#define CXLTIER_MEM_SUMMARY_H

#include <stddef.h>
#include <stdint.h>
#include "cxl/topology.h"

struct ct_node_blocks {
	int node;			/* -1: blocks of no node (a kernel without NUMA) */
	unsigned blocks, online, offline, movable, normal, other_zone;
	unsigned cxl, cxl_online;	/* blocks of CXL dax devices */
};

struct ct_mem_summary {
	uint64_t block_size;
	struct ct_node_blocks total;	/* node -1 */
	struct ct_node_blocks *nodes;	/* by node number */
	size_t nnodes;
};

int ct_mem_summary_load(struct ct_context *ctx, const struct ct_topology *t, struct ct_mem_summary *s);
void ct_mem_summary_free(struct ct_mem_summary *s);

#endif
