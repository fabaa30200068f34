/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * events-retire.h - the follower's page retirement (lib/events/page-retire.h):
 * each media error record the store takes is weighed against the settings
 * of its device ([device ...] of the configuration, else [events]); what
 * was done is said on stderr (the journal, under cxltier-events.service)
 * and written to the store.
 */
#ifndef CXLTIER_EVENTS_RETIRE_H
#define CXLTIER_EVENTS_RETIRE_H

#include <stdbool.h>
#include "cli/cli.h"
#include "events-store.h"
#include "config/policy.h"

struct events_retire {
	struct cmd_env *env;
	struct events_store *store;
	struct ct_policy policy;	/* the [device ...] sections */
	int said_rc;			/* the last failure said, 0 none */
};

/* the follower with a store: the configuration's [device ...] sections read
 * (config: --config, else /etc/cxltier.conf) and every record the store
 * takes weighed. A configuration that cannot be read leaves the [events]
 * settings for every device, said */
void events_retire_start(struct cmd_env *env, struct events_retire *r, struct events_store *es, const char *config);
void events_retire_stop(struct events_retire *r);

#endif
