// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "mm/migrate.h"
#include "mm/migrate-batch.h"
#include "mm/migrate-spread.h"
#include "mm/migrate-tally.h"
#include "mm/numa.h"
#include "mm/numamaps.h"
#include "mm/pagemap.h"
#include "mm/usage.h"

#define BATCH 4096		/* entries per move_pages call: 16 MiB of base pages */

const char *ct_migrate_err_name(enum ct_mig_err e)
{
	static const char *const n[] = { "EFAULT", "ENOENT", "EACCES", "EBUSY", "ENOMEM", "other" };
	return e < CT_MIG_NERR ? n[e] : "other";
}

void ct_migrate_setup(void)
{
	numa_max_node();
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int read_text(struct ct_sysfs *s, int pid, const char *file, char **text)
{
	char path[64];

	return ct_sysfs_read_text(s, ct_path(path, sizeof(path), "/proc/%d/%s", pid, file), text);
}

/* what root is needed for, when another user's numa_maps cannot be read */
#define MOVE_NEEDS_ROOT "moving another user's process needs root (CAP_SYS_PTRACE and CAP_SYS_NICE)"
_Static_assert(CT_MIG_MAX_NODES == CT_USAGE_MAX_NODES, "a result's bytes per node are usage.c's");

int ct_migrate_select_access(struct ct_migrate_selection *sel, const struct ct_access_region *reg, size_t n, bool hot)
{
	ct_migrate_selection_free(sel);
	sel->on = true;
	sel->range = calloc(n ? n : 1, sizeof(*sel->range));
	if (!sel->range)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++)
		if (hot == (reg[k].nr_accesses > 0)) {
			sel->range[sel->n].start = reg[k].start;
			sel->range[sel->n++].end = reg[k].end;
		}
	return 0;
}

void ct_migrate_selection_free(struct ct_migrate_selection *sel)
{
	free(sel->range);
	memset(sel, 0, sizeof(*sel));
}

/* one batch of one process's range */
struct unit {
	size_t task;
	struct ct_migrate_range range;
};

struct task_state {
	pthread_mutex_t lock;
	struct ct_migrate_task *t;
	atomic_bool stopped;		/* gone, refused or failed: its other units are skipped */
	atomic_uint_fast64_t reserved;	/* bytes taken from --max-bytes */
	atomic_bool limit_hit;		/* an entry did not fit: nothing after it is handed over */
	double first, last;		/* when its first batch began, its last ended */
	double plan_seconds;
	struct ct_migrate_spread sp;	/* a spread: what each node gives and takes (under lock) */
	int giver;			/* ... the one node that gives, or -1: several */
	/* a spread's moves as move_pages told them (under lock), in base
	 * pages: what left each node and what arrived on it; unsure when a
	 * batch moved pages it did not ask for (a large folio cut by
	 * --max-bytes) or its counts do not add up: then numa_maps is read */
	uint64_t gone_from[CT_MIG_MAX_NODES], came_to[CT_MIG_MAX_NODES];
	bool unsure;
};

struct run {
	const struct ct_migrate_opts *o;
	struct ct_sysfs *root;
	struct task_state *ts;
	size_t ntasks;
	bool whole;			/* each process whole (migrate_pages), else batches */
	pthread_mutex_t queue_lock;	/* the batches of the processes prepared so far */
	pthread_cond_t queue_more;	/* batches came, or a process is prepared */
	size_t next_task;		/* the next process to prepare */
	size_t reached;			/* processes prepared (told to o->on_process, under queue_lock) */
	unsigned preparing;		/* processes being prepared (batches may come) */
	struct unit *u;
	size_t nunits, cap, head;
	pthread_mutex_t pace_lock;
	double t0;
	double pace0;			/* --rate's clock: when the first batch came to move (0: none yet) */
	uint64_t paced;			/* bytes moved by every job, for --rate */
	uint64_t page_size;
	uint64_t huge_size;		/* a PMD-mapped transparent huge page */
};

struct worker {
	struct run *run;
	struct ct_sysfs s;		/* the root's, with its own error */
	struct ct_error err;
	struct ct_migrate_batch b;
	void **pages;
	int *status;
	void **sub;			/* the base pages of one huge page, or of a batch's cut */
	int *sub_status;
	int to;				/* where the batch in hand goes */
	void **spread_pages;		/* a spread's batch, before it is cut by target */
	int *spread_to;
	int *spread_from;		/* ... the node each page of it is on */
	int *from;			/* ... and of each entry of pages[] being moved */
	pthread_t thread;
};

static void task_span(struct task_state *ts, double t0, double t1)
{
	if (!ts->first || t0 < ts->first)
		ts->first = t0;
	if (t1 > ts->last)
		ts->last = t1;
}

/* nothing more for this task: record why (the first reason wins) */
static void task_fail(struct task_state *ts, const struct ct_error *e)
{
	pthread_mutex_lock(&ts->lock);
	if (!ts->t->r.err) {
		ts->t->r.err = -(e->code ? e->code : EIO);
		ct_strlcpy(ts->t->r.error, e->msg, sizeof(ts->t->r.error));
	}
	atomic_store(&ts->stopped, true);
	pthread_mutex_unlock(&ts->lock);
}

static void task_gone(struct task_state *ts, bool replaced, const char *msg)
{
	pthread_mutex_lock(&ts->lock);
	ts->t->r.exited = true;
	ts->t->r.replaced |= replaced;
	if (!ts->t->r.note[0])
		ct_strlcpy(ts->t->r.note, msg, sizeof(ts->t->r.note));
	atomic_store(&ts->stopped, true);
	pthread_mutex_unlock(&ts->lock);
}

/* before each action: still the process that was chosen? (pidfd, start time) */
static bool still_same(struct worker *w, struct task_state *ts)
{
	int rc = ct_process_check(&w->s, ts->t->proc);

	if (!rc)
		return true;
	if (rc == -EMFILE || rc == -ENFILE)
		task_fail(ts, &w->err);	/* not known to be gone: this run is out of fds */
	else
		task_gone(ts, rc == -ESTALE, w->err.msg);
	ct_error_clear(&w->err);
	return false;
}

static void no_permission(struct worker *w, struct task_state *ts)
{
	ct_fail(&w->err, EPERM, "no permission to move the pages of process %d: it needs the same user and ptrace "
		"access, or root (CAP_SYS_NICE)", ts->t->proc->pid);
	task_fail(ts, &w->err);
}

/* the whole process at once: the kernel walks its page tables */
static void do_whole(struct worker *w, struct task_state *ts)
{
	const struct ct_migrate_opts *o = w->run->o;
	struct bitmask *from = numa_allocate_nodemask(), *to = numa_allocate_nodemask();
	double t0, t1;
	int n;

	for (n = 0; n < CT_MIG_MAX_NODES && n <= numa_max_node(); n++)
		if (ct_migrate_plan_is_source(&o->from, o->to, n))
			numa_bitmask_setbit(from, (unsigned)n);
	numa_bitmask_setbit(to, (unsigned)o->to);
	if (still_same(w, ts)) {
		t0 = now();
		n = numa_migrate_pages(ts->t->proc->pid, from, to);
		t1 = now();
		pthread_mutex_lock(&ts->lock);
		ts->t->r.move_seconds += t1 - t0;
		task_span(ts, t0, t1);
		if (n > 0) {
			ts->t->r.pages_failed = (uint64_t)n;	/* folios; finish() counts what stayed */
			ts->t->r.failed_by[CT_MIG_OTHER] = (uint64_t)n;
		}
		pthread_mutex_unlock(&ts->lock);
		if (n < 0 && errno == ESRCH) {
			still_same(w, ts);	/* says how it went */
		} else if (n < 0 && errno == EPERM) {
			no_permission(w, ts);
		} else if (n < 0) {
			ct_fail(&w->err, errno, "migrate_pages of process %d failed: %s", ts->t->proc->pid, strerror(errno));
			task_fail(ts, &w->err);
		}
	}
	numa_bitmask_free(from);
	numa_bitmask_free(to);
}

/* less than 5 % or 8 MiB free: allocations there fail */
static bool node_nearly_full(struct ct_sysfs *s, int node)
{
	uint64_t total, free_bytes;

	if (ct_node_meminfo(s, node, &total, &free_bytes)) {
		ct_error_clear(s->err);
		return false;
	}
	/* (the kernel stops short of its watermarks, and a THP needs 2 MiB in one
	 * piece: a 512 MiB node that a move filled held 479 MiB of the process
	 * and took no more, with more than 1 % of it free) */
	return free_bytes < (8u << 20) || free_bytes * 100 < total * 5;
}

/* the size of a PMD-mapped transparent huge page (0: none, or unknown) */
static uint64_t pmd_size(struct ct_sysfs *s, uint64_t page)
{
	uint64_t v = 0;

	if (ct_sysfs_read_u64(s, "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", 10, &v) || v <= page ||
	    v > (1u << 30) || (v & (v - 1)))
		v = 0;
	ct_error_clear(s->err);
	return v;
}

/* take up to want entries of step bytes from the task's --max-bytes. The
 * limit ends the process's run at the first entry that does not fit (a
 * transparent huge page moves whole or not at all): smaller pages further
 * on are not handed over instead, so what moves is a prefix, in address
 * order, of what would move without the limit */
static unsigned long reserve(struct task_state *ts, uint64_t max, unsigned long want, uint64_t step)
{
	uint_fast64_t used = atomic_load(&ts->reserved);

	if (!max)
		return want;
	if (atomic_load(&ts->limit_hit))
		return 0;
	for (;;) {
		uint64_t room = used < max ? max - used : 0;
		unsigned long take = room / step < want ? (unsigned long)(room / step) : want;
		if (take && !atomic_compare_exchange_weak(&ts->reserved, &used, used + take * step))
			continue;
		if (take < want)
			atomic_store(&ts->limit_hit, true);
		return take;
	}
}

/* stay under --rate, all jobs together: a batch starts when the bytes
 * before it and its own (of every job) are due, on a clock that starts
 * when the first batch comes to move (the time spent reading numa_maps and
 * maps before it is no credit, and the first batch is paced too); false
 * when the run is stopped meanwhile */
static bool pace(struct run *run, uint64_t bytes)
{
	double start;

	if (run->o->rate_mbps <= 0)
		return true;
	pthread_mutex_lock(&run->pace_lock);
	if (!run->pace0)
		run->pace0 = now();
	run->paced += bytes;
	start = run->pace0 + run->paced / (run->o->rate_mbps * 1e6);
	pthread_mutex_unlock(&run->pace_lock);
	for (double wait; (wait = start - now()) > 0 && !(run->o->stop && *run->o->stop);)
		usleep((useconds_t)(wait > 0.1 ? 100000 : wait * 1e6));
	return !(run->o->stop && *run->o->stop);
}

/* where each base page of [a, a + len) is: how many on the target, or -1
 * when the kernel could not be asked */
static int64_t on_target(struct worker *w, uint64_t a, uint64_t len)
{
	uint64_t page = w->run->page_size, k = 0;
	int64_t there = 0;

	for (uint64_t p = a; p < a + len; p += page)
		w->sub[k++] = (void *)(uintptr_t)p;
	if (ct_migrate_batch_query(&w->b, w->sub, w->sub_status, (unsigned long)k))
		return -1;
	for (uint64_t i = 0; i < k; i++)
		there += w->sub_status[i] == w->to;
	return there;
}

struct full_arg {
	struct worker *w;
	int known;			/* -1 not asked yet */
};

/* is the target nearly full? asked once per batch */
static bool full_once(void *arg)
{
	struct full_arg *f = arg;

	if (f->known < 0)
		f->known = node_nearly_full(&f->w->s, f->w->to);
	return f->known;
}

/* a batch of transparent huge pages, moved: what arrived, counted in base
 * pages. The kernel moves a THP whole, or, when the target has no 2 MiB
 * in one piece for it, splits it and moves its pages one by one; only then
 * (an entry not on the target, or the target nearly full) may part of one
 * have moved: its base pages are asked where they are */
static void tally_thp(struct worker *w, const struct ct_migrate_range *rg, unsigned long take, struct full_arg *full,
		      struct ct_migrate_tally *t, uint64_t *gone)
{
	uint64_t per = rg->step / w->run->page_size;

	for (unsigned long i = 0; i < take; i++) {
		int st = w->status[i], why;
		int64_t there;
		if (st == w->to && !full_once(full)) {
			t->moved += per;
			if (gone)
				gone[w->from[i]] += per;
			continue;
		}
		there = on_target(w, (uintptr_t)w->pages[i], rg->step);
		if (there < 0)
			there = st == w->to ? (int64_t)per : 0;
		t->moved += (uint64_t)there;
		if (gone)
			gone[w->from[i]] += (uint64_t)there;
		if ((uint64_t)there >= per)
			continue;
		why = st == w->to ? CT_STATUS_UNSET : st;	/* moved in part: no reason given */
		ct_migrate_tally(t, &why, 1, w->to, per - (uint64_t)there, rg->direct, full_once, full);
	}
}

/* a batch of base pages cut by --max-bytes after entry take - 1: a large
 * folio mapped by page table entries (one pagemap does not show as huge)
 * that the cut goes through moved whole. Its pages past the cut that
 * arrived are counted as moved, and taken from the limit (an overshoot of
 * less than one such folio, which the report shows as it is) */
static uint64_t carried(struct worker *w, unsigned long take, unsigned long cnt)
{
	uint64_t huge = w->run->huge_size, page = w->run->page_size, block, k = 0, there = 0;

	if (!take || take >= cnt || !huge)
		return 0;
	block = (uintptr_t)w->pages[take - 1] & ~(huge - 1);
	for (unsigned long i = take; i < cnt && ((uintptr_t)w->pages[i] & ~(huge - 1)) == block; i++)
		w->sub[k++] = w->pages[i];
	if (!k || ct_migrate_batch_query(&w->b, w->sub, w->sub_status, (unsigned long)k))
		return 0;
	for (uint64_t i = 0; i < k; i++)
		there += w->sub_status[i] == w->to;
	return there * page;
}

/* entries w->pages[0..cnt) of a batch, to node to (cut by --max-bytes,
 * paced by --rate), each page's outcome counted; scan: the time spent
 * asking where they were, t0 when the batch began */
static void move_to(struct worker *w, struct task_state *ts, const struct ct_migrate_range *rg, unsigned long cnt, int to,
		    double t0, double scan)
{
	const struct ct_migrate_opts *o = w->run->o;
	struct ct_migrate_result *r = &ts->t->r;
	uint64_t page = w->run->page_size, per = rg->step / page, extra = 0;
	struct ct_migrate_tally t = { 0 };
	struct full_arg full = { w, -1 };
	uint64_t gone[CT_MIG_MAX_NODES] = { 0 }, *spread = o->spread ? gone : NULL;
	double move = 0;
	unsigned long take;
	int rc;

	w->to = to;
	ct_migrate_batch_target(&w->b, to);
	take = cnt ? reserve(ts, o->max_bytes, cnt, rg->step) : 0;
	if (take && !o->dry_run && pace(w->run, take * rg->step)) {
		double m0 = now();
		rc = ct_migrate_batch_move(&w->b, w->pages, w->status, take);
		move = now() - m0;
		if (rc == -ESRCH)
			still_same(w, ts);
		else if (rc == -EPERM)
			no_permission(w, ts);
		if (!rc && rg->thp) {
			tally_thp(w, rg, take, &full, &t, spread);
		} else if (!rc) {
			ct_migrate_tally(&t, w->status, take, to, per, rg->direct, full_once, &full);
			for (unsigned long i = 0; spread && i < take; i++)
				gone[w->from[i]] += w->status[i] == to ? per : 0;
			extra = carried(w, take, cnt);
			atomic_fetch_add(&ts->reserved, extra);
		}
	}
	pthread_mutex_lock(&ts->lock);
	if (spread) {
		uint64_t sum = 0;
		for (int n = 0; n < CT_MIG_MAX_NODES; n++) {
			ts->gone_from[n] += gone[n];
			sum += gone[n];
		}
		ts->came_to[to] += sum;
		ts->unsure |= extra || sum != t.moved;
	}
	r->bytes_to_move += take * rg->step + extra;
	r->pages_moved += t.moved + extra / page;
	r->pages_failed += t.failed;
	for (int e = 0; e < CT_MIG_NERR; e++)
		r->failed_by[e] += t.by[e];
	r->scan_seconds += scan;
	r->move_seconds += move;
	task_span(ts, t0, now());
	pthread_mutex_unlock(&ts->lock);
}

/* the batch's entries into w->pages[0..*cnt); unless all are known to be
 * on a source node, asked where they are (w->status); false when the
 * process is gone or refused (said) */
static bool batch_pages(struct worker *w, struct task_state *ts, const struct ct_migrate_range *rg, unsigned long *cnt,
			bool *asked)
{
	int rc;

	*cnt = 0;
	*asked = false;
	if (!still_same(w, ts))
		return false;
	w->b.pid = ts->t->proc->pid;
	for (uint64_t a = rg->start; a < rg->end && *cnt < BATCH; a += rg->step)
		w->pages[(*cnt)++] = (void *)(uintptr_t)a;
	if (rg->direct)
		return true;
	rc = ct_migrate_batch_query(&w->b, w->pages, w->status, *cnt);
	if (rc == -ESRCH) {
		still_same(w, ts);
		return false;
	}
	if (rc == -EPERM) {
		no_permission(w, ts);
		return false;
	}
	*asked = !rc;
	if (rc)
		*cnt = 0;	/* a mapping that went away: nothing here */
	return true;
}

/* has the task's --max-bytes been reached before this batch? */
static bool limit_reached(struct task_state *ts, uint64_t max, uint64_t step)
{
	if (max && (atomic_load(&ts->limit_hit) || atomic_load(&ts->reserved) + step > max)) {
		atomic_store(&ts->limit_hit, true);
		return true;
	}
	return false;
}

/* one batch: ask where the pages are (unless all are known to be on a source
 * node), move those on a source node, count each page's outcome */
static void do_range(struct worker *w, struct task_state *ts, const struct ct_migrate_range *rg)
{
	const struct ct_migrate_opts *o = w->run->o;
	double t0 = now();
	unsigned long cnt, keep = 0;
	bool asked;

	if (limit_reached(ts, o->max_bytes, rg->step) || !batch_pages(w, ts, rg, &cnt, &asked))
		return;
	if (asked) {
		for (unsigned long i = 0; i < cnt; i++)
			if (w->status[i] >= 0 && ct_migrate_plan_is_source(&o->from, o->to, w->status[i]))
				w->pages[keep++] = w->pages[i];
		cnt = keep;
	}
	move_to(w, ts, rg, cnt, o->to, t0, asked ? now() - t0 : 0);
}

/* a spread's batch: where each page is (the one giving node for a direct
 * range), then where it goes, chosen from what its node still gives
 * (under the task's lock, as other jobs take from the same counts); then
 * one move_pages a target node */
static void do_spread(struct worker *w, struct task_state *ts, const struct ct_migrate_range *rg)
{
	uint64_t per = rg->step / w->run->page_size;
	double t0 = now(), scan;
	unsigned long cnt, n = 0;
	bool asked, left;
	uint64_t dest = 0;	/* the target nodes of this batch */

	pthread_mutex_lock(&ts->lock);
	left = ts->sp.left > 0;
	pthread_mutex_unlock(&ts->lock);
	if (!left || limit_reached(ts, w->run->o->max_bytes, rg->step) || !batch_pages(w, ts, rg, &cnt, &asked))
		return;
	scan = asked ? now() - t0 : 0;
	pthread_mutex_lock(&ts->lock);
	for (unsigned long i = 0; i < cnt; i++) {
		int from = asked ? w->status[i] : ts->giver, to = ct_migrate_spread_pick(&ts->sp, from, per);
		if (to < 0)
			continue;
		w->spread_pages[n] = w->pages[i];
		w->spread_from[n] = from;
		w->spread_to[n++] = to;
		dest |= 1ULL << to;
	}
	pthread_mutex_unlock(&ts->lock);
	for (int to = 0; dest && to < CT_MIG_MAX_NODES; to++) {
		unsigned long k = 0;
		if (!(dest & (1ULL << to)))
			continue;
		dest &= ~(1ULL << to);
		for (unsigned long i = 0; i < n; i++)
			if (w->spread_to[i] == to) {
				w->from[k] = w->spread_from[i];
				w->pages[k++] = w->spread_pages[i];
			}
		if (atomic_load(&ts->stopped))
			break;
		move_to(w, ts, rg, k, to, t0, scan);
		scan = 0;
	}
}

/* a process's batches, for every job to take */
static int push_units(struct run *run, const struct ct_migrate_range *chunk, size_t n, size_t task)
{
	int rc = 0;

	pthread_mutex_lock(&run->queue_lock);
	if (run->nunits + n > run->cap) {
		size_t nc = run->cap ? run->cap : 64;
		struct unit *nu;
		while (nc < run->nunits + n)
			nc *= 2;
		nu = realloc(run->u, nc * sizeof(*nu));
		if (!nu)
			rc = -ENOMEM;
		else {
			run->u = nu;
			run->cap = nc;
		}
	}
	for (size_t i = 0; !rc && i < n; i++)
		run->u[run->nunits++] = (struct unit){ .task = task, .range = chunk[i] };
	pthread_cond_broadcast(&run->queue_more);
	pthread_mutex_unlock(&run->queue_lock);
	return rc;
}

enum next { DONE, BATCH_OF, PREPARE };

/* what a job does next: a queued batch, else the next process to prepare,
 * else wait while another job prepares one (its batches may come) */
static enum next next_work(struct run *run, struct unit *u, size_t *task)
{
	enum next what = DONE;

	pthread_mutex_lock(&run->queue_lock);
	while (!(run->o->stop && *run->o->stop)) {
		struct timespec until;
		if (run->head < run->nunits) {
			*u = run->u[run->head++];
			what = BATCH_OF;
			break;
		}
		if (run->next_task < run->ntasks) {
			*task = run->next_task++;
			run->preparing++;
			what = PREPARE;
			break;
		}
		if (!run->preparing)
			break;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100 * 1000000L;	/* and look at the stop flag */
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&run->queue_more, &run->queue_lock, &until);
	}
	pthread_mutex_unlock(&run->queue_lock);
	return what;
}

static void prepared(struct run *run)
{
	pthread_mutex_lock(&run->queue_lock);
	run->reached++;
	if (run->o->on_process)
		run->o->on_process(run->o->on_process_arg, run->reached, run->ntasks);
	run->preparing--;
	pthread_cond_broadcast(&run->queue_more);
	pthread_mutex_unlock(&run->queue_lock);
}

/* the plan's ranges of base pages narrowed to what /proc/PID/pagemap shows
 * present, its transparent huge pages one entry each. Without
 * PAGEMAP_SCAN (before 6.7), or when it fails, a range stays as it was:
 * asked page by page, huge pages found by the EBUSY of their tails.
 * 0 or -ENOMEM. */
static int present_only(struct run *run, int pid, struct ct_sysfs *s, struct ct_migrate_plan *plan)
{
	struct ct_migrate_plan out = { 0 };
	struct ct_present *pr = NULL;
	size_t npr = 0, cap = 0;
	int fd = ct_pagemap_open(s, pid), rc = 0;

	if (fd < 0)
		return 0;
	for (size_t i = 0; i < plan->n && !rc; i++) {
		const struct ct_migrate_range *r = &plan->r[i];
		int e = -1;
		npr = 0;
		if (r->step == run->page_size && !(e = ct_pagemap_present(fd, r->start, r->end, &pr, &npr, &cap)))
			rc = ct_migrate_plan_add_present(&out, r, pr, npr, run->huge_size);
		else if (e == -ENOMEM)
			rc = e;
		else
			rc = ct_migrate_plan_add_present(&out, r, &(struct ct_present){ r->start, r->end, false }, 1, 0);
	}
	close(fd);
	free(pr);
	if (rc) {
		ct_migrate_plan_free(&out);
		return rc;
	}
	ct_migrate_plan_free(plan);
	*plan = out;
	return 0;
}

/* read what the process has where, and cut its move_pages work into batches */
static int plan_ranges(struct worker *w, size_t task, const char *numa_maps)
{
	struct run *run = w->run;
	struct ct_sysfs *s = &w->s;
	struct ct_migrate_task *t = run->ts[task].t;
	struct ct_numa_vma *vma = NULL;
	struct ct_migrate_range *chunk = NULL;
	struct ct_migrate_plan plan;
	struct ct_nodeset from = run->o->from;
	int to = run->o->to;
	size_t nvma = 0, nchunk = 0;
	char *maps = NULL;
	int rc;

	if (run->o->spread) {	/* a spread's sources: the nodes that give */
		memset(&from, 0, sizeof(from));
		for (int n = 0; n < CT_MIG_MAX_NODES; n++)
			if (ct_migrate_spread_gives(&run->ts[task].sp, n))
				ct_nodeset_add(&from, n);
		to = -1;
	}
	rc = read_text(s, t->proc->pid, "maps", &maps);
	if (rc || (rc = ct_process_check(s, t->proc)))	/* read first, then make sure they were its maps */
		goto out;
	if (ct_numa_maps_parse_all(numa_maps, &vma, &nvma)) {
		rc = -ENOMEM;
		goto out;
	}
	if (run->o->spread)	/* (the mappings whose pages the spread will not reach: not planned) */
		maps[ct_migrate_spread_maps_needed(&run->ts[task].sp, maps, vma, nvma, run->page_size)] = '\0';
	if (ct_migrate_plan_build(maps, vma, nvma, &t->sel, &from, to, run->page_size, &plan)) {
		rc = -ENOMEM;
		goto out;
	}
	/* several nodes give: each page is asked where it is, to know whose
	 * share it is; one: what is wholly on it is planned only as far as
	 * its share reaches (pagemap is not asked about the rest) */
	for (size_t i = 0; run->o->spread && run->ts[task].giver < 0 && i < plan.n; i++)
		plan.r[i].direct = false;
	if (run->o->spread)
		ct_migrate_spread_trim(&run->ts[task].sp, run->ts[task].giver, &plan, run->page_size);
	if ((rc = present_only(run, t->proc->pid, s, &plan)))
		goto out;
	rc = ct_migrate_plan_split(&plan, BATCH, &chunk, &nchunk);
	ct_migrate_plan_free(&plan);
	if (!rc)
		rc = push_units(run, chunk, nchunk, task);
out:
	free(chunk);
	free(vma);
	free(maps);
	return rc;
}

/* a spread's plan for a process from its pages per node (numa_maps):
 * what each node gives and takes, its target split; 0 or -EINVAL */
static int spread_plan(struct run *run, struct ct_sysfs *s, struct task_state *ts)
{
	struct ct_migrate_result *r = &ts->t->r;
	uint64_t have[CT_MIG_MAX_NODES];
	int rc, givers = 0;

	_Static_assert(CT_MIG_MAX_NODES == CT_SPREAD_MAX_NODES, "a spread's nodes are a result's");
	for (int n = 0; n < CT_MIG_MAX_NODES; n++)
		have[n] = r->before[n] / run->page_size;
	if ((rc = ct_migrate_spread_plan(&ts->sp, have, run->o->spread, run->o->tolerance_pct)))
		return ct_fail(s->err, -rc, "process %d: no node to spread its pages over (none has a weight)", r->pid);
	r->spread = true;
	ts->giver = -1;
	for (int n = 0; n < CT_MIG_MAX_NODES; n++) {
		r->target[n] = ts->sp.target[n] * run->page_size;
		if (ts->sp.give[n]) {
			ts->giver = givers ? -1 : n;
			givers++;
		}
	}
	return 0;
}

/* when its turn comes: who is it, where are its pages, what is to be done
 * (the whole process, or batches queued for every job) */
static int prepare(struct worker *w, size_t task)
{
	struct run *run = w->run;
	struct ct_sysfs *s = &w->s;
	struct task_state *ts = &run->ts[task];
	bool whole = run->whole;
	struct ct_migrate_result *r = &ts->t->r;
	double t0 = now();
	char *text = NULL;
	int rc;

	r->mechanism = whole ? "migrate_pages" : "move_pages";
	if ((rc = ct_process_check(s, ts->t->proc)) || (rc = ct_process_movable(s, ts->t->proc)) ||
	    (rc = ct_usage_numa_maps(s, ts->t->proc->pid, MOVE_NEEDS_ROOT, &text)) ||
	    (rc = ct_process_check(s, ts->t->proc)))	/* those were its numa_maps */
		goto fail;
	ct_numa_maps_bytes(text, r->before);
	if (run->o->spread)
		rc = spread_plan(run, s, ts);
	if (!rc && !whole && (!run->o->spread || ts->sp.moves))
		rc = plan_ranges(w, task, text);
	free(text);
	text = NULL;
	if (rc == -ENOMEM)
		return rc;
	if (rc)
		goto fail;
	ts->plan_seconds = now() - t0;
	pthread_mutex_lock(&ts->lock);
	r->scan_seconds += ts->plan_seconds;
	pthread_mutex_unlock(&ts->lock);
	if (whole)
		do_whole(w, ts);
	return 0;
fail:
	free(text);
	r->err = rc;
	ct_strlcpy(r->error, s->err->msg, sizeof(r->error));
	ct_error_clear(s->err);
	atomic_store(&ts->stopped, true);
	return 0;
}

/* a spread's after: the before split and what move_pages said moved
 * (each page's status: the node it is on, or why it stayed), not numa_maps
 * read again; pages the process gained, freed, or that were moved by
 * someone else meanwhile are in neither */
static void spread_after(struct run *run, struct task_state *ts)
{
	struct ct_migrate_result *r = &ts->t->r;
	uint64_t page = run->page_size;

	r->after_from = "move_pages status";
	for (int n = 0; n < CT_MIG_MAX_NODES; n++) {
		uint64_t gone = ts->gone_from[n] * page;
		r->after[n] = (r->before[n] > gone ? r->before[n] - gone : 0) + ts->came_to[n] * page;
	}
	r->bytes_moved = r->pages_moved * page;
	r->seconds = ts->plan_seconds + (ts->last > ts->first ? ts->last - ts->first : 0);
}

/* after: where its pages are now, and what that says was moved */
static void finish(struct run *run, struct task_state *ts)
{
	struct ct_sysfs *s = run->root;
	struct ct_migrate_result *r = &ts->t->r;
	const struct ct_migrate_opts *o = run->o;

	/* refused, or never prepared (the run was stopped before its turn):
	 * nothing was done, and the report says so */
	if (r->err || !r->mechanism)
		return;
	r->after_from = "numa_maps";
	/* a spread whose moves all came back told: its after from them, when
	 * the process is still there (move_pages on one that has gone fails
	 * as a whole, with EINVAL once its memory is torn down) */
	if (r->spread && !ts->unsure && !r->exited && !ct_process_check(s, ts->t->proc)) {
		spread_after(run, ts);
		return;
	}
	ct_error_clear(s->err);
	if (!r->exited && (ct_usage_process_nodes(s, r->pid, MOVE_NEEDS_ROOT, r->after) ||
			   ct_process_check(s, ts->t->proc))) {
		if (s->err->code == EMFILE || s->err->code == ENFILE) {
			r->err = -s->err->code;	/* it may well be there: this run cannot look */
			ct_strlcpy(r->error, s->err->msg, sizeof(r->error));
			ct_error_clear(s->err);
			return;
		}
		r->exited = true;
		r->replaced = s->err->code == ESTALE;
		ct_strlcpy(r->note, s->err->msg, sizeof(r->note));
	}
	ct_error_clear(s->err);
	if (r->exited)
		memset(r->after, 0, sizeof(r->after));	/* not its pages, or none */
	if (!strcmp(r->mechanism, "migrate_pages")) {
		uint64_t left = 0;
		/* what left the source nodes arrived on the target */
		for (int n = 0; n < CT_MIG_MAX_NODES && !r->exited; n++)
			if (ct_migrate_plan_is_source(&o->from, o->to, n)) {
				if (r->before[n] > r->after[n])
					r->bytes_moved += r->before[n] - r->after[n];
				left += r->after[n];
			}
		r->pages_moved = r->bytes_moved / run->page_size;
		/* what is still on a source node is what did not move: the
		 * kernel's count is of folios (a THP is one), includes pages
		 * shared with a process another job moved at the same time, and
		 * leaves out the shared pages it skips without MPOL_MF_MOVE_ALL
		 * (no CAP_SYS_NICE: "not counted as a failure") */
		if (!r->exited) {
			r->pages_failed = left / run->page_size;
			r->failed_by[CT_MIG_OTHER] = r->pages_failed;
		}
	} else {
		r->bytes_moved = r->pages_moved * run->page_size;
	}
	r->seconds = ts->plan_seconds + (ts->last > ts->first ? ts->last - ts->first : 0);
}

/* take a batch of a process prepared already; else prepare the next process */
static void *work(void *arg)
{
	struct worker *w = arg;
	struct run *run = w->run;
	struct unit u;
	size_t i;

	for (enum next what; (what = next_work(run, &u, &i)) != DONE;) {
		if (what == BATCH_OF) {
			if (atomic_load(&run->ts[u.task].stopped))
				continue;
			if (run->o->spread)
				do_spread(w, &run->ts[u.task], &u.range);
			else
				do_range(w, &run->ts[u.task], &u.range);
			continue;
		}
		if (prepare(w, i) == -ENOMEM) {
			ct_fail(&w->err, ENOMEM, "out of memory");
			task_fail(&run->ts[i], &w->err);
		}
		prepared(run);
	}
	return NULL;
}

/* no more move_pages rounds for pages the kernel did not attempt when the
 * target has no room left: they would fail the same way */
static bool target_full(void *arg)
{
	struct worker *w = arg;

	return node_nearly_full(&w->s, w->to);
}

static int start_workers(struct run *run, struct worker *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		w[i].run = run;
		w[i].s = *run->root;
		w[i].s.err = &w[i].err;
		w[i].pages = malloc(BATCH * sizeof(*w[i].pages));
		w[i].status = malloc(BATCH * sizeof(*w[i].status));
		w[i].sub = malloc((run->huge_size / run->page_size + 1) * sizeof(*w[i].sub));
		w[i].sub_status = malloc((run->huge_size / run->page_size + 1) * sizeof(*w[i].sub_status));
		w[i].spread_pages = malloc(BATCH * sizeof(*w[i].spread_pages));
		w[i].spread_to = malloc(BATCH * sizeof(*w[i].spread_to));
		w[i].spread_from = malloc(BATCH * sizeof(*w[i].spread_from));
		w[i].from = malloc(BATCH * sizeof(*w[i].from));
		w[i].to = run->o->to;
		if (!w[i].pages || !w[i].status || !w[i].sub || !w[i].sub_status || !w[i].spread_pages || !w[i].spread_to ||
		    !w[i].spread_from || !w[i].from ||
		    ct_migrate_batch_init(&w[i].b, move_pages, 0, run->o->to, BATCH))
			return -ENOMEM;
		w[i].b.target_full = target_full;
		w[i].b.full_arg = &w[i];
	}
	if (n == 1) {	/* one job: this thread */
		work(&w[0]);
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		if (pthread_create(&w[i].thread, NULL, work, &w[i])) {
			/* fewer jobs than asked: those started finish the work */
			for (unsigned k = 0; k < i; k++)
				pthread_join(w[k].thread, NULL);
			if (!i)
				work(&w[0]);
			return 0;
		}
	for (unsigned i = 0; i < n; i++)
		pthread_join(w[i].thread, NULL);
	return 0;
}

int ct_migrate_run(struct ct_sysfs *s, const struct ct_migrate_opts *o, struct ct_migrate_task *t, size_t n,
		   struct ct_migrate_totals *tot)
{
	struct run run = { .o = o, .root = s, .page_size = (uint64_t)sysconf(_SC_PAGESIZE) };
	unsigned jobs = o->jobs ? (o->jobs > CT_MIG_MAX_JOBS ? CT_MIG_MAX_JOBS : o->jobs) : 1;
	struct worker *w = NULL;
	size_t valid = 0;
	bool selecting = false;
	int rc = 0;

	memset(tot, 0, sizeof(*tot));
	run.t0 = now();
	run.huge_size = pmd_size(s, run.page_size);
	run.ts = calloc(n ? n : 1, sizeof(*run.ts));
	if (!run.ts)
		return ct_fail(s->err, ENOMEM, "out of memory");
	pthread_mutex_init(&run.pace_lock, NULL);
	pthread_mutex_init(&run.queue_lock, NULL);
	pthread_cond_init(&run.queue_more, NULL);
	numa_max_node();	/* libnuma's lazy set-up, before any thread */
	for (size_t i = 0; i < n; i++) {
		struct ct_migrate_result *r = &t[i].r;
		memset(r, 0, sizeof(*r));
		r->pid = t[i].proc->pid;
		ct_strlcpy(r->comm, t[i].proc->comm, sizeof(r->comm));
		run.ts[i].t = &t[i];
		pthread_mutex_init(&run.ts[i].lock, NULL);
		selecting |= t[i].sel.on;
		valid += !t[i].proc->err;
	}
	/* whole processes when nothing limits them and there is a process per job;
	 * otherwise batches, so that every job has work (one large process too) */
	run.whole = !o->max_bytes && o->rate_mbps <= 0 && !o->dry_run && !selecting && !o->spread &&
		    (jobs == 1 || valid >= jobs);
	run.ntasks = n;
	tot->jobs = jobs;
	w = calloc(jobs, sizeof(*w));
	if (!w || start_workers(&run, w, jobs)) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		finish(&run, &run.ts[i]);
		tot->scan_seconds += t[i].r.scan_seconds;
		tot->move_seconds += t[i].r.move_seconds;
		tot->bytes_moved += t[i].r.bytes_moved;
		tot->bytes_to_move += t[i].r.bytes_to_move;
	}
	tot->seconds = now() - run.t0;
out:
	for (unsigned i = 0; w && i < jobs; i++) {
		free(w[i].pages);
		free(w[i].status);
		free(w[i].sub);
		free(w[i].sub_status);
		free(w[i].spread_pages);
		free(w[i].spread_to);
		free(w[i].spread_from);
		free(w[i].from);
		ct_migrate_batch_free(&w[i].b);
	}
	free(w);
	for (size_t i = 0; i < n; i++)
		pthread_mutex_destroy(&run.ts[i].lock);
	pthread_mutex_destroy(&run.pace_lock);
	pthread_mutex_destroy(&run.queue_lock);
	pthread_cond_destroy(&run.queue_more);
	free(run.ts);
	free(run.u);
	return rc == -ENOMEM ? ct_fail(s->err, ENOMEM, "out of memory") : rc;
}
