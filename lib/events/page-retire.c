// SPDX-License-Identifier: LGPL-2.1-or-later
/* page-retire.c - a page with too many corrected errors retired: see
 * page-retire.h */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "events/page-retire.h"
#include "mm/page-offline.h"

#define HOUR_NS (3600ULL * 1000000000ULL)
#define DESC_UNCORRECTABLE 0x1
#define DESC_THRESHOLD 0x2
#define CME_THRESHOLD_EXCEEDED 0x2

void ct_page_retire_settings(const struct ct_page_retire_conf *base, const struct ct_policy *p,
			     const struct ct_event *e, struct ct_page_retire_conf *out)
{
	const char *host = e->host;
	struct ct_policy_subject subj = { .region = e->region[0] ? e->region : NULL,
					  .serials = e->has_serial ? &e->serial : NULL,
					  .hosts = &host, .nmemdevs = 1 };

	ct_page_retire_conf_for(base, p, &subj, out);
}

static uint64_t since(uint64_t now_ns, uint64_t back_ns)
{
	return now_ns > back_ns ? now_ns - back_ns : 0;
}

/* the page already handled: retired or found poisoned by an earlier
 * decision while it is poisoned now, or limited within the hour */
static int handled_before(struct ct_context *ctx, struct ct_event_store *s, const struct ct_retirement *r,
			  bool poisoned, uint64_t now_ns, bool *before)
{
	unsigned n = 0, m = 0;
	int rc;

	*before = false;
	if (poisoned) {
		if ((rc = ct_retire_log_count(s, r->device, r->hpa, CT_RETIRE_RETIRED, 0, &n, &ctx->err)) ||
		    (rc = ct_retire_log_count(s, r->device, r->hpa, CT_RETIRE_ALREADY, 0, &m, &ctx->err)))
			return rc;
		*before = n + m > 0;
		return 0;
	}
	rc = ct_retire_log_count(s, r->device, r->hpa, CT_RETIRE_LIMITED, since(now_ns, HOUR_NS), &n, &ctx->err);
	*before = n > 0;
	return rc;
}

/* the device's tries in the last hour reach the limit */
static int limited(struct ct_context *ctx, struct ct_event_store *s, const struct ct_retirement *r,
		   const struct ct_page_retire_conf *c, uint64_t now_ns, bool *hit)
{
	unsigned done = 0, failed = 0;
	int rc;

	*hit = false;
	if (!c->limit)
		return 0;
	if ((rc = ct_retire_log_count(s, r->device, UINT64_MAX, CT_RETIRE_RETIRED, since(now_ns, HOUR_NS), &done,
				      &ctx->err)) ||
	    (rc = ct_retire_log_count(s, r->device, UINT64_MAX, CT_RETIRE_FAILED, since(now_ns, HOUR_NS), &failed,
				      &ctx->err)))
		return rc;
	*hit = done + failed >= c->limit;
	return 0;
}

static int act(struct ct_context *ctx, struct ct_event_store *s, const struct ct_page_retire_conf *c,
	       uint64_t now_ns, struct ct_page_retire_outcome *o)
{
	struct ct_retirement *r = &o->entry;
	bool poisoned, before, hit;
	int rc;

	if ((rc = ct_page_offline_poisoned(ctx, r->hpa, &poisoned)) ||
	    (rc = handled_before(ctx, s, r, poisoned, now_ns, &before)))
		return rc;
	if (before) {
		o->verdict = CT_PAGE_RETIRE_BEFORE;
		return 0;
	}
	if (poisoned) {
		r->action = CT_RETIRE_ALREADY;
	} else if ((rc = limited(ctx, s, r, c, now_ns, &hit))) {
		return rc;
	} else if (hit) {
		r->action = CT_RETIRE_LIMITED;
		snprintf(r->message, sizeof(r->message), "the limit of %u pages an hour for this device is reached "
			 "(retire-limit)", c->limit);
	} else if (ct_page_offline_soft(ctx, r->hpa)) {
		r->action = CT_RETIRE_FAILED;
		snprintf(r->message, sizeof(r->message), "%s", ct_context_message(ctx));
	} else if ((rc = ct_page_offline_poisoned(ctx, r->hpa, &poisoned)) || !poisoned) {
		r->action = CT_RETIRE_FAILED;
		snprintf(r->message, sizeof(r->message), "the kernel took the page, yet it is not marked HWPOISON%s",
			 rc ? " (its flags could not be read)" : "");
	} else {
		r->action = CT_RETIRE_RETIRED;
	}
	o->verdict = CT_PAGE_RETIRE_LOGGED;
	return ct_retire_log_add(s, r, &ctx->err);
}

int ct_page_retire_consider(struct ct_context *ctx, struct ct_event_store *s, const struct ct_event *e,
			    const struct ct_page_retire_conf *c, uint64_t now_ns, struct ct_page_retire_outcome *o)
{
	uint64_t page = ct_page_offline_size();
	struct ct_retirement *r = &o->entry;
	bool device_says;
	int rc;

	memset(o, 0, sizeof(*o));
	if (e->kind != CT_EV_GENERAL_MEDIA && e->kind != CT_EV_DRAM)
		return 0;
	r->time_ns = now_ns;
	snprintf(r->memdev, sizeof(r->memdev), "%s", e->memdev);
	r->has_serial = e->has_serial;
	r->serial = e->serial;
	ct_retire_log_device(e->memdev, e->has_serial, e->serial, r->device, sizeof(r->device));
	r->dpa = e->dpa & ~(page - 1);
	r->hpa = e->has_hpa ? e->hpa & ~(page - 1) : UINT64_MAX;
	if (e->descriptor & DESC_UNCORRECTABLE) {
		o->verdict = CT_PAGE_RETIRE_UNCORRECTABLE;
		o->poison_known = e->has_hpa && !ct_page_offline_poisoned(ctx, r->hpa, &o->poisoned);
		return 0;
	}
	if ((rc = ct_retire_log_page_errors(s, r->device, r->dpa, page, since(now_ns, c->window_s * 1000000000ULL),
					    &r->errors, &ctx->err)))
		return rc;
	device_says = (e->descriptor & DESC_THRESHOLD) || (e->has_cme && (e->cme_flags & CME_THRESHOLD_EXCEEDED));
	if (!device_says && r->errors < c->threshold) {
		o->verdict = CT_PAGE_RETIRE_BELOW;
		return 0;
	}
	if (device_says)
		snprintf(r->reason, sizeof(r->reason), "the device reports the page's error threshold crossed "
			 "(%u corrected errors stored within the window)", r->errors);
	else
		snprintf(r->reason, sizeof(r->reason), "%u corrected errors within %" PRIu64 " s (retire-threshold = %u)",
			 r->errors, c->window_s, c->threshold);
	if (!c->retire) {
		o->verdict = CT_PAGE_RETIRE_OFF;
		return 0;
	}
	if (r->hpa == UINT64_MAX) {
		o->verdict = CT_PAGE_RETIRE_UNMAPPED;
		return 0;
	}
	return act(ctx, s, c, now_ns, o);
}
