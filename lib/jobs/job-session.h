/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * job-session.h - private to lib/jobs/: a job's hold of the memory blocks
 * and regions (change/blocks-session.h) with what it says: the lock, what
 * killed runs left finished or undone and said, the topology the targets
 * need, the phases a run's time goes to (-vv), the kernel's own onlining
 * warned about.
 */
#ifndef CXLTIER_JOB_SESSION_H
#define CXLTIER_JOB_SESSION_H

#include <stdbool.h>
#include <time.h>
#include "change/blocks-session.h"
#include "jobs/job-change.h"
#include "jobs/job-end.h"

struct job_session {
	struct ct_context *ctx;
	struct ct_blocks_session s;
	struct timespec phase;		/* the last phase's end; 0 before the first */
};

#define JOB_SESSION_INIT { .s = CT_BLOCKS_SESSION_INIT }

/* the execution options of a job's blocks changes: its rollback, a block's
 * time, the caller's signals and what it is told of each block (pr NULL:
 * nothing) */
struct ct_blocks_opts job_exec_opts(const struct ct_job_signals *sig, const struct ct_job_progress *pr, bool rollback,
				    unsigned timeout_s);

/*
 * Begin: unless a dry run, take the lock (waiting up to timeout_s, or
 * until the caller's stop), put back what killed runs left and say it, the
 * region changes among it into rec. CT_JOB_DONE, or CT_JOB_FAILED said.
 */
enum ct_job_end job_session_begin(struct job_session *js, struct ct_context *ctx, const struct ct_blocks_opts *eo,
				     unsigned timeout_s, bool dry_run, struct ct_job_recovered *rec);
/* the kernel has memory hotplug (else CT_JOB_UNSUPPORTED, said), begin,
 * then the topology the targets need (full: the whole chain) */
enum ct_job_end job_session_begin_load(struct job_session *js, struct ct_context *ctx, const struct ct_blocks_opts *eo,
					  unsigned timeout_s, bool dry_run, struct ct_job_recovered *rec,
					  char *const *targets, int n, bool full, struct ct_topology *t);
/* the topology the targets need, again after a change; CT_JOB_DONE or
 * CT_JOB_FAILED said */
enum ct_job_end job_session_load(struct job_session *js, char *const *targets, int n, bool full,
				    struct ct_topology *t);
/* the lock released (when held) */
void job_session_end(struct job_session *js);
/* -vv: "WHAT: N ms", the time since the last phase (the first says nothing) */
void job_session_phase(struct job_session *js, const char *what);
/* when the kernel onlines new memory itself (into ZONE_NORMAL): said */
void job_warn_auto_online(struct ct_context *ctx);

#endif
