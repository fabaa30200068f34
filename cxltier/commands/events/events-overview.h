/* SPDX-License-Identifier: GPL-2.0-only */
/* events-overview.h - `events --summary`: the records counted and the pages
 * retired, as JSON and as tables */
#ifndef CXLTIER_EVENTS_OVERVIEW_H
#define CXLTIER_EVENTS_OVERVIEW_H

#include <stddef.h>
#include <json-c/json.h>
#include "cli/cli.h"
#include "events/event-summary.h"
#include "events/retire-log.h"

/* root's "summary" object made from s (its pages sorted) */
json_object *events_overview_json(json_object *root, const struct ct_event_summary *s);
/* the summary's "retired": the pages the follower retired, or found due
 * and left in use */
void events_overview_retired(json_object *summary, const struct ct_retirement *r, size_t n);
/* as JSON, or as the memdevs' table, the pages' table and the retired pages' */
int events_overview_print(struct cmd_env *env, json_object *root);

#endif
