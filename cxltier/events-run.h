/* SPDX-License-Identifier: GPL-2.0-only */
/* events-run.h - one run of `cxltier events`: what it was asked (cmd-events.c)
 * and where it reads (events-read.c) */
#ifndef CXLTIER_EVENTS_RUN_H
#define CXLTIER_EVENTS_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "cli/cli.h"
#include "events-retire.h"
#include "events-store.h"
#include "events-table.h"
#include "cli/filter.h"
#include "events/event-summary.h"

struct events_run {
	struct cmd_env *env;
	struct name_filter memdevs, types;
	int severities;		/* bitmask of wanted severities, 0: all */
	uint64_t since_ns, until_ns;
	bool follow, summary, history;
	struct ct_event_summary sum;	/* --summary: what is shown, counted */
	struct events_store store;
	struct events_retire retire;	/* the follower's page retirement */
	int store_add_rc;		/* the follower's last failure to queue a record */
	json_object *arr;	/* collected (not follow) */
	int out_err;		/* -errno of the first failed write (--follow) */
	struct events_unshown unshown;	/* what the run read and did not show */
};

/* 128-byte records from a file (and into the store, when it is open) */
int events_from_file(struct events_run *run, const char *path);
/* the tracefs instance: the shared one (after the store's records), or
 * the follower's own until a signal */
int events_from_trace(struct events_run *run);
/* --history: the store alone, printed */
int events_history(struct events_run *run, const char *config, const char *store_path, json_object *root);

#endif
