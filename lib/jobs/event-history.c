// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-history.c - the event store as the jobs open, flush and close it:
 * see event-history.h */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "core/conf.h"
#include "jobs/event-history.h"

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* a device whose records' times are far from when they arrived: said once */
static void on_clock(const struct ct_event *e, const char *identity, int64_t off_ns, void *arg)
{
	struct ct_context *ctx = arg;
	uint64_t s = (uint64_t)(off_ns < 0 ? -off_ns : off_ns) / 1000000000ULL;
	char span[48];

	if (s >= 86400)
		snprintf(span, sizeof(span), "%" PRIu64 " d %" PRIu64 " h", s / 86400, s % 86400 / 3600);
	else
		snprintf(span, sizeof(span), "%" PRIu64 " h %" PRIu64 " min", s / 3600, s % 3600 / 60);
	ct_say(&ctx->say, CT_SAY_WARNING, "%s (%s): its records' times are %s %s the host's when they arrive (its "
	       "clock is off, or they are old): the store counts them by when they arrived", e->memdev[0] ? e->memdev :
	       "a device", identity, span, off_ns < 0 ? "behind" : "ahead of");
}

/* the writer's store opened: what it found said */
static void opened_writer(struct ct_context *ctx, struct ct_event_history *h)
{
	const struct ct_event_store_stats *st = ct_event_store_stats(h->s);

	if (st->last_rc) {	/* read-only, full, locked: held in memory, tried again */
		ct_say(&ctx->say, CT_SAY_WARNING, "%s; the records are held in memory and written when it can take "
		       "them (tried every %d s)", ct_context_message(ctx), CT_EVENT_HISTORY_RETRY_MS / 1000);
		h->said_rc = st->last_rc;
		h->retry_at_ms = now_ms() + CT_EVENT_HISTORY_RETRY_MS;
		return;
	}
	if (st->moved_aside[0])
		ct_say(&ctx->say, CT_SAY_WARNING, "the event store %s was damaged or not cxltier's: moved aside to %s, "
		       "a new one started", h->path, st->moved_aside);
	ct_say(&ctx->say, 1, "storing the events in %s", h->path);
}

int ct_event_history_open(struct ct_context *ctx, struct ct_event_history *h, const char *config, const char *path,
			  bool writer)
{
	struct ct_event_store_limits lim;
	int rc;

	memset(h, 0, sizeof(*h));
	h->writer = writer;
	if ((rc = ct_events_conf_load(config ? config : CT_CONF_PATH, config != NULL, &h->conf, &ctx->err)))
		return rc;
	h->path = path ? path : h->conf.store[0] ? h->conf.store : CT_EVENT_STORE_PATH;
	lim.max_age_s = h->conf.store_max_age_s;
	lim.max_bytes = h->conf.store_max_bytes;
	rc = writer ? ct_event_store_open_writer(h->path, &lim, &h->s, &ctx->err)
		    : ct_event_store_open_reader(h->path, &h->s, &ctx->err);
	if (rc == -ENOENT && !writer)
		return 0;	/* no history yet */
	if (rc) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		if (writer)
			ct_say(&ctx->say, CT_SAY_WARNING, "events are not stored (only shown) until the store can be "
			       "opened: the follower tries again when it restarts");
		h->failed = true;
		return 0;
	}
	if (writer) {
		ct_event_store_on_clock(h->s, on_clock, ctx);
		opened_writer(ctx, h);
	}
	return 0;
}

void ct_event_history_add(struct ct_context *ctx, struct ct_event_history *h, const struct ct_event *e)
{
	int rc = ct_event_store_add(h->s, e);

	if (rc && rc != h->add_rc)
		ct_say(&ctx->say, CT_SAY_WARNING, "a %s record of %s cannot be queued for the event store: %s",
		       ct_event_kind_name(e->kind), e->memdev[0] ? e->memdev : "no memdev", strerror(-rc));
	if (rc)
		h->failed = true;
	h->add_rc = rc;
	if (ct_event_store_stats(h->s)->queued >= CT_EVENT_HISTORY_BATCH)
		ct_event_history_flush(ctx, h, false);
}

void ct_event_history_flush(struct ct_context *ctx, struct ct_event_history *h, bool final)
{
	const struct ct_event_store_stats *st;
	int rc;

	if (!h->s || !h->writer)
		return;
	st = ct_event_store_stats(h->s);
	if (!st->queued || (!final && h->said_rc && now_ms() < h->retry_at_ms))
		return;
	rc = ct_event_store_flush(h->s, &ctx->err);
	if (rc && rc != h->said_rc) {
		ct_say(&ctx->say, CT_SAY_WARNING, "%s; tried again every %d s", ct_context_message(ctx),
		       CT_EVENT_HISTORY_RETRY_MS / 1000);
		if (st->moved_aside[0] && rc == -EBADMSG)
			ct_say(&ctx->say, CT_SAY_WARNING, "the event store was damaged: moved aside to %s, a new one is "
			       "started", st->moved_aside);
	} else if (!rc && h->said_rc) {
		ct_say(&ctx->say, CT_SAY_WARNING, "the event store %s takes records again: those that waited are "
		       "written", h->path);
	}
	h->said_rc = rc;
	h->retry_at_ms = now_ms() + CT_EVENT_HISTORY_RETRY_MS;
	if (st->unkept > h->said_unkept) {
		ct_say(&ctx->say, CT_SAY_WARNING, "%lu records dropped in all: the event store %s has not taken records "
		       "for a while and the follower holds at most %d", (unsigned long)st->unkept, h->path,
		       CT_EVENT_STORE_QUEUE_MAX);
		h->said_unkept = st->unkept;
	}
}

void ct_event_history_close(struct ct_context *ctx, struct ct_event_history *h)
{
	const struct ct_event_store_stats *st;

	if (!h->s)
		return;
	if (h->writer) {
		ct_event_history_flush(ctx, h, true);
		st = ct_event_store_stats(h->s);
		if (st->queued || st->unkept) {
			ct_say(&ctx->say, CT_SAY_ERROR, "the event store %s did not take %lu records, lost with this "
			       "follower%s", h->path, (unsigned long)(st->queued + st->unkept),
			       st->unkept ? " (some had been dropped already: more than the follower holds)" : "");
			h->failed = true;
		}
	}
	ct_event_store_close(h->s);
	h->s = NULL;
}
