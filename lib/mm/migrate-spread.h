/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/mm/ (unit tests in test/ may include it): other folders
 * and the CLI go through migrate.h */
/*
 * migrate-spread.h - a process's pages spread over nodes in proportion to
 * their weights (as MPOL_WEIGHTED_INTERLEAVE would have placed them), moving
 * as few pages as reaches that split. Pure: pages per node and weights in,
 * the target per node and what each node gives or takes out.
 *
 * The target of a node is its weight's share of all the process's pages,
 * rounded by largest remainder so that the targets add up to the total
 * exactly (ties to the larger weight, then the lower node). A node with no
 * weight (outside the spread, or weight 0) has target 0: all of its pages
 * move. A node of the spread whose pages are within the tolerance of its
 * target (|have - target| <= tolerance % of all pages) is left alone;
 * every other node reaches its target exactly: a surplus node gives its
 * surplus, a deficit node takes its deficit. Only surplus nodes give and
 * only deficit nodes take, so the pages moved are the fewest that reach
 * those targets. When what the nodes outside the tolerance give and take
 * does not balance, nodes inside it make up the difference towards their
 * own target and never past it, the largest difference first. Pages on
 * nodes outside the spread always move, all of them: they count against
 * the deficits before any node inside the tolerance is asked to give. With
 * a tolerance of 0 the pages moved are exactly the sum of the surpluses,
 * which is the least any placement reaching the targets can move.
 */
#ifndef CXLTIER_MIGRATE_SPREAD_H
#define CXLTIER_MIGRATE_SPREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mm/migrate-plan.h"
#include "mm/numamaps.h"

#define CT_SPREAD_MAX_NODES 64

struct ct_migrate_spread {
	uint64_t total;				/* base pages of the process, on every node */
	uint64_t target[CT_SPREAD_MAX_NODES];	/* the split to reach */
	uint64_t give[CT_SPREAD_MAX_NODES];	/* planned: pages to leave each node */
	uint64_t take[CT_SPREAD_MAX_NODES];	/* planned: pages to arrive on each node */
	uint64_t moves;				/* the sum of give (and of take) */
	/* what is still to be handed out as the run goes (ct_migrate_spread_pick) */
	uint64_t give_left[CT_SPREAD_MAX_NODES], take_left[CT_SPREAD_MAX_NODES];
	uint64_t left;				/* the sum of give_left */
	int taker[CT_SPREAD_MAX_NODES];		/* the nodes that take, in order (a pick looks at these) */
	int ntakers;
};

/* have[n]: the process's base pages on node n; weight[n]: node n's weight
 * (0: not in the spread); tolerance_pct in [0, 100]. 0, or -EINVAL when no
 * node has a weight or the tolerance is out of range. */
int ct_migrate_spread_plan(struct ct_migrate_spread *sp, const uint64_t *have, const unsigned *weight, double tolerance_pct);

/* does node still have pages to give? */
bool ct_migrate_spread_gives(const struct ct_migrate_spread *sp, int node);

/* an entry of `pages` base pages on node from: the node it goes to (the
 * deficit node with the most still to take), its pages taken from what from
 * gives and the target takes; -1 when it stays (from has given enough, or no
 * node takes any more). An entry larger than one page (a huge page) goes
 * when at least half of it is still wanted, so the split lands within half
 * an entry of its target. */
int ct_migrate_spread_pick(struct ct_migrate_spread *sp, int from, uint64_t pages);

/* how much of a process's /proc/PID/maps text the spread needs: its
 * mappings in address order (the order its pages are handed out in) up to
 * the one where the pages of every giving node so far (vma[0..nvma), its
 * numa_maps, page_size bytes a base page) cover what the node gives, with
 * a margin of a sixteenth and two huge pages for pages gone meanwhile and
 * huge pages that do not fit; the whole text when they never do. The
 * mappings after it are never planned: their pages would not be chosen,
 * and asking pagemap about them costs a page-table walk. */
size_t ct_migrate_spread_maps_needed(const struct ct_migrate_spread *sp, const char *maps, const struct ct_numa_vma *vma,
				     size_t nvma, uint64_t page_size);

/* a plan of a spread whose one giving node is giver cut short, in place:
 * its ranges wholly on that node (direct) in address order up to where
 * they hold what it gives, with the same margin, the last of them ending
 * at the next huge-page boundary (2 MiB, or the range's page size) past
 * that point. A range asked page by page counts for nothing (how many of
 * its pages are on the node is not known): it is kept. */
void ct_migrate_spread_trim(const struct ct_migrate_spread *sp, int giver, struct ct_migrate_plan *p, uint64_t page_size);

#endif
