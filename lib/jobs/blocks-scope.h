/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * blocks-scope.h - private to lib/jobs/: what a change of memory blocks
 * touches beyond its targets. A region interleaved over several memdevs
 * stripes every block over all of them: a memdev target of such a set is
 * refused unless its whole region is meant, and every run names the
 * memdevs behind the blocks it changes (change/interleave.h).
 */
#ifndef CXLTIER_BLOCKS_SCOPE_H
#define CXLTIER_BLOCKS_SCOPE_H

#include <stdbool.h>
#include "change/interleave.h"
#include "jobs/job-change.h"
#include "jobs/job-end.h"

/* a memdev target whose region interleaves other memdevs: CT_JOB_BAD_INPUT,
 * said (naming them and the capacity), unless whole; else CT_JOB_DONE */
enum ct_job_end blocks_scope_refuse(struct ct_context *ctx, const struct ct_topology *t, char *const *targets,
				       int n, bool whole, enum ct_blocks_want want);
/* the memdevs behind the plan's blocks into set (empty when they cannot
 * be told), each region that spans several said with each one's share */
void blocks_scope_touched(struct ct_context *ctx, struct ct_topology *t, char *const *targets, int n,
			  const struct ct_blocks_plan *plan, enum ct_blocks_want want, struct ct_interleave_set *set);

#endif
