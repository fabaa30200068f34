/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/mm/ (unit tests in test/ may include it): other folders
 * and the CLI go through migrate.h */
/*
 * migrate-batch.h - one move_pages(2) batch with every page's status made
 * certain. After a positive return the kernel leaves the status of the
 * failed batch and of every entry after it unwritten: those are asked again
 * (nodes == NULL); so are those of a call that failed as a whole (ENOMEM
 * when the target filled up partway), as it moved some before it gave up.
 * Entries the kernel never attempted (it stops at the first sub-batch with
 * a folio that does not migrate) and that are still off the target are
 * moved again, in a few more calls, unless the target is nearly full.
 * A page busy for a moment (EBUSY: isolated elsewhere, or
 * the tail of a huge page whose head just queued the whole folio) is asked
 * again, counts as moved when it is on the target already, and is retried a
 * few times otherwise. No status is ever read that the kernel did not write.
 */
#ifndef CXLTIER_MIGRATE_BATCH_H
#define CXLTIER_MIGRATE_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* a status the kernel never wrote (pre-filled before every call) */
#define CT_STATUS_UNSET INT32_MIN

/* move_pages(2) as libnuma's numa_move_pages calls it; tests pass their own */
typedef long (*ct_move_pages_fn)(int pid, unsigned long count, void **pages, const int *nodes, int *status,
				 int flags);

struct ct_migrate_batch {
	ct_move_pages_fn move_pages;
	int pid, to;
	unsigned retries;		/* EBUSY rounds after the first try (3) */
	unsigned retry_us;		/* pause before each retry (10 ms) */
	unsigned rounds;		/* calls for entries never attempted (8) */
	/* is the target nearly full? (NULL: never) no round then */
	bool (*target_full)(void *arg);
	void *full_arg;
	size_t cap;			/* scratch for subsets of a batch */
	void **sub_pages, **rnd_pages;
	int *sub_nodes, *sub_status, *rnd_status;
	unsigned long *sub_idx, *rnd_idx, *untried;
};

int ct_migrate_batch_init(struct ct_migrate_batch *b, ct_move_pages_fn fn, int pid, int to, size_t cap);
void ct_migrate_batch_free(struct ct_migrate_batch *b);
/* the node the next moves go to (a spread moves each batch's pages to
 * several nodes, one call per node) */
void ct_migrate_batch_target(struct ct_migrate_batch *b, int to);

/* where pages[0..n) are: status[i] = node, -ENOENT, -EFAULT (or UNSET when
 * the kernel said nothing); 0, -ESRCH (the process is gone), -EPERM, -errno */
int ct_migrate_batch_query(struct ct_migrate_batch *b, void **pages, int *status, unsigned long n);

/* move pages[0..n) (n <= cap) to b->to. Each status[i] ends as the page's
 * node (b->to: moved; another: not moved, the kernel gave no reason) or a
 * -errno (the page's, or the call's when the whole call failed and the page
 * is not on the target), never UNSET
 * unless the kernel could not be asked at all. 0, -ESRCH or -EPERM. */
int ct_migrate_batch_move(struct ct_migrate_batch *b, void **pages, int *status, unsigned long n);

#endif
