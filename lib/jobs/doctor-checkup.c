// SPDX-License-Identifier: LGPL-2.1-or-later
/* doctor-checkup.c - every check of `doctor` in one job: see doctor-checkup.h */
#include "config/events-conf.h"
#include "core/conf.h"
#include "cxl/topology.h"
#include "jobs/doctor-checkup.h"
#include "views/doctor.h"

int ct_doctor_checkup(struct ct_context *ctx, const struct ct_doctor_checkup_opts *o, struct ct_findings *f)
{
	const char *store_path = o->store_path;
	struct ct_events_conf conf;
	struct ct_topology t;
	int rc;

	if ((rc = ct_topology_load(ctx, &t))) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		return rc;
	}
	rc = ct_doctor_run(ctx, &t, f);
	ct_topology_free(&t);
	if (rc) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		return rc;
	}
	/* the event history of this machine (a captured tree has none unless
	 * named); a configuration that cannot be read leaves the default store */
	if (store_path || ctx->live) {
		if (!store_path && ct_events_conf_load(CT_CONF_PATH, false, &conf, &ctx->err) == 0 && conf.store[0])
			store_path = conf.store;
		ct_doctor_events(store_path, f);
	}
	return 0;
}
