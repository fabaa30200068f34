/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * blocks-change.h - the job of `cxltier online` and `cxltier offline`: the
 * memory blocks of targets onlined or offlined, in one call. Under the
 * memory-blocks lock (none in a dry run), after what killed runs left is
 * finished or undone: the topology the targets need, a memdev of an
 * interleaved region refused unless its whole region is meant, each target
 * resolved to its blocks (a devdax device switched to system-ram first,
 * when asked), each block's action decided, carried out and read back,
 * the lock released; then each block that did not go as asked is said,
 * with the memdevs behind the blocks. The report is the plan with each
 * block's result, the topology it was made on, those memdevs, what was
 * recovered, a tally and how it ended (jobs/job-end.h).
 */
#ifndef CXLTIER_BLOCKS_CHANGE_H
#define CXLTIER_BLOCKS_CHANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "change/blocks.h"
#include "change/interleave.h"
#include "change/policy-region.h"
#include "jobs/job-change.h"
#include "jobs/job-end.h"

struct ct_context;

struct ct_blocks_change_opts {
	enum ct_blocks_want want;	/* CT_WANT_MOVABLE, CT_WANT_KERNEL (online), CT_WANT_OFFLINE */
	char *const *targets;		/* daxX.Y, regionN, memN, nodeN, memoryN, memoryN-M, all */
	int ntargets;
	bool reonline;			/* blocks online in another zone: offlined, onlined movable */
	bool convert;			/* online: a dax device in devdax mode switched to system-ram first */
	bool force;			/* ... with the kernel's own onlining held off for it */
	bool whole_region;		/* a memdev of an interleaved region takes its whole region */
	bool dry_run;			/* decided and shown, nothing written, no lock */
	bool rollback;			/* when a block fails, the others put back */
	unsigned timeout_s;		/* per block, and the wait for the lock */
	struct ct_job_signals signals;
	struct ct_job_progress progress;	/* each block told as it is carried out */
};

struct ct_blocks_change_report {
	enum ct_job_end end;
	bool shown;			/* the blocks were decided (and changed, unless a dry run): a report to show */
	bool dry_run;
	enum ct_blocks_want want;
	struct ct_blocks_plan plan;	/* each block: before, action, result, after, note */
	struct ct_topology topology;	/* what the targets were resolved on (read again after a change) */
	struct ct_interleave_set memdevs;	/* the memdevs behind the blocks, each with its share */
	struct ct_job_recovered recovered;
	/* online --policy (jobs/policy-online.h): each memdev without a region
	 * and what became of it (none otherwise) */
	struct ct_policy_new_region *new_regions;
	size_t nnew_regions;
	/* the tally, block by block */
	size_t done, unchanged;
	size_t failed;			/* not as asked: refused, failed, raced, interrupted, half_done */
	size_t rolled_back, rollback_failed, half_done;
	size_t would_change;		/* a dry run: the blocks it would write */
	uint64_t changed_bytes;		/* of the blocks changed (done, rollback_failed) */
	uint64_t block_size;		/* the blocks' size (0 when it could not be read) */
	bool stopped;			/* a signal stopped the run before every block was handled */
	struct timespec phase;		/* when the run's last phase ended (CLOCK_MONOTONIC): -vv times what follows */
};

/* the job: how it ended (also in r), everything it had to tell said */
enum ct_job_end ct_blocks_change(struct ct_context *ctx, const struct ct_blocks_change_opts *o,
				    struct ct_blocks_change_report *r);
void ct_blocks_change_report_free(struct ct_blocks_change_report *r);

#endif
