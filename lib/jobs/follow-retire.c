// SPDX-License-Identifier: LGPL-2.1-or-later
/* follow-retire.c - the follower's page retirement: see follow-retire.h */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include "core/conf.h"
#include "events/page-retire.h"
#include "jobs/follow-retire.h"
#include "mm/page-offline.h"

static void say_uncorrectable(struct ct_context *ctx, const struct ct_event *e, const struct ct_page_retire_outcome *o)
{
	if (!e->has_hpa)
		ct_say(&ctx->say, CT_SAY_WARNING, "uncorrectable error on %s at DPA 0x%" PRIx64 ", in no region: no "
		       "memory in use is affected", e->memdev, e->dpa);
	else
		ct_say(&ctx->say, CT_SAY_WARNING, "uncorrectable error on %s at DPA 0x%" PRIx64 " (HPA 0x%" PRIx64 "): "
		       "%s; cxltier does not act on it", e->memdev, e->dpa, e->hpa,
		       !o->poison_known ? "whether the kernel took the page could not be read" :
		       o->poisoned ? "the kernel has taken the page out of use (HWPOISON)" :
		       "the page is in use: the kernel handles the error if the data is read");
}

static void say_logged(struct ct_context *ctx, const struct ct_retirement *t)
{
	if (t->action == CT_RETIRE_RETIRED)
		ct_say(&ctx->say, CT_SAY_WARNING, "retired page 0x%" PRIx64 " (%s DPA 0x%" PRIx64 "): %s; its data "
		       "moved elsewhere", t->hpa, t->memdev, t->dpa, t->reason);
	else if (t->action == CT_RETIRE_ALREADY)
		ct_say(&ctx->say, 0, "page 0x%" PRIx64 " (%s DPA 0x%" PRIx64 "): %s; already out of use (HWPOISON)",
		       t->hpa, t->memdev, t->dpa, t->reason);
	else if (t->action == CT_RETIRE_STALE)
		ct_say(&ctx->say, CT_SAY_WARNING, "page 0x%" PRIx64 " (%s DPA 0x%" PRIx64 ") not retired: the record's "
		       "address no longer maps that memory: %s (%s)", t->hpa, t->memdev, t->dpa, t->message, t->reason);
	else
		ct_say(&ctx->say, CT_SAY_WARNING, "page 0x%" PRIx64 " (%s DPA 0x%" PRIx64 ") not retired: %s (%s)%s",
		       t->hpa, t->memdev, t->dpa, t->message, t->reason, t->action == CT_RETIRE_LIMITED ?
		       "; a device failing this fast should be retired: cxltier offline --remove" :
		       t->tries == 1 ? "; tried again at a later error, a minute on at the soonest" : "");
}

/* what was decided for e, said */
static void say_outcome(struct ct_context *ctx, const struct ct_event *e, const struct ct_page_retire_outcome *o)
{
	const struct ct_retirement *t = &o->entry;

	switch (o->verdict) {
	case CT_PAGE_RETIRE_UNCORRECTABLE:
		say_uncorrectable(ctx, e, o);
		break;
	case CT_PAGE_RETIRE_OFF:
		ct_say(&ctx->say, 0, "page DPA 0x%" PRIx64 " of %s: %s; left in use (retire-pages = no)", t->dpa,
		       t->memdev, t->reason);
		break;
	case CT_PAGE_RETIRE_UNMAPPED:
		ct_say(&ctx->say, 0, "page DPA 0x%" PRIx64 " of %s: %s; it maps to no host address (no region): "
		       "nothing to retire", t->dpa, t->memdev, t->reason);
		break;
	case CT_PAGE_RETIRE_LOGGED:
		say_logged(ctx, t);
		break;
	case CT_PAGE_RETIRE_WAITING:
		ct_say(&ctx->say, 1, "page 0x%" PRIx64 " (%s DPA 0x%" PRIx64 "): %s; tried %u times, not again for "
		       "%" PRIu64 " s", t->hpa, t->memdev, t->dpa, t->reason, t->tries,
		       (uint64_t)((t->next_ns - t->time_ns) / 1000000000ULL));
		break;
	default:
		break;
	}
}

/* a record the store has just taken */
static int on_new(const struct ct_event *e, void *arg)
{
	struct ct_follow_retire *r = arg;
	struct ct_context *ctx = r->ctx;
	struct ct_page_retire_outcome o;
	struct ct_page_retire_conf c;
	struct timespec now;
	int rc;

	if (e->kind != CT_EV_GENERAL_MEDIA && e->kind != CT_EV_DRAM)
		return 0;
	ct_page_retire_settings(&r->store->conf.retire, &r->policy, e, &c);
	clock_gettime(CLOCK_REALTIME, &now);
	/* (the host's clock: the time the record arrived counts in the window) */
	rc = ct_page_retire_consider(ctx, r->store->s, e, &c,
				     (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec, &o);
	if (rc) {
		if (rc != r->said_rc)
			ct_say(&ctx->say, CT_SAY_WARNING, "page retirement: a %s record of %s not weighed: %s",
			       ct_event_kind_name(e->kind), e->memdev, ct_context_message(ctx));
		r->said_rc = rc;
		return 0;
	}
	r->said_rc = 0;
	say_outcome(ctx, e, &o);
	return 0;
}

void ct_follow_retire_start(struct ct_context *ctx, struct ct_follow_retire *r, struct ct_event_history *h,
			    const char *config)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->ctx = ctx;
	r->store = h;
	if (!h->s)
		return;
	rc = ct_policy_load(config ? config : CT_CONF_PATH, &r->policy, &ctx->err);
	if (rc && rc != -ENOENT)
		ct_say(&ctx->say, CT_SAY_WARNING, "%s: page retirement follows [events] alone for every device",
		       ct_context_message(ctx));
	if (rc)
		memset(&r->policy, 0, sizeof(r->policy));
	ct_event_store_on_new(h->s, on_new, r);
	/* said at the start, not at the first page due */
	if (ct_page_retire_conf_any(&h->conf.retire, &r->policy) && (rc = ct_page_offline_usable(ctx)))
		ct_say(&ctx->say, CT_SAY_WARNING, "page retirement is on (retire-pages = yes), and %s: a page due is "
		       "recorded as not retired%s", ct_context_message(ctx), rc == -ENOENT ? "" :
		       ". Under cxltier-events.service, allow it with the drop-in " CT_FOLLOW_RETIRE_DROP_IN
		       " (systemctl edit cxltier-events)");
}

void ct_follow_retire_stop(struct ct_follow_retire *r)
{
	ct_policy_free(&r->policy);
}
