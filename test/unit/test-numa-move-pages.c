// SPDX-License-Identifier: GPL-2.0-only
/* One move_pages(2) batch against a model of the kernel's do_pages_move():
 * huge folios whose tails report EBUSY, positive returns that leave status
 * entries unwritten, pages busy for a while, a process that goes away. */
#include <errno.h>
#include <numaif.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include "tap.h"
#include "mm/migrate-batch.h"

/* the model: NPAGES addresses (page i at address (i + 1) * 4096), each in a
 * folio; a folio lives on one node; the target node has room for `room` pages */
#define NPAGES 32
static int folio_of[NPAGES], folio_node[NPAGES], folio_size[NPAGES];
static bool present[NPAGES], shared[NPAGES], isolated[NPAGES];
static bool pinned[NPAGES];	/* a folio that never migrates (O_DIRECT, RDMA) */
static bool enomem;		/* no room: the call fails with ENOMEM (migrate_pages_batch) */
static int busy_for[NPAGES];	/* calls during which the folio is isolated elsewhere */
static int room, calls, gone_after = -1;
static int ilist[NPAGES], nlist;

static void model(int nfolios, const int *sizes)
{
	int p = 0;

	memset(busy_for, 0, sizeof(busy_for));
	memset(shared, 0, sizeof(shared));
	memset(pinned, 0, sizeof(pinned));
	enomem = false;
	for (int f = 0; f < nfolios; f++) {
		folio_node[f] = 0;
		folio_size[f] = sizes[f];
		for (int k = 0; k < sizes[f]; k++, p++) {
			folio_of[p] = f;
			present[p] = true;
		}
	}
	for (; p < NPAGES; p++)
		present[p] = false;
	room = NPAGES;
	calls = 0;
	gone_after = -1;
}

static int page_index(void *addr)
{
	long i = (long)((uintptr_t)addr / 4096) - 1;

	return i >= 0 && i < NPAGES ? (int)i : -1;
}

/* migrate the isolated folios: 0, or the number that failed plus the rest;
 * with enomem, a folio that finds no room fails the call (-ENOMEM) after
 * the others moved, and no status is written */
static long flush(int node, int *status, unsigned long start, unsigned long i, unsigned long n)
{
	long failed = 0;
	bool no_room = false;

	if (!nlist)
		return 0;
	for (int k = 0; k < nlist; k++) {
		int f = ilist[k];
		isolated[f] = false;
		if (!pinned[f] && room >= folio_size[f]) {
			room -= folio_size[f];
			folio_node[f] = node;
		} else {
			no_room |= !pinned[f];
			failed++;
		}
	}
	nlist = 0;
	if (no_room && enomem)
		return -ENOMEM;
	if (failed)
		return failed + (long)(n - i);	/* status of [start, n) left unwritten */
	for (unsigned long k = start; k < i; k++)
		status[k] = node;
	return 0;
}

static long fake_move_pages(int pid, unsigned long n, void **pages, const int *nodes, int *status, int flags)
{
	unsigned long start = 0;
	int cur = -1;
	long r;

	(void)pid;
	(void)flags;
	if (gone_after >= 0 && calls++ >= gone_after) {
		errno = ESRCH;
		return -1;
	}
	for (int f = 0; f < NPAGES; f++)
		if (busy_for[f] > 0)
			busy_for[f]--;
	if (!nodes) {
		for (unsigned long i = 0; i < n; i++) {
			int p = page_index(pages[i]);
			status[i] = p < 0 ? -EFAULT : !present[p] ? -ENOENT : folio_node[folio_of[p]];
		}
		return 0;
	}
	for (unsigned long i = 0; i < n; i++) {
		int p = page_index(pages[i]), f, err;
		if (cur < 0) {
			cur = nodes[i];
			start = i;
		}
		f = p >= 0 ? folio_of[p] : -1;
		if (p < 0)
			err = -EFAULT;
		else if (!present[p])
			err = -ENOENT;
		else if (folio_node[f] == cur)
			err = 0;
		else if (shared[p])
			err = -EACCES;
		else if (isolated[f] || busy_for[f])
			err = -EBUSY;
		else {
			isolated[f] = true;
			ilist[nlist++] = f;
			continue;
		}
		status[i] = err ? err : cur;
		if ((r = flush(cur, status, start, i, n)))
			return r > 0 ? r - 1 : (errno = (int)-r, -1);
		cur = -1;
	}
	r = cur < 0 ? 0 : flush(cur, status, start, n, n);
	return r < 0 ? (errno = (int)-r, -1) : r;
}

static bool always_full(void *arg)
{
	(void)arg;
	return true;
}

static void *addr(int i)
{
	return (void *)(uintptr_t)((i + 1) * 4096);
}

static int count(const int *status, int n, int what)
{
	int c = 0;

	for (int i = 0; i < n; i++)
		c += status[i] == what;
	return c;
}

int main(void)
{
	struct ct_migrate_batch b;
	void *pages[NPAGES];
	int status[NPAGES];

	is_int(ct_migrate_batch_init(&b, fake_move_pages, 42, 1, NPAGES), 0, "batch scratch");
	b.retry_us = 1;
	for (int i = 0; i < NPAGES; i++)
		pages[i] = addr(i);

	/* base pages: all move */
	model(8, (int[]){ 1, 1, 1, 1, 1, 1, 1, 1 });
	is_int(ct_migrate_batch_move(&b, pages, status, 8), 0, "8 base pages");
	is_int(count(status, 8, 1), 8, "all 8 on the target");

	/* a huge folio of 8 pages: its first tail reports EBUSY (the head queued
	 * the folio); the rest find it on the target. All count as moved. */
	model(2, (int[]){ 8, 4 });
	is_int(ct_migrate_batch_move(&b, pages, status, 12), 0, "a huge folio and a smaller one");
	is_int(count(status, 12, 1), 12, "every page of both folios counts as moved");
	is_int(count(status, 12, -EBUSY), 0, "no tail left as EBUSY");

	/* room for 2 of 4 folios: a positive return leaves the status unwritten;
	 * it is asked again: 2 on the target, 2 on their node, nothing unset */
	model(4, (int[]){ 1, 1, 1, 1 });
	room = 2;
	is_int(ct_migrate_batch_move(&b, pages, status, 4), 0, "a batch the target has no room for");
	is_int(count(status, 4, 1), 2, "two moved");
	is_int(count(status, 4, 0), 2, "two still on node 0 (no reason given)");
	is_int(count(status, 4, CT_STATUS_UNSET), 0, "no status left unwritten");

	/* a busy page whose retry fails with a positive return (no room): its
	 * status was never written by the retry; it must not count as moved */
	model(3, (int[]){ 1, 1, 1 });
	busy_for[1] = 2;
	room = 2;
	is_int(ct_migrate_batch_move(&b, pages, status, 3), 0, "a busy page, then no room");
	is_int(count(status, 3, 1), 2, "the two that found room moved");
	ok(status[1] != 1 && status[1] != CT_STATUS_UNSET, "the busy page is not counted as moved (%d)", status[1]);

	/* busy for one call, then free: the retry moves it */
	model(3, (int[]){ 1, 1, 1 });
	busy_for[2] = 2;
	is_int(ct_migrate_batch_move(&b, pages, status, 3), 0, "a page busy for a moment");
	is_int(count(status, 3, 1), 3, "the retry moved it");

	/* busy for longer than the retries: counted EBUSY */
	model(2, (int[]){ 1, 1 });
	busy_for[0] = 100;
	is_int(ct_migrate_batch_move(&b, pages, status, 2), 0, "a page busy for good");
	is_int(status[0], -EBUSY, "left as EBUSY");
	is_int(status[1], 1, "the other moved");

	/* shared and absent pages keep their reasons */
	model(3, (int[]){ 1, 1, 1 });
	shared[0] = true;
	present[2] = false;
	is_int(ct_migrate_batch_move(&b, pages, status, 3), 0, "a shared page and an absent one");
	is_int(status[0], -EACCES, "shared: EACCES");
	is_int(status[1], 1, "the private one moved");
	is_int(status[2], -ENOENT, "absent: ENOENT");

	/* the process goes away during the retries */
	model(2, (int[]){ 1, 1 });
	busy_for[0] = 100;
	gone_after = 2;
	is_int(ct_migrate_batch_move(&b, pages, status, 2), -ESRCH, "a process that exits during the retries: ESRCH");

	/* the target fills up partway: the kernel moves the folios it had
	 * unmapped, then the call fails with ENOMEM and writes no status. Those
	 * on the target moved; only the others take the call's errno */
	model(4, (int[]){ 1, 1, 1, 1 });
	room = 2;
	enomem = true;
	is_int(ct_migrate_batch_move(&b, pages, status, 4), 0, "a call that fails with ENOMEM after moving some");
	is_int(count(status, 4, 1), 2, "what arrived counts as moved");
	is_int(count(status, 4, -ENOMEM), 2, "the rest: ENOMEM");

	/* one folio that never migrates ends the kernel's walk at the first
	 * sub-batch: every entry after it is never attempted. They are moved in
	 * more rounds; only the pinned folio's 8 pages stay */
	model(4, (int[]){ 8, 8, 8, 8 });
	pinned[0] = true;
	is_int(ct_migrate_batch_move(&b, pages, status, 32), 0, "a pinned folio first in the batch");
	is_int(count(status, 32, 1), 24, "the three other folios moved");
	ok(status[0] != 1 && status[7] != 1, "the pinned one did not");
	is_int(count(status, 32, CT_STATUS_UNSET), 0, "no status left unwritten");

	/* no more rounds onto a nearly full target */
	model(4, (int[]){ 8, 8, 8, 8 });
	pinned[0] = true;
	b.target_full = always_full;
	is_int(ct_migrate_batch_move(&b, pages, status, 32), 0, "a pinned folio, the target nearly full");
	is_int(count(status, 32, 1), 0, "no second round");
	b.target_full = NULL;

	/* a query */
	model(2, (int[]){ 1, 1 });
	folio_node[1] = 3;
	is_int(ct_migrate_batch_query(&b, pages, status, 3), 0, "query");
	ok(status[0] == 0 && status[1] == 3 && status[2] == -ENOENT, "nodes and ENOENT");
	ct_migrate_batch_free(&b);
	return tap_done();
}
