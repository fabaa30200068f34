/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-rows.h - the records a reading run of `events` shows from the
 * store or from a file, read one at a time as they are shown (twice when a
 * table sizes its columns first): memory holds one record, whatever the
 * store or the file holds. Private to lib/jobs/ but for the calls below,
 * which the report of event-read.h hands to its caller.
 */
#ifndef CXLTIER_EVENT_ROWS_H
#define CXLTIER_EVENT_ROWS_H

#include <stdint.h>
#include "core/context.h"
#include "events/event-filter.h"
#include "events/event-store.h"

struct ct_event_rows;

/* the next record into e: 1; 0 at the end; -errno with a message in the
 * context the rows were made with */
int ct_event_rows_next(struct ct_event_rows *r, struct ct_event *e);
/* back to the first */
void ct_event_rows_rewind(struct ct_event_rows *r);
void ct_event_rows_free(struct ct_event_rows *r);

/* the store's records the filter takes (s: the rows own it, closed with
 * them): 0 and *out with *n the records; -errno with a message */
int ct_event_rows_of_store(struct ct_context *ctx, struct ct_event_store *s, const struct ct_event_filter *f,
			   struct ct_event_rows **out, uint64_t *n);
/* a file's 128-byte records the filter takes, n of them (counted when it
 * was read first) */
int ct_event_rows_of_file(struct ct_context *ctx, const char *path, const struct ct_event_filter *f, uint64_t n,
			  struct ct_event_rows **out);

#endif
