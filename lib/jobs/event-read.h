/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-read.h - a reading run of `events` as one job: the records the
 * filter takes, from
 *  - the store's history first, then the shared tracefs instance (what is
 *    live and not stored yet), or what is live alone: a read makes no
 *    instance and holds every record it reads that the store has not for
 *    the next run (a trace buffer cannot be read without consuming it:
 *    events/event-keep.h); a drain makes the instance when missing, and
 *    consumes what it shows (what the filter hides is kept for a later run);
 *  - the store's history alone (nothing live is read or consumed);
 *  - a file of 128-byte Get Event Records records, which may also be
 *    written into the store (a batch at a time: a file of any size);
 * the store's records (or the file's) come back as rows the caller reads
 * one at a time as it shows them (jobs/event-rows.h: its memory does not
 * grow with the store), what is live through the caller's sink after
 * them; or every record counted (a summary: the store's by the database's
 * own grouping, with the pages the follower decided on). --stop's removal
 * of the shared instance is one too. What the job has to tell goes to the
 * context's sink (core/say.h); what the caller shows comes back in the
 * report.
 */
#ifndef CXLTIER_EVENT_READ_H
#define CXLTIER_EVENT_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/context.h"
#include "events/event-filter.h"
#include "events/event-source.h"
#include "events/event-summary.h"
#include "events/retire-log.h"
#include "jobs/event-rows.h"
#include "jobs/job-end.h"

enum ct_event_read_from {
	CT_EVENT_READ_LIVE,	/* the store's history, then the shared instance */
	CT_EVENT_READ_HISTORY,	/* the store's history alone */
	CT_EVENT_READ_FILE,	/* a file of 128-byte records */
	CT_EVENT_READ_STOP,	/* none: the shared instance removed (events are no longer kept) */
};

struct ct_event_read_opts {
	enum ct_event_read_from from;
	bool no_store;			/* LIVE: what is live alone */
	bool consume;			/* LIVE: a drain (the instance made when missing, what is shown consumed) */
	bool store;			/* FILE: its records written into the store too */
	const char *file;		/* FILE */
	const char *store_path;		/* NULL: `[events] store =` of the configuration, else the default */
	const char *config;		/* the configuration; NULL: /etc/cxltier.conf */
	struct ct_event_filter filter;
	bool summary;			/* the records counted (report.summary), not shown */
	bool say_made;			/* LIVE: say at verbosity 0 that the shared instance was made */
	ct_event_fn show;		/* a live record shown (not with summary): 0, or -errno to stop */
	void *show_arg;
};

struct ct_event_read_report {
	enum ct_job_end end;
	struct ct_event_summary summary;	/* summary: what was read, counted (the pages sorted) */
	bool have_retired;			/* summary with a store: the decisions below */
	struct ct_retirement *retired;		/* each page's last, of the filter's memdevs, oldest first */
	size_t nretired;
	/* not a summary: the store's records (or the file's) the filter takes,
	 * shown before those given to show; NULL none */
	struct ct_event_rows *rows;
	uint64_t nrows;
	/* the store read (LIVE, HISTORY) */
	bool have_store;
	char store_path[4096];
	uint64_t shown;				/* records shown (the rows) or counted from it */
	bool have_totals;
	uint64_t records, pruned;		/* rows now, rows pruned ever */
	/* LIVE: what the shared instance's read did not show */
	size_t kept;				/* hidden by the filter, kept for a later run (a read: held) */
	size_t unkept;				/* hidden, and could not be kept: lost */
	unsigned long dropped;			/* kept ones dropped for room */
	unsigned long overwritten;		/* overwritten in the trace buffer before they were read */
};

/* 0 when it ran to its end (rep->end CT_JOB_DONE, or CT_JOB_PARTIAL: the
 * store or the records to keep in trouble), else -errno (said); the rows
 * and the store stay open until ct_event_read_report_free */
int ct_event_read(struct ct_context *ctx, const struct ct_event_read_opts *o, struct ct_event_read_report *rep);
void ct_event_read_report_free(struct ct_event_read_report *rep);

#endif
