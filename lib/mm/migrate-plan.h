/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/mm/ (unit tests in test/ may include it): other folders
 * and the CLI go through migrate.h */
/*
 * migrate-plan.h - which address ranges of a process to hand to move_pages(2)
 * and how: from /proc/PID/maps (where the mappings are) and numa_maps (how
 * many of each mapping's pages are on which node, and its page size).
 * A mapping with nothing on a source node is skipped. One whose every page is
 * resident on a source node is moved without asking first (direct): that is
 * most of a process's memory, and asking costs a page-table walk per page.
 * The others are asked where each page is, and only those on a source node
 * are moved, so that the kernel's batches stay long (each page it skips ends
 * its batch). hugetlb mappings go one huge page per entry, and so do
 * transparent huge pages where /proc/PID/pagemap shows them (the kernel
 * moves a THP whole: one entry per THP keeps --max-bytes in whole folios and
 * counts each at its size); where pagemap tells which pages are present,
 * only those are planned (a sparse mapping is not asked about page by page
 * over its whole virtual size). Batches are cut
 * at addresses aligned to their length, so no huge page is split between two
 * batches (two jobs).
 */
#ifndef CXLTIER_MIGRATE_PLAN_H
#define CXLTIER_MIGRATE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/nodeset.h"
#include "mm/numamaps.h"
#include "mm/pagemap.h"

struct ct_vrange {
	uint64_t start, end;
};

/* only some pages (--hot/--cold): these ranges; on with none: nothing */
struct ct_migrate_selection {
	bool on;
	struct ct_vrange *range;
	size_t n;
};

struct ct_migrate_range {
	uint64_t start, end;		/* [start, end) */
	uint64_t step;			/* bytes per entry: the mapping's page size */
	bool direct;			/* every page resident on a source node: no query */
	bool thp;			/* one entry per PMD-mapped transparent huge page */
};

struct ct_migrate_plan {
	struct ct_migrate_range *r;
	size_t n;
	uint64_t bytes_direct, bytes_query;	/* address space of each kind */
	size_t cap;
};

/* is node a source: not the target, and in from (empty: every node) */
bool ct_migrate_plan_is_source(const struct ct_nodeset *from, int to, int node);

/* maps: the /proc/PID/maps text; vma: its numa_maps (address order); pure.
 * 0 or -ENOMEM. */
int ct_migrate_plan_build(const char *maps, const struct ct_numa_vma *vma, size_t nvma, const struct ct_migrate_selection *sel,
		      const struct ct_nodeset *from, int to, uint64_t page_size, struct ct_migrate_plan *p);
/* r (a range of base pages) narrowed to its present runs pr[0..n) (address
 * order, from ct_pagemap_present), appended to p: what is not present holds
 * nothing to move and is never asked about page by page. A PMD-mapped run
 * (a transparent huge page, which the kernel moves whole when any of its
 * addresses is given) becomes one entry per huge page of huge_size bytes,
 * the whole huge page even where r cuts it (a part chosen is the whole
 * chosen), never twice. 0 or -ENOMEM. */
int ct_migrate_plan_add_present(struct ct_migrate_plan *p, const struct ct_migrate_range *r, const struct ct_present *pr, size_t n,
			    uint64_t huge_size);
/* the plan cut into batches of at most max_entries entries, each inside one
 * aligned block of max_entries x step bytes: *out malloc'd, 0 or -ENOMEM */
int ct_migrate_plan_split(const struct ct_migrate_plan *p, unsigned long max_entries, struct ct_migrate_range **out, size_t *n);
void ct_migrate_plan_free(struct ct_migrate_plan *p);

#endif
