// SPDX-License-Identifier: GPL-2.0-only
/* events-retire.c - the follower's page retirement: see events-retire.h */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include "events-retire.h"
#include "core/conf.h"
#include "core/context.h"
#include "events/page-retire.h"
#include "mm/page-offline.h"

#define DROP_IN "/usr/share/doc/cxltier/examples/cxltier-events-retire.conf"

static void say(struct events_retire *r, const struct ct_event *e, const struct ct_page_retire_outcome *o)
{
	const struct ct_retirement *t = &o->entry;
	struct cmd_env *env = r->env;

	switch (o->verdict) {
	case CT_PAGE_RETIRE_UNCORRECTABLE:
		if (!e->has_hpa)
			cmd_warn(env, "uncorrectable error on %s at DPA 0x%" PRIx64 ", in no region: no memory in use "
				 "is affected", e->memdev, e->dpa);
		else
			cmd_warn(env, "uncorrectable error on %s at DPA 0x%" PRIx64 " (HPA 0x%" PRIx64 "): %s; "
				 "cxltier does not act on it", e->memdev, e->dpa, e->hpa,
				 !o->poison_known ? "whether the kernel took the page could not be read" :
				 o->poisoned ? "the kernel has taken the page out of use (HWPOISON)" :
				 "the page is in use: the kernel handles the error if the data is read");
		break;
	case CT_PAGE_RETIRE_OFF:
		cmd_info(env, 0, "page DPA 0x%" PRIx64 " of %s: %s; left in use (retire-pages = no)", t->dpa, t->memdev,
			 t->reason);
		break;
	case CT_PAGE_RETIRE_UNMAPPED:
		cmd_info(env, 0, "page DPA 0x%" PRIx64 " of %s: %s; it maps to no host address (no region): nothing "
			 "to retire", t->dpa, t->memdev, t->reason);
		break;
	case CT_PAGE_RETIRE_LOGGED:
		if (t->action == CT_RETIRE_RETIRED)
			cmd_warn(env, "retired page 0x%" PRIx64 " (%s DPA 0x%" PRIx64 "): %s; its data moved elsewhere",
				 t->hpa, t->memdev, t->dpa, t->reason);
		else if (t->action == CT_RETIRE_ALREADY)
			cmd_info(env, 0, "page 0x%" PRIx64 " (%s DPA 0x%" PRIx64 "): %s; already out of use (HWPOISON)",
				 t->hpa, t->memdev, t->dpa, t->reason);
		else
			cmd_warn(env, "page 0x%" PRIx64 " (%s DPA 0x%" PRIx64 ") not retired: %s (%s)%s", t->hpa,
				 t->memdev, t->dpa, t->message, t->reason, t->action == CT_RETIRE_LIMITED ?
				 "; a device failing this fast should be retired: cxltier offline --remove" : "");
		break;
	default:
		break;
	}
}

static int on_new(const struct ct_event *e, void *arg)
{
	struct events_retire *r = arg;
	struct ct_page_retire_outcome o;
	struct ct_page_retire_conf c;
	struct timespec now;
	int rc;

	if (e->kind != CT_EV_GENERAL_MEDIA && e->kind != CT_EV_DRAM)
		return 0;
	ct_page_retire_settings(&r->store->conf.retire, &r->policy, e, &c);
	clock_gettime(CLOCK_REALTIME, &now);
	rc = ct_page_retire_consider(r->env->ctx, r->store->s, e, &c,
				     (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec, &o);
	if (rc) {
		if (rc != r->said_rc)
			cmd_warn(r->env, "page retirement: a %s record of %s not weighed: %s", ct_event_kind_name(e->kind),
				 e->memdev, ct_context_message(r->env->ctx));
		r->said_rc = rc;
		return 0;
	}
	r->said_rc = 0;
	say(r, e, &o);
	return 0;
}

void events_retire_start(struct cmd_env *env, struct events_retire *r, struct events_store *es, const char *config)
{
	const char *path = config ? config : CT_CONF_PATH;
	int rc;

	memset(r, 0, sizeof(*r));
	r->env = env;
	r->store = es;
	if (!es->s)
		return;
	rc = ct_policy_load(path, &r->policy, &env->ctx->err);
	if (rc && rc != -ENOENT)
		cmd_warn(env, "%s: page retirement follows [events] alone for every device", ct_context_message(env->ctx));
	if (rc)
		memset(&r->policy, 0, sizeof(r->policy));
	ct_event_store_on_new(es->s, on_new, r);
	/* said at the start, not at the first page due */
	if (ct_page_retire_conf_any(&es->conf.retire, &r->policy) && (rc = ct_page_offline_usable(env->ctx)))
		cmd_warn(env, "page retirement is on (retire-pages = yes), and %s: a page due is recorded as not "
			 "retired%s", ct_context_message(env->ctx), rc == -ENOENT ? "" :
			 ". Under cxltier-events.service, allow it with the drop-in " DROP_IN " (systemctl edit "
			 "cxltier-events)");
}

void events_retire_stop(struct events_retire *r)
{
	ct_policy_free(&r->policy);
}
