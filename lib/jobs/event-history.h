/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-history.h - the event store (events/event-store.h) as the jobs use
 * it (private to lib/jobs/): which one (the path given, else `[events]
 * store =` of the configuration, else CT_EVENT_STORE_PATH), opened to write
 * (the follower, a file's records) or to read; the writer's flushes, after
 * each read of the trace buffer, a failing store tried again every
 * CT_EVENT_HISTORY_RETRY_MS with its records held in memory, each change of
 * state said once through the context's sink.
 */
#ifndef CXLTIER_EVENT_HISTORY_H
#define CXLTIER_EVENT_HISTORY_H

#include <stdbool.h>
#include <stdint.h>
#include "config/events-conf.h"
#include "core/context.h"
#include "events/event-store.h"

#define CT_EVENT_HISTORY_RETRY_MS 5000	/* a failing store: tried again this often */
#define CT_EVENT_HISTORY_BATCH 10000	/* records queued: flushed then, whatever reads them (a file of any size) */

struct ct_event_history {
	struct ct_event_store *s;	/* NULL: no store (none yet, not asked for, or it failed) */
	struct ct_events_conf conf;
	const char *path;		/* the store's path, for messages */
	bool writer;
	bool failed;			/* something about the store went wrong: said */
	int said_rc;			/* the failing flush's error last said, 0 none */
	uint64_t retry_at_ms;		/* after a failure, the next flush no sooner than this */
	uint64_t said_unkept;		/* records dropped from the full queue, as last said */
	int add_rc;			/* the last failure to queue a record, 0 none */
};

/* the configuration (config, else /etc/cxltier.conf, which may be missing)
 * and the store (path, else the configuration's, else the default). A
 * writer opens or makes it; a reader opens it when it exists (h->s NULL
 * when not). 0, also when the store cannot be opened (said, h->failed: the
 * run goes on without it); -errno when the configuration cannot be read,
 * the message in the context, not said */
int ct_event_history_open(struct ct_context *ctx, struct ct_event_history *h, const char *config, const char *path,
			  bool writer);
/* the writer: e queued for the next flush, which comes at once when
 * CT_EVENT_HISTORY_BATCH are queued (a failing store: at its next try); a
 * failure said when it is not the last one's (h->failed) */
void ct_event_history_add(struct ct_context *ctx, struct ct_event_history *h, const struct ct_event *e);
/* the writer's flush of what it queued (final: at the end, without
 * waiting for the next try of a failing store) */
void ct_event_history_flush(struct ct_context *ctx, struct ct_event_history *h, bool final);
/* the writer's last flush, what it could not keep said (h->failed); the
 * store closed */
void ct_event_history_close(struct ct_context *ctx, struct ct_event_history *h);

#endif
