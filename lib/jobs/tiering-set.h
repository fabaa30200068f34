/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tiering-set.h - the job of `cxltier tiering`: the kernel's own tiering
 * switches (mm/numa.h: demotion in reclaim, NUMA balancing's mode and its
 * promotion rate limit) set, one call.
 *
 * Every switch asked for is checked first (its file there: else the run is
 * unsupported, nothing written). Then, unless a dry run, the memory-blocks
 * lock is taken and what killed runs left is finished or undone (a tiering
 * change killed between its writes among it: its switches set back), the
 * settings read again, and those that change are recorded
 * (change/change-record.h) before the first write; a write the kernel
 * refuses sets the ones already written back, so that the kernel ends with
 * the old settings or the new ones. The settings are read back at the end.
 */
#ifndef CXLTIER_TIERING_SET_H
#define CXLTIER_TIERING_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mm/numa.h"
#include "change/tiering-change.h"
#include "jobs/job-change.h"
#include "jobs/job-end.h"

struct ct_context;

struct ct_tiering_set_opts {
	int64_t want[CT_TIERING_NSWITCHES];	/* by enum ct_tiering_switch; -1: left as it is */
	bool dry_run;
	unsigned timeout_s;			/* the wait for the lock */
	struct ct_job_signals signals;
};

struct ct_tiering_set_report {
	enum ct_job_end end;
	struct ct_tiering_settings before, after;	/* after: read back (a dry run: before) */
	struct ct_tiering_step steps[CT_TIERING_NSWITCHES];
	size_t nsteps;
	struct ct_job_recovered recovered;
};

/* the switches set as asked; the report filled whatever the end */
enum ct_job_end ct_tiering_set(struct ct_context *ctx, const struct ct_tiering_set_opts *o,
			       struct ct_tiering_set_report *r);

#endif
