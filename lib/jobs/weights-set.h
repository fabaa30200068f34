/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * weights-set.h - the job that sets the kernel's weighted-interleave
 * weights (/sys/kernel/mm/mempolicy/weighted_interleave): the ones the
 * kernel's auto mode would compute from each node's access1 bandwidth
 * (views/tier-model.h: ct_tier_weights), the ones given, or the kernel's
 * own auto mode (6.16+). Under the shared lock (core/lock.h), with a record
 * (change/weights-record.h) written before the first node write and a
 * crash point before each (core/sysfs.c), so that a run killed between two
 * writes is found by the next one, which puts the old set back: the kernel
 * holds the old set or the new one, never a mix.
 *
 * Writing a nodeN turns the kernel's auto mode off (6.16+, mm/mempolicy.c
 * node_store() sets mode_auto false): the report says it.
 */
#ifndef CXLTIER_WEIGHTS_SET_H
#define CXLTIER_WEIGHTS_SET_H

#include <signal.h>
#include <stdbool.h>
#include "change/weights-record.h"
#include "core/context.h"
#include "jobs/job-end.h"

enum ct_weights_how {
	CT_WEIGHTS_COMPUTED,	/* the weights computed from bandwidth */
	CT_WEIGHTS_GIVEN,	/* opts.given */
	CT_WEIGHTS_AUTO,	/* .../auto = true (6.16+) */
};

struct ct_weights_set_opts {
	enum ct_weights_how how;
	const struct ct_weights_change *given;	/* node and new (1-255) */
	unsigned ngiven;
	bool dry_run;
	unsigned timeout_s;		/* for the lock */
	bool lock_held;			/* the caller holds it (the hotplug chain, policy-online.c) */
	volatile sig_atomic_t *stop;
};

struct ct_weights_set_node {
	int node;
	unsigned old, new;		/* new == old: left as it is */
	bool written;
};

struct ct_weights_set_report {
	enum ct_job_end end;
	bool has_auto;			/* the kernel has .../auto */
	bool auto_old, auto_new;	/* the mode before, and after (as planned on a dry run) */
	bool auto_turned_off;		/* node writes turned auto off */
	unsigned n;
	struct ct_weights_set_node *v;	/* every node the kernel has a weight for */
	unsigned writes;		/* the kernel writes done */
	/* a dead run's change found: rolled back to its old set, or found whole */
	unsigned recovered;
	bool recovered_whole;
	int recovered_pid;
};

/* the end, in r (said through ctx->say as it went) */
enum ct_job_end ct_weights_set(struct ct_context *ctx, const struct ct_weights_set_opts *o,
			       struct ct_weights_set_report *r);
void ct_weights_set_report_free(struct ct_weights_set_report *r);

#endif
