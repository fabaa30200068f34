/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * interleave.h - which memory devices a change of memory blocks touches.
 * A region interleaved over several memdevs spreads every memory block
 * over all of them: onlining or offlining any of its blocks changes the
 * capacity of each device of the set, never of one alone.
 */
#ifndef CXLTIER_INTERLEAVE_H
#define CXLTIER_INTERLEAVE_H

#include <stdbool.h>
#include <stdint.h>
#include "change/blocks.h"
#include "cxl/topology.h"

struct ct_interleave_touched {
	char memdev[CT_NAME];		/* "" when the region does not say */
	char region[CT_NAME];
	unsigned ways;			/* devices in the region's interleave set */
	unsigned position;		/* this one's place in it */
	unsigned blocks;		/* the plan's blocks in the region */
	uint64_t size;			/* this device's share of them, bytes */
	bool named;			/* a target named this memdev */
};

struct ct_interleave_set {
	struct ct_interleave_touched *m;
	size_t n;
};

/*
 * The memdevs behind the plan's blocks, region by region in topology
 * order; a region's interleave set is read from sysfs when the topology
 * was loaded without it. targets: what the command was given (for named).
 */
int ct_interleave_touched(struct ct_sysfs *s, struct ct_topology *t, const struct ct_blocks_plan *p, char *const *targets,
		    int ntargets, struct ct_interleave_set *out);
void ct_interleave_touched_free(struct ct_interleave_set *set);

/* the first region memdev is part of that interleaves other memdevs too
 * (NULL when none: every region of it is its own alone) */
const struct ct_region *ct_interleave_region_of(const struct ct_topology *t, const char *memdev);

#endif
