/* SPDX-License-Identifier: GPL-2.0-only */
/* events-render.h - CXL event records as JSON and as table rows */
#ifndef CXLTIER_EVENTS_RENDER_H
#define CXLTIER_EVENTS_RENDER_H

#include <json-c/json.h>
#include "cmd.h"
#include "../lib/event.h"

/* one record as a JSON object (the caller owns it) */
json_object *events_json(const struct ct_event *e);
/* print the collected records (root: { "events": [...] }) as JSON or a table;
 * 0, or a usage error with a message (an unknown column) */
int events_print(struct cmd_env *env, json_object *root);
/* one record as one line of --follow: JSON, or the table's fields; 0, or
 * -errno when stdout failed (-EPIPE: the reader went away) */
int events_print_line(const struct cmd_env *env, const struct ct_event *e);
void events_columns_help(void);

#endif
