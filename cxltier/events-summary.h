/* SPDX-License-Identifier: GPL-2.0-only */
/* events-summary.h - `events --summary`: the counted history as JSON and tables */
#ifndef CXLTIER_EVENTS_SUMMARY_H
#define CXLTIER_EVENTS_SUMMARY_H

#include <json-c/json.h>
#include "cli/cli.h"
#include "cli/output.h"
#include "events/event-summary.h"

/* root's "summary" object made from s (its pages sorted) */
json_object *events_summary_json(json_object *root, struct ct_event_summary *s);
/* the summary's "retired": the pages the follower retired, or found due
 * and left in use, from the store (of the memdevs filtered) */
struct events_store;
struct name_filter;
void events_summary_retired(json_object *summary, struct events_store *es, struct name_filter *memdevs);
/* as JSON, or as the memdevs' table, the pages' table and the retired pages' */
int events_summary_print(struct cmd_env *env, json_object *root);
void events_summary_columns_help(void);

#endif
