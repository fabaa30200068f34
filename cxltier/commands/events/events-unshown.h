/* SPDX-License-Identifier: GPL-2.0-only */
/* events-unshown.h - what a run of the shared instance read and did not
 * show, in its JSON */
#ifndef CXLTIER_EVENTS_UNSHOWN_H
#define CXLTIER_EVENTS_UNSHOWN_H

#include <json-c/json.h>
#include "jobs/event-read.h"

/* the report's counts in the JSON root: kept always, unkept, dropped and
 * overwritten when not zero */
void events_unshown_json(json_object *root, const struct ct_event_read_report *rep);

#endif
