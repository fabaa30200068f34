// SPDX-License-Identifier: LGPL-2.1-or-later
/* blocks-session.c - one run that changes memory blocks: see
 * blocks-session.h */
#include <errno.h>
#include <string.h>
#include "change/blocks-session.h"
#include "change/auto-online-hold.h"
#include "core/lock.h"
#include "core/sysfs.h"
#include "cxl/topology-dax.h"

/* a killed run's hold put back, under the lock (so that no other run is
 * holding it now); its failure is kept for the caller to say, not raised */
static void recover_auto_online(struct ct_blocks_session *s)
{
	int rc = ct_auto_online_recover(s->ctx, s->restored, sizeof(s->restored));

	if (rc < 0) {
		s->recovery = CT_BLOCKS_RECOVERY_FAILED;
		ct_strlcpy(s->recovery_error, ct_context_message(s->ctx), sizeof(s->recovery_error));
		ct_error_clear(&s->ctx->err);
	} else if (rc && s->restored[0]) {
		s->recovery = CT_BLOCKS_RECOVERY_RESTORED;
	} else if (rc) {
		s->recovery = CT_BLOCKS_RECOVERY_LEFT;
	}
}

int ct_blocks_session_begin(struct ct_blocks_session *s, struct ct_context *ctx, const struct ct_blocks_opts *o,
			     unsigned lock_timeout_ms, bool dry_run)
{
	int rc;

	*s = (struct ct_blocks_session){ .ctx = ctx, .exec = *o, .dry_run = dry_run, .lockfd = -1 };
	if (dry_run)
		return 0;
	if ((rc = ct_lock_acquire(&ctx->sys, lock_timeout_ms, o->stop, &s->lockfd)))
		return rc;
	recover_auto_online(s);
	if ((rc = ct_region_recover(ctx, s->regions, CT_BLOCKS_MAX_RECOVERED, &s->nregions)))
		ct_blocks_session_end(s);
	return rc;
}

/* memdevs need the full chain (libcxl); the rest only the dax devices */
static bool needs_full_topology(char *const *targets, int n)
{
	for (int i = 0; i < n; i++)
		if (!strncmp(targets[i], "mem", 3) && strncmp(targets[i], "memory", 6))
			return true;
	return false;
}

int ct_blocks_session_load(struct ct_blocks_session *s, char *const *targets, int n, bool full,
			    struct ct_topology *t)
{
	if (full || needs_full_topology(targets, n))
		return ct_topology_load_for_change(s->ctx, t);
	return ct_topology_load_dax_sysfs(s->ctx, t);
}

int ct_blocks_session_run(struct ct_blocks_session *s, struct ct_blocks_plan *p, enum ct_blocks_want want,
			   bool reonline)
{
	int bad = 0;

	ct_blocks_plan_decide(p, want, reonline);
	if (!s->dry_run) {
		s->exec.record_ctx = s->ctx;
		bad = ct_blocks_execute(&s->ctx->sys, p, &s->exec);
		ct_blocks_session_end(s);
	}
	return bad;
}

bool ct_blocks_session_locked(const struct ct_blocks_session *s)
{
	return s->lockfd >= 0;
}

void ct_blocks_session_end(struct ct_blocks_session *s)
{
	if (s->lockfd >= 0) {
		ct_lock_release(s->lockfd);
		s->lockfd = -1;
	}
}
