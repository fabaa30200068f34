/* SPDX-License-Identifier: GPL-2.0-only */
/* events-table.h - CXL event records as a table, and as the lines of --follow */
#ifndef CXLTIER_EVENTS_TABLE_H
#define CXLTIER_EVENTS_TABLE_H

#include <json-c/json.h>
#include "cli/cli.h"
#include "events/event.h"

/* the table's columns (-o may also name any key of a record's JSON) */
extern const struct out_table events_table;

/* print the records (root: { "events": [], ... }, the n records made one
 * at a time by row) as JSON or a table, as they are made; 0, or a usage
 * error with a message (an unknown column) */
int events_print(struct cmd_env *env, json_object *root, size_t n, out_row_fn row, void *ctx);
/* one record (e, and o its JSON) as one line of --follow: JSON, or the
 * table's fields; 0, or -errno when stdout failed (-EPIPE: the reader went
 * away) */
int events_print_line(const struct cmd_env *env, const struct ct_event *e, json_object *o);
/* a record's DETAIL column (what happened, in words) into buf */
void events_detail(json_object *rec, char *buf, size_t len);

#endif
