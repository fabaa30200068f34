/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * follow-retire.h - the follower's page retirement (private to lib/jobs/):
 * each General Media and DRAM record the store takes is weighed
 * (events/page-retire.h) with its device's settings ([events], merged with
 * the first [device ...] section that matches it: config/page-retire-conf.h);
 * what was done is said through the context's sink (the journal, under
 * cxltier-events.service) and written to the store.
 */
#ifndef CXLTIER_FOLLOW_RETIRE_H
#define CXLTIER_FOLLOW_RETIRE_H

#include "config/policy.h"
#include "core/context.h"
#include "jobs/event-history.h"

/* the drop-in that gives cxltier-events.service what soft-offlining takes */
#define CT_FOLLOW_RETIRE_DROP_IN "/usr/share/doc/cxltier/examples/cxltier-events-retire.conf"

struct ct_follow_retire {
	struct ct_context *ctx;
	struct ct_event_history *store;
	struct ct_policy policy;	/* the [device ...] sections */
	int said_rc;			/* the last failure said, 0 none */
};

/* the follower with a store (h->s): the configuration's [device ...]
 * sections read (config, else /etc/cxltier.conf) and every record the
 * store takes from now on weighed. A configuration that cannot be read
 * leaves the [events] settings for every device, said */
void ct_follow_retire_start(struct ct_context *ctx, struct ct_follow_retire *r, struct ct_event_history *h,
			    const char *config);
void ct_follow_retire_stop(struct ct_follow_retire *r);

#endif
