// SPDX-License-Identifier: GPL-2.0-only
/* events-unshown.c - what a run of the shared instance read and did not
 * show (kept for later, or lost: the job said it), counted for -j */
#include "events-unshown.h"
#include "cli/json-build.h"

void events_unshown_json(json_object *root, const struct ct_event_read_report *rep)
{
	jb_u64(root, "kept", rep->kept);
	if (rep->unkept)
		jb_u64(root, "unkept", rep->unkept);
	if (rep->dropped)
		jb_u64(root, "dropped", rep->dropped);
	if (rep->overwritten)
		jb_u64(root, "overwritten", rep->overwritten);
}
