/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * migrate-sampled.h - `migrate --hot|--cold`: each process watched with
 * DAMON for an interval, then the pages it saw accessed (hot) or not
 * (cold) moved right away, while the choice is fresh; the jobs share out
 * one process's ranges. A process that cannot be watched (gone, init, a
 * kernel thread) is a record of its own with its error; only a failure of
 * DAMON itself (or of memory) stops the run, the processes before it
 * reported.
 */
#ifndef CXLTIER_MIGRATE_SAMPLED_H
#define CXLTIER_MIGRATE_SAMPLED_H

#include <stdbool.h>
#include <stddef.h>
#include "core/context.h"
#include "mm/damon.h"
#include "mm/migrate.h"

/* what DAMON saw of one task's process */
struct ct_migrate_sample {
	struct ct_access_region *reg;	/* the regions it saw (to free) */
	size_t nreg;
	bool chosen;			/* the pages to move were chosen from them */
};

/* every task (until *o->stop) watched for interval_ms, then its hot (or
 * cold) pages moved as o says; each task's outcome in its result, what
 * DAMON saw in samples[i] (free them: ct_migrate_sampled_free), the times
 * and bytes added to *tot. Says a stale DAMON setup removed (a warning) and
 * DAMON_STAT paused (-v); each task told to o->on_process once it is
 * done, watched and moved or not. 0; or -errno when the run stopped: DAMON failed
 * (-EOPNOTSUPP none here, -EBUSY someone else's, -EWOULDBLOCK another
 * cxltier kept it too long, -EPERM), or -ENOMEM; the message in ctx->err */
int ct_migrate_sampled(struct ct_context *ctx, const struct ct_migrate_opts *o, bool hot, unsigned interval_ms,
		       struct ct_migrate_task *t, size_t n, struct ct_migrate_sample *samples,
		       struct ct_migrate_totals *tot);
void ct_migrate_sampled_free(struct ct_migrate_sample *samples, size_t n);

#endif
