/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * job-change.h - what the jobs that change memory blocks and regions share
 * (online, offline, offline --remove, region create and destroy). Each
 * holds what a run of cxltier must hold while it changes the machine: the
 * memory-blocks lock, the records of killed runs finished or undone before
 * it begins, the retry timing. lib/ installs no signal handlers: such a
 * job takes its caller's flags and timer (struct ct_job_signals), and its
 * report says what it recovered (struct ct_job_recovered).
 */
#ifndef CXLTIER_JOB_CHANGE_H
#define CXLTIER_JOB_CHANGE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "change/blocks-session.h"
#include "change/region.h"

/* what the caller's signal handlers and timer tell a job (as struct
 * ct_blocks_opts takes them: change/blocks.h); NULL: none */
struct ct_job_signals {
	volatile sig_atomic_t *stop;		/* SIGINT, SIGTERM, SIGHUP, SIGQUIT came: stop */
	volatile sig_atomic_t *timed_out;	/* the timer went off: this block took too long */
	void (*arm_timer)(unsigned ms);		/* the timer, ticking after ms until disarmed (0) */
};

/* what a job tells its caller while it runs, to show it as it goes: each
 * memory block carried out (and each the rollback took back), done of
 * total (change/blocks.h: ct_blocks_opts.on_block); each step of a region
 * create or destroy (change/region.h: struct ct_region_tell); NULL:
 * nothing told */
struct ct_job_progress {
	void (*block)(void *arg, const struct ct_block_op *op, size_t done, size_t total, bool rollback);
	void (*step)(void *arg, const char *what, size_t done, size_t total);
	void *arg;
};

/* the region changes (and --reonline blocks) of killed runs that a job
 * finished or undid before it began (change/region.h: ct_region_recover) */
struct ct_job_recovered {
	struct ct_region_recovery v[CT_BLOCKS_MAX_RECOVERED];
	size_t n;
};

#endif
