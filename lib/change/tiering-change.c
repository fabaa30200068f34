// SPDX-License-Identifier: LGPL-2.1-or-later
/* tiering-change.c - the tiering switches written as one change, recorded
 * while it is half done (tiering-change.h) */
#include <errno.h>
#include <string.h>
#include "change/tiering-change.h"
#include "change/change-record.h"

/* the steps written before step k (which failed) set back, the last
 * first; 0, or -errno with a message */
static int roll_back(struct ct_context *ctx, struct ct_tiering_step *steps, size_t k)
{
	int rc;

	for (size_t i = k; i-- > 0;) {
		struct ct_tiering_step *s = &steps[i];
		if (strcmp(s->result, "changed"))
			continue;
		if ((rc = ct_tiering_write(&ctx->sys, s->sw, s->from)))
			return rc;
		s->result = "rolled back";
	}
	return 0;
}

int ct_tiering_change_apply(struct ct_context *ctx, struct ct_tiering_step *steps, size_t n)
{
	struct ct_change_record rec;
	char why[512];
	int rc, back;

	ct_change_record_init_tiering(&rec);
	for (size_t i = 0; i < n; i++)
		if (steps[i].from != steps[i].to)
			ct_change_record_add_switch(&rec, steps[i].sw, steps[i].from, steps[i].to);
	if ((rc = ct_change_record_begin(ctx, &rec)))
		return rc;
	for (size_t i = 0; i < n; i++) {
		struct ct_tiering_step *s = &steps[i];
		if (s->from == s->to)
			continue;
		if (!(rc = ct_tiering_write(&ctx->sys, s->sw, s->to))) {
			s->result = "changed";
			continue;
		}
		s->result = "failed";
		ct_strlcpy(why, ct_context_message(ctx), sizeof(why));
		ct_error_clear(&ctx->err);
		if ((back = roll_back(ctx, steps, i))) {
			char again[512];
			ct_strlcpy(again, ct_context_message(ctx), sizeof(again));
			ct_change_record_end(&rec, true);
			return ct_fail(&ctx->err, -rc, "%s; setting back what was written failed too: %s; the next "
				       "cxltier tiering (or online, offline, region) run sets it back", why, again);
		}
		ct_change_record_end(&rec, false);
		return ct_fail(&ctx->err, -rc, "%s%s", why, i ? "; what was written before it was set back" : "");
	}
	ct_change_record_end(&rec, false);
	return 0;
}
