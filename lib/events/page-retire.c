// SPDX-License-Identifier: LGPL-2.1-or-later
/* page-retire.c - a page with too many corrected errors retired: see
 * page-retire.h */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "events/hpa-check.h"
#include "events/page-retire.h"
#include "mm/page-offline.h"

#define NS 1000000000ULL
#define HOUR_NS (3600ULL * NS)
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

/* when a page tried tries times may be tried again */
static uint64_t retry_at(uint64_t now_ns, unsigned tries)
{
	uint64_t s = CT_PAGE_RETIRE_RETRY_S;

	for (unsigned i = 1; i < tries && s < CT_PAGE_RETIRE_RETRY_MAX_S; i++)
		s *= 2;
	return now_ns + (s < CT_PAGE_RETIRE_RETRY_MAX_S ? s : CT_PAGE_RETIRE_RETRY_MAX_S) * NS;
}

/* nothing new for the page: handled before (retired or found poisoned,
 * and poisoned now; limited within the hour), or not to be tried yet */
static enum ct_page_retire_verdict before(const struct ct_retirement *prev, bool poisoned, uint64_t now_ns)
{
	if (poisoned)
		return prev->action == CT_RETIRE_RETIRED || prev->action == CT_RETIRE_ALREADY ? CT_PAGE_RETIRE_BEFORE
											     : CT_PAGE_RETIRE_LOGGED;
	if (prev->action == CT_RETIRE_LIMITED && since(now_ns, HOUR_NS) < prev->time_ns)
		return CT_PAGE_RETIRE_BEFORE;
	if ((prev->action == CT_RETIRE_FAILED || prev->action == CT_RETIRE_STALE) && now_ns < prev->next_ns)
		return CT_PAGE_RETIRE_WAITING;
	return CT_PAGE_RETIRE_LOGGED;
}

/* the soft-offline tried: RETIRED or FAILED, with the kernel's answer */
static int try_page(struct ct_context *ctx, struct ct_retirement *r, uint64_t now_ns)
{
	bool poisoned;
	int rc;

	r->tries++;
	r->tried_ns = now_ns;
	if (ct_page_offline_soft(ctx, r->hpa)) {
		r->action = CT_RETIRE_FAILED;
		snprintf(r->message, sizeof(r->message), "%s", ct_context_message(ctx));
	} else if ((rc = ct_page_offline_poisoned(ctx, r->hpa, &poisoned)) || !poisoned) {
		r->action = CT_RETIRE_FAILED;
		snprintf(r->message, sizeof(r->message), "the kernel took the page, yet it is not marked HWPOISON%s",
			 rc ? " (its flags could not be read)" : "");
	} else {
		r->action = CT_RETIRE_RETIRED;
	}
	if (r->action == CT_RETIRE_FAILED)
		r->next_ns = retry_at(now_ns, r->tries);
	return 0;
}

/* limited, stale or tried */
static int decide(struct ct_context *ctx, struct ct_event_store *s, const struct ct_event *e,
		  const struct ct_page_retire_conf *c, uint64_t now_ns, struct ct_retirement *r)
{
	unsigned tried = 0;
	bool maps;
	int rc;

	if (c->limit && (rc = ct_retire_log_tried(s, r->device, r->dpa, since(now_ns, HOUR_NS), &tried, &ctx->err)))
		return rc;
	if (c->limit && tried >= c->limit) {
		r->action = CT_RETIRE_LIMITED;
		snprintf(r->message, sizeof(r->message), "the limit of %u pages an hour for this device is reached "
			 "(retire-limit)", c->limit);
		return 0;
	}
	if ((rc = ct_hpa_check(ctx, e, &maps, r->message, sizeof(r->message))))
		return rc;
	if (!maps) {
		r->action = CT_RETIRE_STALE;
		r->next_ns = now_ns + HOUR_NS;
		return 0;
	}
	return try_page(ctx, r, now_ns);
}

static int act(struct ct_context *ctx, struct ct_event_store *s, const struct ct_event *e,
	       const struct ct_page_retire_conf *c, uint64_t now_ns, struct ct_page_retire_outcome *o)
{
	struct ct_retirement *r = &o->entry, prev;
	bool poisoned;
	int rc, has;

	if ((rc = ct_page_offline_poisoned(ctx, r->hpa, &poisoned)) ||
	    (has = rc = ct_retire_log_page(s, r->device, r->dpa, &prev, &ctx->err)) < 0)
		return rc;
	if (has) {
		r->first_ns = prev.first_ns;
		r->tried_ns = prev.tried_ns;
		r->tries = prev.tries;
		r->next_ns = prev.next_ns;
		if ((o->verdict = before(&prev, poisoned, now_ns)) != CT_PAGE_RETIRE_LOGGED)
			return 0;
	}
	if (poisoned)
		r->action = CT_RETIRE_ALREADY;
	else if ((rc = decide(ctx, s, e, c, now_ns, r)))
		return rc;
	o->verdict = CT_PAGE_RETIRE_LOGGED;
	return ct_retire_log_add(s, r, &ctx->err);
}

/* the entry's device, addresses and times */
static int entry_of(struct ct_event_store *s, const struct ct_event *e, uint64_t now_ns, struct ct_retirement *r,
		    struct ct_error *err)
{
	uint64_t page = ct_page_offline_size();

	r->time_ns = now_ns;
	snprintf(r->memdev, sizeof(r->memdev), "%s", e->memdev);
	r->has_serial = e->has_serial;
	r->serial = e->serial;
	r->dpa = e->dpa & ~(page - 1);
	r->hpa = e->has_hpa ? e->hpa & ~(page - 1) : UINT64_MAX;
	if (e->identity[0]) {
		snprintf(r->device, sizeof(r->device), "%s", e->identity);
		return 0;
	}
	return ct_event_store_identity(s, e, r->device, sizeof(r->device), err);
}

int ct_page_retire_consider(struct ct_context *ctx, struct ct_event_store *s, const struct ct_event *e,
			    const struct ct_page_retire_conf *c, uint64_t now_ns, struct ct_page_retire_outcome *o)
{
	struct ct_retirement *r = &o->entry;
	bool device_says;
	int rc;

	memset(o, 0, sizeof(*o));
	if (e->kind != CT_EV_GENERAL_MEDIA && e->kind != CT_EV_DRAM)
		return 0;
	if ((rc = entry_of(s, e, now_ns, r, &ctx->err)))
		return rc;
	if (e->descriptor & DESC_UNCORRECTABLE) {
		o->verdict = CT_PAGE_RETIRE_UNCORRECTABLE;
		o->poison_known = e->has_hpa && !ct_page_offline_poisoned(ctx, r->hpa, &o->poisoned);
		return 0;
	}
	if ((rc = ct_retire_log_page_errors(s, r->device, r->dpa, ct_page_offline_size(),
					    since(now_ns, c->window_s * NS), c->threshold, &r->errors, &ctx->err)))
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
	return act(ctx, s, e, c, now_ns, o);
}
