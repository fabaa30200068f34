/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * events-store.h - `events` and the event store (lib/events/event-store.h):
 * which store (--store-path, else [events] store = of the configuration,
 * else the default), the follower's writes (flushed after each read of the
 * trace buffer, a failing store tried again every few seconds with its
 * records held in memory, each change of state said once on stderr), and
 * what a reading run says of it.
 */
#ifndef CXLTIER_EVENTS_STORE_H
#define CXLTIER_EVENTS_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "cli/cli.h"
#include "events/event-store.h"
#include "config/events-conf.h"

struct events_store {
	struct ct_event_store *s;	/* NULL: no store (none yet, or --no-store) */
	struct ct_events_conf conf;
	const char *path;		/* the store's path, for messages */
	bool writer;
	int said_rc;			/* the failing flush's error last said, 0 none */
	uint64_t retry_at_ms;		/* after a failure, the next flush no sooner than this */
	uint64_t said_unkept;		/* records dropped from the full queue, as last said */
	uint64_t shown;			/* records a reading run showed from the store */
	bool failed;			/* something about the store went wrong: said, exit 64 */
};

/* the configuration (config: --config, else /etc/cxltier.conf) and the path
 * (path: --store-path, else the configuration's). A writer opens or makes
 * the store; a reader opens it when it exists. EXIT_OK, or EXIT_USAGE for a
 * bad configuration; a store that cannot be opened is said, es->failed
 * set, and the run goes on without it (EXIT_OK): the caller says what that
 * leaves out */
int events_store_open(struct cmd_env *env, struct events_store *es, const char *config, const char *path,
		      bool writer);
/* the writer's periodic flush (final: at the end, no waiting for a retry) */
void events_store_tick(struct cmd_env *env, struct events_store *es, bool final);
/* the writer's last flush, what it could not keep said; closes the store */
void events_store_close(struct cmd_env *env, struct events_store *es);
/* a reading run's "store" object: path, shown, records, pruned */
void events_store_json(json_object *root, struct events_store *es);

#endif
