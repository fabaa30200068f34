/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * interleave-compute.h - weighted-interleave weights from each node's
 * bandwidth, reduced to small integers the way the kernel's auto mode does
 * (mm/mempolicy.c, 6.16+: mempolicy_set_node_perf() keeps for each node
 * min(read_bandwidth, write_bandwidth) of its access class 1 coordinates
 * (the nearest CPU's, ACCESS_COORDINATE_CPU); reduce_interleave_weights()
 * then gives each memory node
 *
 *	weight = weightiness * bw / sum_bw	(integer division, weightiness 32)
 *
 * when bw is not 0 and weightiness * bw > sum_bw, else 1, and divides all
 * the weights by their GCD). A node the kernel has no figures for keeps
 * bandwidth 0 in its table, counts 0 in the sum and gets weight 1.
 *
 * Pure: no file is read; every step of the arithmetic is kept so that it
 * can be shown. The arithmetic here is 64-bit: the kernel multiplies in 32
 * bits (unsigned int), which wraps above 134217727 MB/s for one node; such a
 * node is flagged (kernel_wraps) and computed without the wrap.
 */
#ifndef CXLTIER_INTERLEAVE_COMPUTE_H
#define CXLTIER_INTERLEAVE_COMPUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CT_WI_WEIGHTINESS 32	/* mm/mempolicy.c: weightiness */

/* one memory node's figures as the kernel would take them */
struct ct_wi_figures {
	int node;
	bool present;				/* the node has access1 figures */
	uint64_t read_bandwidth, write_bandwidth;	/* MB/s */
};

/* why a node got its weight */
enum ct_wi_why {
	CT_WI_SCALED,		/* weightiness * bw / sum */
	CT_WI_NO_FIGURES,	/* no figures: bandwidth 0, weight 1 */
	CT_WI_ZERO,		/* figures, but the smaller of read and write is 0: weight 1 */
	CT_WI_SMALL,		/* bw <= sum / weightiness: weight 1 */
};
const char *ct_wi_why_name(enum ct_wi_why w);	/* "scaled", "no-figures", "zero", "small" */

struct ct_wi_step {
	int node;
	enum ct_wi_why why;
	uint64_t bandwidth;	/* min(read, write), MB/s; 0 without figures */
	uint64_t scaled;	/* weightiness * bandwidth */
	unsigned raw;		/* the weight before the GCD: 1..weightiness */
	unsigned weight;	/* raw / gcd */
	bool clamped;		/* a figure above 2^32-1 (the kernel's unsigned int) taken as 2^32-1 */
	bool kernel_wraps;	/* scaled above 2^32-1: the kernel's product wraps */
};

struct ct_wi_result {
	unsigned weightiness;
	uint64_t sum;		/* the sum of the bandwidths */
	unsigned gcd;		/* of the raw weights; 0 when there are no nodes */
	size_t n;
	struct ct_wi_step *steps;	/* the caller's array of n */
};

/* the weights of the n nodes of in, into steps (n of them) and r */
void ct_wi_compute(const struct ct_wi_figures *in, size_t n, struct ct_wi_step *steps,
		   struct ct_wi_result *r);

#endif
