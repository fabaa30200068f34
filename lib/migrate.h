/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * migrate.h - one-shot page migration of a process to a node: the whole
 * process with migrate_pages(2), or page by page with move_pages(2) in
 * batches (a byte limit, a rate limit, a dry run), through libnuma. Every
 * page that cannot move is counted by errno; nothing here is fatal for the
 * process's other pages, or for other processes.
 */
#ifndef CXLTIER_MIGRATE_H
#define CXLTIER_MIGRATE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "nodelist.h"
#include "sysfs.h"

#define CT_MIG_MAX_NODES 64

enum ct_mig_err { CT_MIG_EFAULT, CT_MIG_ENOENT, CT_MIG_EACCES, CT_MIG_EBUSY, CT_MIG_ENOMEM, CT_MIG_OTHER, CT_MIG_NERR };

struct ct_vrange {
	uint64_t start, end;
};

struct ct_migrate_opts {
	int to;				/* target node */
	struct ct_nodeset from;		/* source nodes; empty: every node but the target */
	uint64_t max_bytes;		/* 0: no limit */
	double rate_mbps;		/* 0: no limit */
	bool dry_run;
	volatile sig_atomic_t *stop;
	const struct ct_vrange *only;	/* only these address ranges (hot or cold pages) */
	size_t nonly;
};

struct ct_migrate_result {
	int pid;
	char comm[32];
	const char *mechanism;		/* "migrate_pages" or "move_pages" */
	uint64_t before[CT_MIG_MAX_NODES], after[CT_MIG_MAX_NODES];	/* bytes, from numa_maps */
	uint64_t pages_moved, pages_to_move, pages_failed;
	uint64_t failed_by[CT_MIG_NERR];
	uint64_t bytes_moved;
	double seconds;
	bool exited;			/* the process went away during the run */
};

const char *ct_mig_err_name(enum ct_mig_err e);	/* "EFAULT", ... "other" */
/* 0 (see the result for what moved), or -errno with a message (EPERM: no
 * permission; ESRCH: no such process before anything happened) */
int ct_migrate_process(struct ct_sysfs *s, int pid, const struct ct_migrate_opts *o, struct ct_migrate_result *r);
/* bytes per node of a process, from /proc/PID/numa_maps */
int ct_process_node_bytes(struct ct_sysfs *s, int pid, uint64_t bytes[CT_MIG_MAX_NODES]);

#endif
