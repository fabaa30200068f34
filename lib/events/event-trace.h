/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/events/ (unit tests in test/ may include it): other folders
 * and the CLI go through event-source.h */
/*
 * event-trace.h - one tracepoint record into a struct ct_event, driven by the
 * tracepoint's own format (libtraceevent): every field under the kernel's
 * name, typed from its declaration, so a field a newer kernel adds appears
 * without a change here. Pure: no tracefs access.
 */
#ifndef CXLTIER_EVENT_TRACE_H
#define CXLTIER_EVENT_TRACE_H

#include "events/event.h"

struct tep_event;
struct tep_record;

/* fill e from one record of event ev, then decode it: 0, or -EBADMSG when
 * the record is shorter than its format says (the fields that fit are kept) */
int ct_event_from_trace(struct tep_event *ev, struct tep_record *r, struct ct_event *e);

#endif
