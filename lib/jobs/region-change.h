/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * region-change.h - the jobs of `cxltier region create` and `region
 * destroy`, each one call. Both take the memory-blocks lock (none in a dry
 * run), after what killed runs left is finished or undone, so that a
 * hotplug run and a person never pick the same decoders.
 *
 * create: the memdevs resolved (memN, N, a serial or the PCI device, each
 * naming one), the region planned under the lock (change/region.h), then
 * created (a dry run: the plan shown), the topology read again.
 * destroy: each region planned (a region a killed run's recovery took away
 * already counts as destroyed), its online memory offlined first when
 * asked (with rollback), then taken apart.
 *
 * The report holds the topology and the regions to show, each with the
 * state it is shown in.
 */
#ifndef CXLTIER_REGION_CHANGE_H
#define CXLTIER_REGION_CHANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cxl/topology.h"
#include "jobs/job-change.h"
#include "jobs/job-end.h"

struct ct_context;

struct ct_region_create_opts {
	char *const *memdevs;		/* memN, N, a serial (0x... or decimal) or the PCI device */
	int n;
	const char *root_decoder;	/* NULL: the first that can take them */
	unsigned ways;			/* 0: the number of memdevs (else must equal it) */
	unsigned granularity;		/* 0: the root decoder's */
	uint64_t size;			/* 0: all the volatile capacity they share */
	bool dry_run;
	struct ct_job_signals signals;
	struct ct_job_progress progress;	/* each step told as it is done */
};

struct ct_region_destroy_opts {
	char *const *regions;
	int n;
	bool offline;			/* online memory offlined first (else refused) */
	bool dry_run;
	unsigned timeout_s;		/* per block when offlining, and the wait for the lock */
	struct ct_job_signals signals;
	struct ct_job_progress progress;	/* each block told as --offline offlines it, each step as it is done */
};

/* a region to show, as `list` shows it */
struct ct_region_shown {
	struct ct_region region;	/* its dax devices are the report's topology's */
	const char *state;		/* NULL: its own; "planned", "destroyed" */
};

struct ct_region_change_report {
	enum ct_job_end end;
	struct ct_topology topology;	/* what the regions are shown with (their memdevs) */
	struct ct_region_shown *shown;	/* in the order given; one for create */
	size_t nshown;
	struct ct_job_recovered recovered;
};

/* the jobs: how they ended (also in r), everything they had to tell said */
enum ct_job_end ct_region_change_create(struct ct_context *ctx, const struct ct_region_create_opts *o,
					   struct ct_region_change_report *r);
enum ct_job_end ct_region_change_destroy(struct ct_context *ctx, const struct ct_region_destroy_opts *o,
					    struct ct_region_change_report *r);
void ct_region_change_report_free(struct ct_region_change_report *r);

#endif
