/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-follow.h - the follower (`events --follow [--store]`,
 * cxltier-events.service) as one job: CXL event records from a private
 * tracefs instance of its own (events/event-source.h) until the caller
 * says stop; with a store, every record read written into it
 * (jobs/event-history.h: the store's path, flushes, a failing store's
 * retries), what arrived in the shared instance while no follower ran
 * stored first, and each media error the store takes weighed for page
 * retirement (jobs/follow-retire.h); the records the filter takes handed
 * to the caller's sink, which renders them. What the job has to tell goes
 * to the context's sink (core/say.h).
 */
#ifndef CXLTIER_EVENT_FOLLOW_H
#define CXLTIER_EVENT_FOLLOW_H

#include <signal.h>
#include <stdbool.h>
#include "core/context.h"
#include "events/event-filter.h"
#include "events/event-source.h"
#include "jobs/job-end.h"

struct ct_event_follow_opts {
	bool store;			/* every record read also into the store, its media errors weighed */
	const char *store_path;		/* NULL: `[events] store =` of the configuration, else the default */
	const char *config;		/* the configuration; NULL: /etc/cxltier.conf */
	struct ct_event_filter filter;	/* the records shown (the store takes every one) */
	/* a record shown: 0, or -errno to end the follow (-EPIPE: its reader
	 * went away, a normal end) */
	ct_event_fn show;
	void *show_arg;
	const volatile sig_atomic_t *stop;	/* set by the caller (a signal handler) to end */
	int watch_fd;			/* where the records go, watched for its reader going away; -1 none */
	bool say_made;			/* its instance's making said at verbosity 0 (else 1) */
};

struct ct_event_follow_report {
	enum ct_job_end end;
	int show_rc;			/* show's failure that ended the follow (not said), 0 none */
};

/* 0 when it ran to its end (rep->end CT_JOB_DONE, or CT_JOB_PARTIAL: the
 * store did not take every record), else -errno (said) */
int ct_event_follow(struct ct_context *ctx, const struct ct_event_follow_opts *o, struct ct_event_follow_report *rep);

#endif
