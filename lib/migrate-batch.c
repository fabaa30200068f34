// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <numaif.h>
#include <stdlib.h>
#include <unistd.h>
#include "migrate-batch.h"

int ct_batch_init(struct ct_batch *b, ct_move_pages_fn fn, int pid, int to, size_t cap)
{
	*b = (struct ct_batch){ .move_pages = fn, .pid = pid, .to = to, .retries = 3, .retry_us = 10000, .cap = cap };
	b->sub_pages = malloc(cap * sizeof(*b->sub_pages));
	b->sub_nodes = malloc(cap * sizeof(*b->sub_nodes));
	b->sub_status = malloc(cap * sizeof(*b->sub_status));
	b->sub_idx = malloc(cap * sizeof(*b->sub_idx));
	if (!b->sub_pages || !b->sub_nodes || !b->sub_status || !b->sub_idx) {
		ct_batch_free(b);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cap; i++)
		b->sub_nodes[i] = to;
	return 0;
}

void ct_batch_free(struct ct_batch *b)
{
	free(b->sub_pages);
	free(b->sub_nodes);
	free(b->sub_status);
	free(b->sub_idx);
	b->sub_pages = NULL;
	b->sub_nodes = b->sub_status = NULL;
	b->sub_idx = NULL;
}

/* one call with the status pre-filled, so that what stays UNSET was not written */
static long call(struct ct_batch *b, unsigned long n, void **pages, const int *nodes, int *status, int flags)
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

int ct_batch_query(struct ct_batch *b, void **pages, int *status, unsigned long n)
{
	return call(b, n, pages, NULL, status, 0) < 0 ? call_error(errno) : 0;
}

static bool busy(int st)
{
	return st == -EBUSY || st == -EAGAIN;
}

/* ask again where the entries that are UNSET (and, with also_busy, busy) are */
static int requery(struct ct_batch *b, void **pages, int *status, unsigned long n, bool also_busy)
{
	unsigned long k = 0;
	int rc;

	for (unsigned long i = 0; i < n; i++)
		if (status[i] == CT_STATUS_UNSET || (also_busy && busy(status[i]))) {
			b->sub_pages[k] = pages[i];
			b->sub_idx[k++] = i;
		}
	if (!k)
		return 0;
	rc = ct_batch_query(b, b->sub_pages, b->sub_status, k);
	if (rc == -ESRCH)
		return rc;
	if (rc)
		return 0;	/* keep what we knew */
	for (unsigned long j = 0; j < k; j++) {
		int st = b->sub_status[j], *dst = &status[b->sub_idx[j]];
		if (st == CT_STATUS_UNSET)
			continue;
		/* a busy page still off the target stays busy: it is retried */
		if (*dst == CT_STATUS_UNSET || st == b->to || st < 0)
			*dst = st;
	}
	return 0;
}

int ct_batch_move(struct ct_batch *b, void **pages, int *status, unsigned long n)
{
	long ret = call(b, n, pages, b->sub_nodes, status, MPOL_MF_MOVE);
	int rc;

	if (ret < 0) {
		int e = errno;
		if (e == ESRCH || e == EPERM)
			return -e;
		/* the call failed as a whole: the pages it did not reach, by its errno */
		for (unsigned long i = 0; i < n; i++)
			if (status[i] == CT_STATUS_UNSET)
				status[i] = call_error(e);
	}
	if ((rc = requery(b, pages, status, n, false)))
		return rc;
	for (unsigned attempt = 0;; attempt++) {
		unsigned long k = 0;
		/* where are the busy ones now? on the target: moved with their folio */
		if ((rc = requery(b, pages, status, n, true)))
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
