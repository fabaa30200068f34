/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * migrate.h - one-shot page migration of processes to a node: a whole
 * process with migrate_pages(2), or its address ranges with move_pages(2) in
 * batches (a byte limit, a rate limit, a dry run, hot or cold pages only),
 * through libnuma; or spread over several nodes by weight, page by page
 * (mm/migrate-spread.h: each batch's pages chosen from what each node gives,
 * one move_pages call per target node). Several jobs may run at once: several processes, or one
 * process's ranges split between them (disjoint, cut at huge-page-aligned
 * boundaries); the byte limit stays per process, the rate is for the whole
 * run. Every page that cannot move is counted by errno; nothing here is fatal
 * for the process's other pages, or for other processes.
 */
#ifndef CXLTIER_MIGRATE_H
#define CXLTIER_MIGRATE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "mm/damon.h"
#include "mm/migrate-plan.h"
#include "core/nodeset.h"
#include "core/process.h"
#include "core/sysfs.h"

#define CT_MIG_MAX_NODES 64
#define CT_MIG_MAX_JOBS 64

enum ct_mig_err { CT_MIG_EFAULT, CT_MIG_ENOENT, CT_MIG_EACCES, CT_MIG_EBUSY, CT_MIG_ENOMEM, CT_MIG_OTHER, CT_MIG_NERR };

struct ct_migrate_opts {
	int to;				/* target node (-1 with spread) */
	/* with spread, no target: each process's pages spread over the nodes
	 * with a weight (CT_MIG_MAX_NODES of them, 0: not in the spread) in
	 * proportion, moving the fewest pages that reach that split, page by
	 * page; a node within tolerance_pct of all the process's pages of its
	 * target is left alone (mm/migrate-spread.h says how) */
	const unsigned *spread;
	double tolerance_pct;
	struct ct_nodeset from;		/* source nodes; empty: every node but the target */
	uint64_t max_bytes;		/* per process; 0: no limit */
	double rate_mbps;		/* all jobs together; 0: no limit */
	bool dry_run;
	unsigned jobs;			/* at most this many at once (0 or 1: one) */
	volatile sig_atomic_t *stop;
	/* told as the run reaches each process (moved whole, or its batches
	 * handed to the jobs), reached of n; one call at a time, from
	 * whichever job reached it; NULL: nothing told. The caller's, to show
	 * the run as it goes: lib/ prints nothing */
	void (*on_process)(void *arg, size_t reached, size_t n);
	void *on_process_arg;
};

struct ct_migrate_result {
	int pid;
	char comm[32];
	const char *mechanism;		/* "migrate_pages" or "move_pages" */
	uint64_t before[CT_MIG_MAX_NODES], after[CT_MIG_MAX_NODES];	/* bytes, from numa_maps */
	const char *after_from;		/* "numa_maps" (read again), or "move_pages status": a spread's
					 * before with what move_pages said moved */
	bool spread;			/* a spread: target holds the split it aimed at */
	uint64_t target[CT_MIG_MAX_NODES];	/* bytes per node */
	uint64_t pages_moved, pages_failed;	/* in base pages (a huge page counts its size) */
	uint64_t failed_by[CT_MIG_NERR];
	uint64_t bytes_moved, bytes_to_move;
	double seconds;			/* its scan, then its first batch to its last */
	double scan_seconds;		/* numa_maps, maps, the plan and the page queries */
	double move_seconds;		/* in migrate_pages/move_pages (summed over jobs) */
	bool exited;			/* the process went away during the run */
	bool replaced;			/* ... and its PID is another process's now */
	char note[256];			/* how it went away */
	int err;			/* 0, or -errno: nothing could be done (error says why) */
	char error[512];
};

/* one process to move, and what of it */
struct ct_migrate_task {
	const struct ct_process *proc;
	struct ct_migrate_selection sel;
	struct ct_migrate_result r;
};

struct ct_migrate_totals {
	unsigned jobs;			/* how many were let run at once */
	double seconds, scan_seconds, move_seconds;
	uint64_t bytes_moved, bytes_to_move;
};

/* the regions DAMON saw accessed (hot) or not (cold) as the only pages to
 * move (none of that kind: nothing moves); 0 or -ENOMEM */
int ct_migrate_select_access(struct ct_migrate_selection *sel, const struct ct_access_region *reg, size_t n, bool hot);
void ct_migrate_selection_free(struct ct_migrate_selection *sel);

/* move every task's pages; each task's outcome is in its result (err set
 * when nothing could be done: EPERM no permission or refused, ESRCH gone
 * before anything happened, ESTALE its PID is another process's). Each
 * process is checked to be the one chosen before every batch; one that goes
 * away is reported, never followed. 0, or -ENOMEM. */
int ct_migrate_run(struct ct_sysfs *s, const struct ct_migrate_opts *o, struct ct_migrate_task *t, size_t n,
		   struct ct_migrate_totals *tot);

/* libnuma loaded and set up (cxltier loads it on first use): before the
 * processes are chosen, whose pidfds may take every file descriptor left */
void ct_migrate_setup(void);

const char *ct_migrate_err_name(enum ct_mig_err e);	/* "EFAULT", ... "other" */

#endif
