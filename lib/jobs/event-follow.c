// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-follow.c - the follower as one job: see event-follow.h */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "jobs/event-follow.h"
#include "jobs/event-history.h"
#include "jobs/follow-retire.h"
#include "jobs/trace-instance.h"

struct follow {
	struct ct_context *ctx;
	const struct ct_event_follow_opts *o;
	struct ct_event_history store;
	struct ct_follow_retire retire;
	int show_rc;
	uint64_t drain_since_ns;	/* the follower's own instance records from then on */
};

/* a record of the follower's instance: stored, then shown when the filter takes it */
static int on_event(const struct ct_event *e, void *arg)
{
	struct follow *f = arg;

	if (f->store.s)
		ct_event_history_add(f->ctx, &f->store, e);
	if (!ct_event_filter_match(&f->o->filter, e))
		return 0;
	return f->show_rc = f->o->show(e, f->o->show_arg);
}

/* after each read of the trace buffer: the store's flush (a failing one
 * waits for its next try) */
static int on_tick(void *arg)
{
	struct follow *f = arg;

	ct_event_history_flush(f->ctx, &f->store, false);
	return 0;
}

/* a record of the shared instance emitted before the follower's own
 * instance recorded: it is in the shared one alone */
static int drain_one(const struct ct_event *e, void *arg)
{
	struct follow *f = arg;

	if (!e->trace_time || e->trace_time < f->drain_since_ns)
		ct_event_history_add(f->ctx, &f->store, e);
	return 0;
}

/* With a store: every record of the shared instance (and those a filtered
 * run kept) into the store, consumed; what arrived while no follower ran is
 * there. The shared instance is made when missing: from now on it keeps what
 * arrives while the follower is down (a restart). Run once the follower's
 * own instance records, so that nothing falls between them; a record
 * emitted since then is in both and left to the follower's own (it shows
 * it, with its own emit time: the store keeps that copy) */
static void drain_shared(struct follow *f, uint64_t since_ns)
{
	struct ct_context *ctx = f->ctx;
	struct ct_event_source_opts so = { .shared = true };
	struct ct_event_keep_report rep;
	struct ct_event_source *s;
	uint64_t before = ct_event_store_stats(f->store.s)->stored;
	int rc = ct_event_source_open(ctx, &so, &s);

	f->drain_since_ns = since_ns;
	if (!rc && ct_event_source_created(s))
		ct_say(&ctx->say, 0, "made the tracefs instance " CT_EVENT_SHARED_INSTANCE ", %u KiB of ring buffer a "
		       "CPU: it keeps the CXL events that arrive while no follower runs ('cxltier events --stop' removes "
		       "it)", ct_event_source_buffer_kb(s));
	if (!rc) {
		rc = ct_event_source_read_shared(s, drain_one, f, CT_TRACE_INSTANCE_LOCK_MS, &rep);
		rc = ct_event_source_close(s) ? -EIO : rc;
	}
	if (rc) {
		ct_say(&ctx->say, CT_SAY_WARNING, "the '" CT_EVENT_SHARED_INSTANCE "' tracefs instance could not be read "
		       "into the store: %s; what arrived while no follower ran is not stored", ct_context_message(ctx));
		return;
	}
	ct_event_history_flush(ctx, &f->store, true);
	ct_say(&ctx->say, 0, "%" PRIu64 " records that arrived while no follower ran stored from the '"
	       CT_EVENT_SHARED_INSTANCE "' tracefs instance", ct_event_store_stats(f->store.s)->stored - before);
}

/* the follower's own instance until stop: rep->end */
static int follow(struct follow *f, struct ct_event_follow_report *rep)
{
	struct ct_context *ctx = f->ctx;
	struct ct_event_source_opts so = { .shared = false, .role = "follow" };
	struct ct_event_source *s;
	unsigned long lost;
	int rc;

	if ((rc = ct_trace_instance_open(ctx, &so, f->o->say_made, &s))) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		rep->end = rc == -EOPNOTSUPP ? CT_JOB_UNSUPPORTED : CT_JOB_FAILED;
		return rc;
	}
	if (f->store.s)
		drain_shared(f, ct_event_source_recording_since(s));
	rc = ct_event_source_follow(s, on_event, on_tick, f, f->o->stop, 100, f->o->watch_fd);
	ct_event_history_close(ctx, &f->store);	/* what the last read gave, written */
	if (rc == -EPIPE && !f->show_rc)
		f->show_rc = rc;	/* seen before a write failed */
	rep->show_rc = f->show_rc;
	/* EPIPE: the reader went away, a normal end */
	if (ct_trace_instance_close(ctx, s, f->show_rc == -EPIPE ? 0 : rc, !f->show_rc, &lost)) {
		rep->end = CT_JOB_FAILED;
		return rc ? rc : -EIO;
	}
	rep->end = f->store.failed ? CT_JOB_PARTIAL : CT_JOB_DONE;
	return 0;
}

int ct_event_follow(struct ct_context *ctx, const struct ct_event_follow_opts *o, struct ct_event_follow_report *rep)
{
	struct follow f = { .ctx = ctx, .o = o };
	int rc;

	memset(rep, 0, sizeof(*rep));
	if (o->store && (rc = ct_event_history_open(ctx, &f.store, o->config, o->store_path, true))) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		rep->end = CT_JOB_BAD_INPUT;
		return rc;
	}
	if (f.store.s)
		ct_say(&ctx->say, 0, "storing the events in %s", f.store.path);
	ct_follow_retire_start(ctx, &f.retire, &f.store, o->config);
	rc = follow(&f, rep);
	ct_event_history_close(ctx, &f.store);	/* (its last flush may retire pages) */
	ct_follow_retire_stop(&f.retire);
	return rc;
}
