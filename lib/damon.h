/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * damon.h - which parts of a process were accessed during an interval, from
 * DAMON's virtual-address monitoring (sysfs, /sys/kernel/mm/damon/admin) with
 * a "stat" scheme whose tried regions carry each region's access count.
 * cxltier uses DAMON only when nobody else does: it never touches a
 * kdamond it did not create.
 */
#ifndef CXLTIER_DAMON_H
#define CXLTIER_DAMON_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "sysfs.h"

struct ct_access_region {
	uint64_t start, end;		/* virtual addresses */
	unsigned nr_accesses;		/* in the last aggregation interval (0..aggr/sample) */
	unsigned age;			/* aggregation intervals it has kept that count */
};

/* 0; -EOPNOTSUPP (no DAMON sysfs); -EBUSY (DAMON in use by someone else) */
int ct_damon_sample(struct ct_sysfs *s, int pid, unsigned interval_ms, volatile sig_atomic_t *stop,
		    struct ct_access_region **out, size_t *n);

#endif
