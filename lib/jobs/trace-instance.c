// SPDX-License-Identifier: LGPL-2.1-or-later
/* trace-instance.c - the event source's instance as the jobs open and
 * close it: see trace-instance.h */
#include "jobs/trace-instance.h"

int ct_trace_instance_open(struct ct_context *ctx, const struct ct_event_source_opts *o, bool say_made,
			   struct ct_event_source **out)
{
	struct ct_event_source *s;
	const char *const *stale;
	size_t nstale;
	int rc;

	if ((rc = ct_event_source_open(ctx, o, &s)))
		return rc;
	nstale = ct_event_source_stale_removed(s, &stale);
	for (size_t i = 0; i < nstale; i++)
		ct_say(&ctx->say, 0, "removed the tracefs instance %s: the cxltier that owned it is gone", stale[i]);
	ct_say(&ctx->say, 1, "reading the kernel's tracepoints from tracefs instance %s: the kernel drains the device "
	       "event logs itself (raw Get Event Records would race with it, and raw mailbox commands are off in "
	       "distribution kernels)", ct_event_source_instance(s));
	if (ct_event_source_created(s))
		ct_say(&ctx->say, say_made ? 0 : 1, "made the tracefs instance %s, %u KiB of ring buffer a CPU%s",
		       ct_event_source_instance(s), ct_event_source_buffer_kb(s), o->shared ? ": it keeps the CXL "
		       "events from now on, also while no cxltier runs ('cxltier events --stop' removes it)"
		       : ", removed when this run ends");
	if (ct_event_source_idle(s))
		ct_say(&ctx->say, CT_SAY_WARNING, "the '" CT_EVENT_SHARED_INSTANCE "' tracefs instance is not recording "
		       "(its cxl events or its tracing are off: cxl_core reloaded, or an 'events --stop' that could not "
		       "remove it); left as it is: 'cxltier events --drain' turns it on again");
	if (ct_event_source_reenabled(s))
		ct_say(&ctx->say, CT_SAY_WARNING, "the '" CT_EVENT_SHARED_INSTANCE "' tracefs instance was not recording "
		       "(its cxl events or its tracing were off: cxl_core reloaded, or an 'events --stop' that could not "
		       "remove it); turned it on again: events from before now may be missing");
	*out = s;
	return 0;
}

bool ct_trace_instance_close(struct ct_context *ctx, struct ct_event_source *s, int read_rc, bool say_rc,
			     unsigned long *lost)
{
	int crc;

	if (read_rc && say_rc)
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
	*lost = ct_event_source_lost(s);
	if (*lost)
		ct_say(&ctx->say, CT_SAY_WARNING, "%lu records were lost in the trace buffer of %s (they came faster "
		       "than they were read)", *lost, ct_event_source_instance(s));
	crc = ct_event_source_close(s);
	if (crc)
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
	return read_rc || crc;
}
