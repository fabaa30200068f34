/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * damon.h - which parts of a process were accessed during an interval, from
 * DAMON's virtual-address monitoring (sysfs, /sys/kernel/mm/damon/admin) with
 * a "stat" scheme whose tried regions carry each region's access count.
 * cxltier uses DAMON only when nobody else does and never touches a kdamond
 * it did not create. What it sets up is owned (see damon-owner.h): torn down
 * on every way out that can run code, and recognised and removed by the next
 * run when a killed cxltier left it. The kernel's DAMON_STAT (Linux 6.17+,
 * on by default in some kernels) runs a kdamond outside the sysfs interface
 * that holds DAMON exclusively: cxltier pauses it for the interval and turns
 * it on again (also after a crash, from the record).
 */
#ifndef CXLTIER_DAMON_H
#define CXLTIER_DAMON_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/sysfs.h"

struct ct_access_region {
	uint64_t start, end;		/* virtual addresses */
	unsigned nr_accesses;		/* the most of the last aggregation intervals sampled (0..aggr/sample) */
	unsigned age;			/* aggregation intervals it has kept that count */
};

struct ct_damon_run {
	int stale_owner;		/* pid of a killed cxltier whose setup was removed first; 0 none */
	bool stat_paused;		/* DAMON_STAT was paused for the interval */
};

/* 0; -EOPNOTSUPP (no DAMON sysfs); -EBUSY (DAMON in use by someone else);
 * -EWOULDBLOCK (another cxltier kept DAMON longer than the wait) */
int ct_damon_sample(struct ct_sysfs *s, int pid, unsigned interval_ms, volatile sig_atomic_t *stop,
		    struct ct_access_region **out, size_t *n, struct ct_damon_run *run);

/* a and b (each sorted here by start) made one list in *out (to free): every
 * address either covers, accessed as much as the most either saw there, aged
 * as the younger. 0 or -ENOMEM. */
int ct_access_regions_merge(struct ct_access_region *a, size_t na, struct ct_access_region *b, size_t nb,
			    struct ct_access_region **out, size_t *nout);

#endif
