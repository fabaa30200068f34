/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/mm/ (unit tests in test/ may include it): other folders
 * and the CLI go through migrate.h */
/*
 * pagemap.h - which pages of a process's address range are present, and
 * which of those are mapped by a PMD (a transparent huge page, which the
 * kernel migrates whole when any of its addresses is given), from one
 * PAGEMAP_SCAN ioctl on /proc/PID/pagemap (Linux 6.7+) per call: the page
 * tables are walked, empty ones skipped, so a sparse reservation of
 * terabytes costs what its present pages cost.
 */
#ifndef CXLTIER_PAGEMAP_H
#define CXLTIER_PAGEMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/sysfs.h"

struct ct_present {
	uint64_t start, end;		/* [start, end), page-aligned */
	bool huge;			/* PMD-mapped (a THP, or hugetlb) */
};

/* /proc/PID/pagemap opened for the scans: an fd, or -errno (no message) */
int ct_pagemap_open(struct ct_sysfs *s, int pid);

/* the present runs of [start, end), in address order, appended to *out
 * (malloc'd, *n entries, *cap its room). 0; -EOPNOTSUPP (no PAGEMAP_SCAN:
 * nothing is known, *out as it was); -ENOMEM; another -errno (ESRCH: the
 * process is gone). */
int ct_pagemap_present(int fd, uint64_t start, uint64_t end, struct ct_present **out, size_t *n, size_t *cap);

#endif
