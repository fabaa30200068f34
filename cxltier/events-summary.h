/* SPDX-License-Identifier: GPL-2.0-only */
/* events-summary.h - `events --summary`: the counted history as JSON and tables */
#ifndef CXLTIER_EVENTS_SUMMARY_H
#define CXLTIER_EVENTS_SUMMARY_H

#include <json-c/json.h>
#include "cmd.h"
#include "output.h"
#include "events/event-summary.h"

/* root's "summary" object made from s (its pages sorted) */
json_object *events_summary_json(json_object *root, struct ct_event_summary *s);
/* as JSON, or as the memdevs' table and the pages' table */
int events_summary_print(struct cmd_env *env, json_object *root);
void events_summary_columns_help(void);

#endif
