// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <numaif.h>
#include <stdlib.h>
#include <unistd.h>
#include "mm/migrate-batch.h"

int ct_migrate_batch_init(struct ct_migrate_batch *b, ct_move_pages_fn fn, int pid, int to, size_t cap)
{
	*b = (struct ct_migrate_batch){ .move_pages = fn, .pid = pid, .to = to, .retries = 3, .retry_us = 10000,
				.rounds = 8, .cap = cap };
	b->sub_pages = malloc(cap * sizeof(*b->sub_pages));
	b->sub_nodes = malloc(cap * sizeof(*b->sub_nodes));
	b->sub_status = malloc(cap * sizeof(*b->sub_status));
	b->sub_idx = malloc(cap * sizeof(*b->sub_idx));
	b->rnd_pages = malloc(cap * sizeof(*b->rnd_pages));
	b->rnd_status = malloc(cap * sizeof(*b->rnd_status));
	b->rnd_idx = malloc(cap * sizeof(*b->rnd_idx));
	b->untried = malloc(cap * sizeof(*b->untried));
	if (!b->sub_pages || !b->sub_nodes || !b->sub_status || !b->sub_idx || !b->rnd_pages || !b->rnd_status ||
	    !b->rnd_idx || !b->untried) {
		ct_migrate_batch_free(b);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cap; i++)
		b->sub_nodes[i] = to;
	return 0;
}

void ct_migrate_batch_free(struct ct_migrate_batch *b)
{
	free(b->sub_pages);
	free(b->sub_nodes);
	free(b->sub_status);
	free(b->sub_idx);
	free(b->rnd_pages);
	free(b->rnd_status);
	free(b->rnd_idx);
	free(b->untried);
	b->sub_pages = b->rnd_pages = NULL;
	b->sub_nodes = b->sub_status = b->rnd_status = NULL;
	b->sub_idx = b->rnd_idx = b->untried = NULL;
}

void ct_migrate_batch_target(struct ct_migrate_batch *b, int to)
{
	if (b->to == to)
		return;
	b->to = to;
	for (size_t i = 0; i < b->cap; i++)
		b->sub_nodes[i] = to;
}

/* one call with the status pre-filled, so that what stays UNSET was not written */
static long call(struct ct_migrate_batch *b, unsigned long n, void **pages, const int *nodes, int *status, int flags)
{
	for (unsigned long i = 0; i < n; i++)
		status[i] = CT_STATUS_UNSET;
	errno = 0;
	return b->move_pages(b->pid, n, pages, nodes, status, flags);
}

static int call_error(int e)
{
	return e == ESRCH || e == EPERM ? -e : -(e ? e : EIO);
}

int ct_migrate_batch_query(struct ct_migrate_batch *b, void **pages, int *status, unsigned long n)
{
	return call(b, n, pages, NULL, status, 0) < 0 ? call_error(errno) : 0;
}

static bool busy(int st)
{
	return st == -EBUSY || st == -EAGAIN;
}

/* ask again where the entries that are UNSET (and, with also_busy, busy;
 * and those whose status is also_err, when it is not 0) are */
static int requery(struct ct_migrate_batch *b, void **pages, int *status, unsigned long n, bool also_busy, int also_err)
{
	unsigned long k = 0;
	int rc;

	for (unsigned long i = 0; i < n; i++)
		if (status[i] == CT_STATUS_UNSET || (also_busy && busy(status[i])) || (also_err && status[i] == also_err)) {
			b->sub_pages[k] = pages[i];
			b->sub_idx[k++] = i;
		}
	if (!k)
		return 0;
	rc = ct_migrate_batch_query(b, b->sub_pages, b->sub_status, k);
	if (rc == -ESRCH)
		return rc;
	if (rc)
		return 0;	/* keep what we knew */
	for (unsigned long j = 0; j < k; j++) {
		int st = b->sub_status[j], *dst = &status[b->sub_idx[j]];
		if (st == CT_STATUS_UNSET)
			continue;
		/* a busy page (or one the failed call was stamped on) still off
		 * the target keeps that status: it is retried, or counted by it */
		if (*dst == CT_STATUS_UNSET || st == b->to || st < 0)
			*dst = st;
	}
	return 0;
}

/* after a call that returned a count: the entries the kernel never attempted.
 * It stops at the first sub-batch with a folio that did not migrate: the
 * sub-batch's entries stay unwritten, the entry that ended the sub-batch is
 * written, and every entry after it stays unwritten (do_pages_move: "err +=
 * nr_pages - i"). Those after it go to untried[] (indexes into status). */
static unsigned long find_untried(const int *status, unsigned long n, unsigned long *untried, unsigned long *ended)
{
	unsigned long i = 0, k = 0;

	while (i < n && status[i] != CT_STATUS_UNSET)
		i++;
	while (i < n && status[i] == CT_STATUS_UNSET)
		i++;	/* the sub-batch that failed: attempted */
	*ended = i;
	for (i++; i < n; i++)
		if (status[i] == CT_STATUS_UNSET)
			untried[k++] = i;
	return k;
}

/* the statuses of a call made certain: after a count, the unwritten ones
 * are asked again; after a failed call (ENOMEM when the target filled up
 * partway, ENODEV) too, as the kernel moved what it had unmapped before it
 * gave up (migrate_pages_batch: "goto move", then the errno): what is on
 * the target moved, what is elsewhere gets the call's errno */
static int settle(struct ct_migrate_batch *b, void **pages, int *status, unsigned long n, long ret, int e)
{
	int call_err = 0;

	if (ret < 0) {
		if (e == ESRCH || e == EPERM)
			return -e;
		call_err = call_error(e);
		for (unsigned long i = 0; i < n; i++)
			if (status[i] == CT_STATUS_UNSET)
				status[i] = call_err;
	}
	return requery(b, pages, status, n, false, call_err);
}

/* the untried entries of the last call that are still off the target, for
 * the next round. When the call ended at a busy entry (a tail of a huge
 * folio it had queued, which then failed), the entries in the same 2 MiB
 * come last: most are that folio's tails, which would queue it again and
 * end the next round at the same place (a THP is naturally aligned) */
static unsigned long next_round(struct ct_migrate_batch *b, void **pages, const int *status, unsigned long k, void *ended_at,
				bool ended_busy)
{
	uintptr_t block = (uintptr_t)ended_at & ~(uintptr_t)((2u << 20) - 1);
	unsigned long m = 0;

	for (int pass = 0; pass < 2; pass++)
		for (unsigned long j = 0; j < k; j++) {
			unsigned long i = b->untried[j];
			bool same = ended_busy && ((uintptr_t)pages[i] & ~(uintptr_t)((2u << 20) - 1)) == block;
			if (status[i] < 0 || status[i] == b->to || same != (pass == 1))
				continue;
			b->rnd_pages[m] = pages[i];
			b->rnd_idx[m++] = i;
		}
	return m;
}

/* entries never attempted after a count and still off the target: moved
 * again, in up to b->rounds calls, each starting past where the last one
 * stopped (one folio that cannot move, pinned by O_DIRECT or RDMA, would
 * otherwise leave the rest of the batch where it was) */
static int more_rounds(struct ct_migrate_batch *b, void **pages, int *status, unsigned long n, unsigned long k,
		       void *ended_at, bool ended_busy)
{
	for (unsigned round = 0; k && round < b->rounds; round++) {
		unsigned long m, end;
		long ret;
		int rc, e;
		if (b->target_full && b->target_full(b->full_arg))
			break;	/* no room: the allocations would fail again */
		if (!(m = next_round(b, pages, status, k, ended_at, ended_busy)))
			break;
		ret = call(b, m, b->rnd_pages, b->sub_nodes, b->rnd_status, MPOL_MF_MOVE);
		e = errno;
		k = 0;
		if (ret > 0 && (k = find_untried(b->rnd_status, m, b->untried, &end))) {
			ended_at = b->rnd_pages[end];
			ended_busy = busy(b->rnd_status[end]);
		}
		for (unsigned long j = 0; j < k; j++)
			b->untried[j] = b->rnd_idx[b->untried[j]];
		for (unsigned long j = 0; j < m; j++)
			status[b->rnd_idx[j]] = b->rnd_status[j];	/* unwritten ones: UNSET, asked again */
		if ((rc = settle(b, pages, status, n, ret, e)))
			return rc;
		if (ret < 0)
			break;
	}
	return 0;
}

int ct_migrate_batch_move(struct ct_migrate_batch *b, void **pages, int *status, unsigned long n)
{
	long ret = call(b, n, pages, b->sub_nodes, status, MPOL_MF_MOVE);
	int rc, e = errno;
	unsigned long untried = 0, end = 0;

	if (ret > 0)
		untried = find_untried(status, n, b->untried, &end);
	if ((rc = settle(b, pages, status, n, ret, e)))
		return rc;
	if (untried && (rc = more_rounds(b, pages, status, n, untried, pages[end], busy(status[end]))))
		return rc;
	for (unsigned attempt = 0;; attempt++) {
		unsigned long k = 0;
		/* where are the busy ones now? on the target: moved with their folio */
		if ((rc = requery(b, pages, status, n, true, 0)))
			return rc;
		for (unsigned long i = 0; i < n; i++)
			if (busy(status[i])) {
				b->sub_pages[k] = pages[i];
				b->sub_idx[k++] = i;
			}
		if (!k || attempt >= b->retries)
			break;
		usleep(b->retry_us);
		ret = call(b, k, b->sub_pages, b->sub_nodes, b->sub_status, MPOL_MF_MOVE);
		if (ret < 0 && errno == ESRCH)
			return -ESRCH;
		for (unsigned long j = 0; j < k; j++)
			if (b->sub_status[j] != CT_STATUS_UNSET)
				status[b->sub_idx[j]] = b->sub_status[j];
		/* unwritten ones stay busy and are asked again */
	}
	return 0;
}
