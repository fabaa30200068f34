/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * metrics-events.h - CXL event records counted for `cxltier metrics`.
 *
 * The records come from a tracefs instance of the metrics' own,
 * "cxltier-metrics": created (and its cxl events enabled) by the first run
 * of a boot, it persists between runs and has one consumer, so a run reads
 * and consumes what arrived since the last one without taking anything
 * from `cxltier events` (the "cxltier" instance), a follower or rasdaemon:
 * each tracefs instance gets its own copy of every record. What a run
 * consumed it adds to the counter state (metrics-state.h), kept in a file
 * under the state directory and locked while a run updates it; the counts
 * restart when the boot changes (the kernel's boot_id), as the instance does.
 */
#ifndef CXLTIER_METRICS_EVENTS_H
#define CXLTIER_METRICS_EVENTS_H

#include <stdbool.h>
#include "metrics-state.h"

struct ct_context;

#define CT_METRICS_INSTANCE "cxltier-metrics"
#define CT_METRICS_BUFFER_KB 128	/* per CPU: CXL records are rare, read every minute */

struct ct_metrics_events {
	bool started;		/* this run created the instance: counting starts now */
	bool reset;		/* the state was of another boot, or unreadable: started again */
	char reset_why[128];
};

/* update the counts in the state file at state_path and leave them in *st
 * (ct_metrics_state_free). Live systems only: -EOPNOTSUPP on a captured
 * tree; -ENOENT, -EOPNOTSUPP, -EACCES when there are no CXL tracepoints
 * to read (as ct_event_source_open) */
int ct_metrics_events_update(struct ct_context *ctx, const char *state_path, struct ct_metrics_state *st,
			     struct ct_metrics_events *info);
/* stop counting: remove the instance and the state file; *removed says
 * whether the instance was there */
int ct_metrics_events_stop(struct ct_context *ctx, const char *state_path, bool *removed);

#endif
