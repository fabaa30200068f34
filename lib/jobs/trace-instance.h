/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace-instance.h - private to lib/jobs/: a tracefs instance of the event
 * source (events/event-source.h) as the jobs open and close it: what the open
 * found said (stale instances removed, where the records come from, the
 * shared instance made or turned on again), and at the close what the read
 * lost and what failed.
 */
#ifndef CXLTIER_TRACE_INSTANCE_H
#define CXLTIER_TRACE_INSTANCE_H

#include <stdbool.h>
#include "core/context.h"
#include "events/event-source.h"

#define CT_TRACE_INSTANCE_LOCK_MS 30000	/* another reader of the shared instance: wait for it */

/* the instance opened, what the open found said (that it was made, with
 * its buffer's size: at verbosity 0 when say_made, else 1); -errno (not
 * said) when it cannot be */
int ct_trace_instance_open(struct ct_context *ctx, const struct ct_event_source_opts *o, bool say_made,
			   struct ct_event_source **out);
/* the end of a read whose error was read_rc (0 none; said when say_rc):
 * the records the buffer lost said and returned in *lost, the instance
 * closed (a failure said); true when the read or the close failed */
bool ct_trace_instance_close(struct ct_context *ctx, struct ct_event_source *s, int read_rc, bool say_rc,
			     unsigned long *lost);

#endif
