/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * offline-remove.h - the job of `cxltier offline MEMDEV --remove`: each
 * memdev made ready to be pulled, in one call. Under the memory-blocks
 * lock, after what killed runs left is finished or undone, for each
 * memdev: its regions taken apart in the order the kernel takes an
 * endpoint's capacity back (the decoder allocated last first), each
 * checked before any of its memory goes offline (a region whose dax device
 * is another driver's, famfs's, is never taken away: then none of the
 * memdev's is); every block of a region offlined (no rollback: a busy
 * block is named with the processes that have pages on its node, the
 * others stay offline and a second run goes on from there), the region
 * destroyed; then the memdev disabled (unbound from cxl_mem). A signal
 * stops it at a block's boundary: what is left is named, nothing more is
 * tried. The report says, per memdev, what became of each region, whether
 * it is disabled and safe to remove, and each busy block with its pinners.
 */
#ifndef CXLTIER_OFFLINE_REMOVE_H
#define CXLTIER_OFFLINE_REMOVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "change/blocks.h"
#include "change/memdev-remove.h"
#include "jobs/job-change.h"
#include "jobs/job-end.h"

struct ct_context;

struct ct_offline_remove_opts {
	char *const *memdevs;		/* memN */
	int n;
	bool whole_region;		/* a memdev of an interleaved region takes its whole region */
	bool dry_run;			/* what would be done said; nothing changed, no lock */
	unsigned timeout_s;		/* per block, and the wait for the lock */
	struct ct_job_signals signals;
	struct ct_job_progress progress;	/* each block told as it is offlined */
};

struct ct_remove_region {
	char name[CT_NAME];
	const char *state;		/* destroyed, busy, failed, interrupted, planned */
	char with[CT_MAX_TARGETS][CT_NAME];	/* the other memdevs of its interleave set */
	unsigned nwith;
	char error[512];		/* why it failed, "" none */
};

struct ct_remove_memdev {
	char name[CT_NAME];
	struct ct_remove_region *regions;	/* in the order they were taken apart */
	size_t nregions;
	bool judged;			/* disabled and safe_to_remove say (not in a dry run, nor
					 * when a region was not cxltier's to take away) */
	bool disabled, safe_to_remove;
};

/* a block that stays online */
struct ct_busy_block {
	uint64_t id;
	char region[CT_NAME];
	int node;			/* -1 unknown */
	enum ct_blocks_result result;
	int err;			/* errno, 0 none */
	char *note;			/* why, "" none */
	const struct ct_pinner *pinners;	/* the processes with pages on its node, most first */
	size_t npinners, total;		/* ... and how many there were */
};

struct ct_remove_pinners;

struct ct_offline_remove_report {
	enum ct_job_end end;
	bool shown;			/* the memdevs were gone through: a report to show */
	struct ct_remove_memdev *memdevs;	/* those found, in the order given */
	size_t nmemdevs;
	struct ct_busy_block *busy;
	size_t nbusy;
	struct ct_job_recovered recovered;
	struct ct_remove_pinners *pinners;	/* each node's, looked for once (the busy blocks point into them) */
	size_t npinners;
};

/* the job: how it ended (also in r), everything it had to tell said */
enum ct_job_end ct_offline_remove(struct ct_context *ctx, const struct ct_offline_remove_opts *o,
				     struct ct_offline_remove_report *r);
void ct_offline_remove_report_free(struct ct_offline_remove_report *r);

#endif
