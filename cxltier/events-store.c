// SPDX-License-Identifier: GPL-2.0-only
/* events-store.c - `events` and the event store: see events-store.h */
#include <errno.h>
#include <string.h>
#include <time.h>
#include "events-store.h"
#include "cli/json-build.h"
#include "core/conf.h"
#include "core/context.h"

#define RETRY_MS 5000	/* a failing store: tried again this often */

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

int events_store_open(struct cmd_env *env, struct events_store *es, const char *config, const char *path,
		      bool writer)
{
	struct ct_error *err = &env->ctx->err;
	const char *conf_path = config ? config : CT_CONF_PATH;
	struct ct_event_store_limits lim;
	int rc;

	memset(es, 0, sizeof(*es));
	es->writer = writer;
	if ((rc = ct_events_conf_load(conf_path, config != NULL, &es->conf, err))) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return EXIT_USAGE;
	}
	es->path = path ? path : es->conf.store[0] ? es->conf.store : CT_EVENT_STORE_PATH;
	lim.max_age_s = es->conf.store_max_age_s;
	lim.max_bytes = es->conf.store_max_bytes;
	rc = writer ? ct_event_store_open_writer(es->path, &lim, &es->s, err)
		    : ct_event_store_open_reader(es->path, &es->s, err);
	if (rc == -ENOENT && !writer)
		return EXIT_OK;		/* no history yet: what is live only */
	if (rc) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		if (writer)
			cmd_warn(env, "events are not stored (only shown) until the store can be opened: the follower "
				 "tries again when it restarts");
		es->failed = true;
		return EXIT_OK;
	}
	if (writer) {
		const struct ct_event_store_stats *st = ct_event_store_stats(es->s);
		if (st->last_rc) {	/* read-only, full, locked: held in memory, tried again */
			cmd_warn(env, "%s; the records are held in memory and written when it can take them (tried "
				 "every %d s)", ct_context_message(env->ctx), RETRY_MS / 1000);
			es->said_rc = st->last_rc;
			es->retry_at_ms = now_ms() + RETRY_MS;
			return EXIT_OK;
		}
		if (st->moved_aside[0])
			cmd_warn(env, "the event store %s was damaged or not cxltier's: moved aside to %s, a new one "
				 "started", es->path, st->moved_aside);
		cmd_info(env, 1, "storing the events in %s", es->path);
	}
	return EXIT_OK;
}

void events_store_tick(struct cmd_env *env, struct events_store *es, bool final)
{
	const struct ct_event_store_stats *st;
	int rc;

	if (!es->s || !es->writer)
		return;
	st = ct_event_store_stats(es->s);
	if (!st->queued || (!final && es->said_rc && now_ms() < es->retry_at_ms))
		return;
	rc = ct_event_store_flush(es->s, &env->ctx->err);
	if (rc && rc != es->said_rc) {
		cmd_warn(env, "%s; tried again every %d s", ct_context_message(env->ctx), RETRY_MS / 1000);
		if (st->moved_aside[0] && rc == -EBADMSG)
			cmd_warn(env, "the event store was damaged: moved aside to %s, a new one is started", st->moved_aside);
	} else if (!rc && es->said_rc) {
		cmd_warn(env, "the event store %s takes records again: those that waited are written", es->path);
	}
	es->said_rc = rc;
	es->retry_at_ms = now_ms() + RETRY_MS;
	if (st->unkept > es->said_unkept) {
		cmd_warn(env, "%lu records dropped in all: the event store %s has not taken records for a while and the "
			 "follower holds at most %d", (unsigned long)st->unkept, es->path, CT_EVENT_STORE_QUEUE_MAX);
		es->said_unkept = st->unkept;
	}
}

void events_store_close(struct cmd_env *env, struct events_store *es)
{
	const struct ct_event_store_stats *st;

	if (!es->s)
		return;
	if (es->writer) {
		events_store_tick(env, es, true);
		st = ct_event_store_stats(es->s);
		if (st->queued || st->unkept) {
			cmd_err(env, "the event store %s did not take %lu records, lost with this follower%s", es->path,
				(unsigned long)(st->queued + st->unkept),
				st->unkept ? " (some had been dropped already: more than the follower holds)" : "");
			es->failed = true;
		}
	}
	ct_event_store_close(es->s);
	es->s = NULL;
}

void events_store_json(json_object *root, struct events_store *es)
{
	json_object *o;
	uint64_t rows, pruned;

	if (!es->s)
		return;
	o = jb_obj(root, "store");
	jb_str(o, "path", es->path);
	jb_u64(o, "shown", es->shown);
	if (ct_event_store_totals(es->s, &rows, &pruned, NULL) == 0) {
		jb_u64(o, "records", rows);
		jb_u64(o, "pruned", pruned);
	}
}
