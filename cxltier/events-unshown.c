// SPDX-License-Identifier: GPL-2.0-only
/* events-unshown.c - what a run of the shared instance read and did not
 * show (kept for later, or lost), said on stderr and counted for -j */
#include <string.h>
#include "events-table.h"
#include "cli/json-build.h"
#include "core/context.h"
#include "events/event-keep.h"
#include "core/rundir.h"

void events_unshown_report(struct cmd_env *env, const struct ct_event_keep_report *rep, struct events_unshown *u)
{
	if (rep->damaged_bytes)
		cmd_warn(env, "%s: %zu bytes of it were damaged and are dropped (the records before them are kept)",
			 CT_RUNDIR "/" CT_KEPT_FILE, rep->damaged_bytes);
	if (rep->undecodable)
		cmd_warn(env, "%zu kept records are of tracepoints this kernel no longer has: dropped", rep->undecodable);
	if (rep->dropped)
		cmd_warn(env, "%lu of the oldest records the filters hid are dropped: at most %u KiB of them are "
			 "kept (a run without filters shows and clears them)", rep->dropped, CT_KEPT_MAX_BYTES >> 10);
	if (rep->unkept) {
		cmd_err(env, "%zu records this run read and did not show could not be kept, and are lost: %s",
			rep->unkept, rep->store_rc ? ct_context_message(env->ctx) : strerror(-rep->hold_rc));
		u->failed = true;
	}
	if (rep->store_rc) {
		if (!rep->unkept)
			cmd_err(env, "%s", ct_context_message(env->ctx));
		cmd_warn(env, CT_RUNDIR "/" CT_KEPT_FILE " was left as it was: the records it held that this run "
			 "showed will show again");
		u->failed = true;
	} else if (rep->kept) {
		cmd_info(env, 1, "%zu records the filters hid are kept in " CT_RUNDIR "/" CT_KEPT_FILE
			 " for a later run", rep->kept);
	}
	u->kept = rep->kept;
	u->unkept = rep->unkept;
	u->dropped = rep->dropped;
}

void events_unshown_json(json_object *root, const struct events_unshown *u)
{
	jb_u64(root, "kept", u->kept);
	if (u->unkept)
		jb_u64(root, "unkept", u->unkept);
	if (u->dropped)
		jb_u64(root, "dropped", u->dropped);
	if (u->overwritten)
		jb_u64(root, "overwritten", u->overwritten);
}
