/* SPDX-License-Identifier: GPL-2.0-only */
/* events-table.h - CXL event records as JSON and as table rows */
#ifndef CXLTIER_EVENTS_TABLE_H
#define CXLTIER_EVENTS_TABLE_H

#include <json-c/json.h>
#include "cli/cli.h"
#include "events/event.h"
#include "events/event-source.h"

/* one record as a JSON object (the caller owns it): events-json.c */
json_object *events_json(const struct ct_event *e);
/* print the collected records (root: { "events": [...] }) as JSON or a table;
 * 0, or a usage error with a message (an unknown column) */
int events_print(struct cmd_env *env, json_object *root);
/* one record as one line of --follow: JSON, or the table's fields; 0, or
 * -errno when stdout failed (-EPIPE: the reader went away) */
int events_print_line(const struct cmd_env *env, const struct ct_event *e);
void events_columns_help(void);

/* what a run of the shared instance read and did not show: events-unshown.c */
struct events_unshown {
	size_t kept;			/* hidden by the filters, kept for a later run */
	size_t unkept;			/* hidden, and could not be kept: lost */
	unsigned long dropped;		/* the oldest kept ones, dropped for room */
	unsigned long overwritten;	/* overwritten in the ring buffer before they were read */
	bool failed;			/* something to keep was not kept: exit 64 */
};
/* say on stderr what the shared read's report means, and count it in u */
void events_unshown_report(struct cmd_env *env, const struct ct_event_keep_report *rep, struct events_unshown *u);
/* u's counts in the JSON root: kept always, the others when not zero */
void events_unshown_json(json_object *root, const struct events_unshown *u);

#endif
