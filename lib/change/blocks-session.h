/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * blocks-session.h - one run that changes memory blocks, from the lock to
 * its release: the memory-blocks lock taken (core/lock.h), so that no other
 * cxltier changes blocks or regions meanwhile; a hold of the kernel's own
 * onlining that a killed run left put back (change/auto-online-hold.h);
 * the region creates and destroys killed runs left finished or undone
 * (change/region.h: ct_region_recover); the topology the targets need loaded; the plan decided and executed
 * (blocks.h); the lock released.
 *
 * A dry run takes no lock and writes nothing: it loads and decides. lib/
 * installs no signal handlers: the caller's stop flag and timer come in
 * struct ct_blocks_opts, and the wait for the lock ends on *stop too.
 */
#ifndef CXLTIER_BLOCKS_SESSION_H
#define CXLTIER_BLOCKS_SESSION_H

#include <stdbool.h>
#include "core/context.h"
#include "cxl/topology.h"
#include "change/blocks.h"
#include "change/region.h"

#define CT_BLOCKS_MAX_RECOVERED 8

/* what begin found of a killed run's hold of auto_online_blocks */
enum ct_blocks_recovery {
	CT_BLOCKS_RECOVERY_NONE,	/* no hold left (or its run still going) */
	CT_BLOCKS_RECOVERY_RESTORED,	/* auto_online_blocks set back to restored */
	CT_BLOCKS_RECOVERY_LEFT,	/* set by the administrator since: left as it is */
	CT_BLOCKS_RECOVERY_FAILED,	/* could not be undone: recovery_error says why */
};

struct ct_blocks_session {
	struct ct_context *ctx;
	struct ct_blocks_opts exec;	/* the caller's, for every execution of the run */
	bool dry_run;
	int lockfd;			/* the memory-blocks lock; -1 when not held */
	enum ct_blocks_recovery recovery;
	char restored[32];
	char recovery_error[512];
	/* region changes killed runs left, finished or undone (region.h);
	 * when one failed it is the last, failed set, and begin failed */
	struct ct_region_recovery regions[CT_BLOCKS_MAX_RECOVERED];
	size_t nregions;
};

/* a session not begun (and one ended): ct_blocks_session_end does nothing */
#define CT_BLOCKS_SESSION_INIT { .lockfd = -1 }

/*
 * Begin a run: unless a dry run, take the lock (waiting up to
 * lock_timeout_ms, or until *o->stop), undo a killed run's hold
 * (s->recovery; its failure does not stop the run), and finish or undo the
 * region creates and destroys killed runs left (s->regions; one that
 * cannot be: the run does not begin, the lock is released). 0, or -errno
 * with a message (-EWOULDBLOCK: another cxltier holds the lock, named).
 */
int ct_blocks_session_begin(struct ct_blocks_session *s, struct ct_context *ctx, const struct ct_blocks_opts *o,
			     unsigned lock_timeout_ms, bool dry_run);
/* the topology the targets need (again after a change: a conversion, a new
 * region): memdev targets, or full, the whole chain (libcxl), the rest
 * only the dax devices; 0 or -errno with a message */
int ct_blocks_session_load(struct ct_blocks_session *s, char *const *targets, int n, bool full,
			    struct ct_topology *t);
/* decide the plan for want (reonline: ct_blocks_plan_decide), execute it
 * with the session's options unless a dry run, and release the lock: the
 * number of blocks not as wanted (ct_blocks_execute), 0 in a dry run */
int ct_blocks_session_run(struct ct_blocks_session *s, struct ct_blocks_plan *p, enum ct_blocks_want want,
			   bool reonline);
/* the lock is held (a run begun, not dry, not yet ended) */
bool ct_blocks_session_locked(const struct ct_blocks_session *s);
/* release the lock, when held; again is harmless */
void ct_blocks_session_end(struct ct_blocks_session *s);

#endif
