// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-read.c - a reading run of `events` as one job: see event-read.h */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/rundir.h"
#include "events/event-keep.h"
#include "jobs/event-history.h"
#include "jobs/event-read.h"
#include "jobs/trace-instance.h"

struct reading {
	struct ct_context *ctx;
	const struct ct_event_read_opts *o;
	struct ct_event_read_report *rep;
	struct ct_event_history store;
	struct ct_event_store *rows_store;	/* the store the rows read (they close it) */
	bool unshown_failed;		/* something the filter hid was not kept: said */
	bool hold;			/* a read of the shared instance that consumes nothing */
	size_t hidden;			/* hold: records of it the filter hid */
	uint64_t matched;		/* FILE: records the filter takes */
};

/* a record the filter takes: shown, or counted */
static int show(struct reading *r, const struct ct_event *e)
{
	if (r->o->summary)
		return ct_event_summary_add(&r->rep->summary, e);
	return r->o->show(e, r->o->show_arg);
}

/* a record of the shared instance */
static int on_read(const struct ct_event *e, void *arg)
{
	struct reading *r = arg;
	struct ct_event_store *s = r->store.s ? r->store.s : r->rows_store;
	/* the store's records are shown first: one there is not shown again,
	 * nor kept for a later run */
	bool stored = s && ct_event_store_has(s, e);
	bool match = ct_event_filter_match(&r->o->filter, e);
	int rc;

	if (r->hold) {
		/* every record read stays for the next run: one the store has
		 * there (it shows it), any other held, shown or not */
		if (stored)
			return 0;
		if (!match) {
			r->hidden++;
			return CT_EVENT_KEEP;
		}
		rc = show(r, e);
		return rc ? rc : CT_EVENT_KEEP;
	}
	if (!match)
		return stored ? 0 : CT_EVENT_KEEP;	/* read, so kept for a later run */
	return stored ? 0 : show(r, e);
}

/* the store's records (filtered), before what is live: rows read as they
 * are shown, or counted; -EIO when the store cannot be read (said) */
static int show_stored(struct reading *r)
{
	struct ct_context *ctx = r->ctx;
	struct ct_event_read_report *rep = r->rep;
	uint64_t before = rep->summary.all.records;
	int rc;

	if (!r->store.s)
		return 0;
	if (r->o->summary) {
		rc = ct_event_store_summarize(r->store.s, &r->o->filter, &rep->summary, &ctx->err);
		rep->shown = rep->summary.all.records - before;
	} else {
		struct ct_event_store *s = r->store.s;
		r->store.s = NULL;	/* (the rows close it, failing too) */
		rc = ct_event_rows_of_store(ctx, s, &r->o->filter, &rep->rows, &rep->nrows);
		r->rows_store = rc ? NULL : s;
		rep->shown = rep->nrows;
	}
	if (!rc)
		return 0;
	ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
	if (r->o->from != CT_EVENT_READ_HISTORY)
		ct_say(&ctx->say, CT_SAY_WARNING, "the stored history is not shown whole: what is live follows");
	r->store.failed = true;
	return -EIO;
}

/* what the shared read's report means, said and counted */
static void say_unshown(struct reading *r, const struct ct_event_keep_report *k)
{
	struct ct_context *ctx = r->ctx;
	const struct ct_say *say = &ctx->say;

	if (k->damaged_bytes)
		ct_say(say, CT_SAY_WARNING, "%s: %zu bytes of it were damaged and are dropped (the records before them "
		       "are kept)", CT_RUNDIR "/" CT_KEPT_FILE, k->damaged_bytes);
	if (k->undecodable)
		ct_say(say, CT_SAY_WARNING, "%zu kept records are of tracepoints this kernel no longer has: dropped",
		       k->undecodable);
	if (k->dropped)
		ct_say(say, CT_SAY_WARNING, "%lu of the oldest records %s are dropped: at most %u KiB of them are kept "
		       "('cxltier events --drain' shows and clears them)", k->dropped,
		       r->hold ? "held for the next run" : "the filters hid", CT_KEPT_MAX_BYTES >> 10);
	if (k->unkept) {
		ct_say(say, CT_SAY_ERROR, "%zu records this run read and did not show could not be kept, and are lost: %s",
		       k->unkept, k->store_rc ? ct_context_message(ctx) : strerror(-k->hold_rc));
		r->unshown_failed = true;
	}
	if (k->store_rc) {
		if (!k->unkept)
			ct_say(say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		ct_say(say, CT_SAY_WARNING, CT_RUNDIR "/" CT_KEPT_FILE " was left as it was: the records it held that "
		       "this run showed will show again");
		r->unshown_failed = true;
	} else if (r->hold && k->kept) {
		ct_say(say, 1, "the %zu records read from the '" CT_EVENT_SHARED_INSTANCE "' tracefs instance are held in "
		       CT_RUNDIR "/" CT_KEPT_FILE " for the next run (a trace buffer cannot be read without consuming "
		       "it; 'cxltier events --drain' shows and clears them)", k->kept);
	} else if (k->kept) {
		ct_say(say, 1, "%zu records the filters hid are kept in " CT_RUNDIR "/" CT_KEPT_FILE " for a later run",
		       k->kept);
	}
	r->rep->kept = r->hold && !k->store_rc ? r->hidden : k->kept;
	r->rep->unkept = k->unkept;
	r->rep->dropped = k->dropped;
}

/* no shared instance to read: the store's history alone, or nothing */
static int read_no_instance(struct reading *r)
{
	const struct ct_say *say = &r->ctx->say;
	const char *path = r->store.path ? r->store.path : "";

	if (r->store.s)
		ct_say(say, 1, "no '" CT_EVENT_SHARED_INSTANCE "' tracefs instance: the stored history alone");
	else if (!r->store.failed)
		ct_say(say, 0, "nothing collected: %s%s%sno '" CT_EVENT_SHARED_INSTANCE "' tracefs instance; collect "
		       "with 'systemctl enable --now cxltier-events.service' ('cxltier events --follow --store'), or "
		       "'cxltier events --drain' to keep them in the kernel from now on",
		       path[0] ? "no event store at " : "", path, path[0] ? " and " : "");
	if (show_stored(r)) {
		r->rep->end = CT_JOB_FAILED;
		return -EIO;
	}
	r->rep->end = r->store.failed ? CT_JOB_PARTIAL : CT_JOB_DONE;
	return 0;
}

/* the store's history, then the shared instance: a read holds every record
 * for the next run (nothing is made); a drain makes the instance when it is
 * missing, and keeps only what the filter hides there */
static int read_live(struct reading *r)
{
	struct ct_context *ctx = r->ctx;
	struct ct_event_source_opts so = { .shared = true, .role = "follow", .existing = !r->o->consume };
	struct ct_event_keep_report k;
	struct ct_event_source *s;
	int rc;

	r->hold = !r->o->consume;
	if ((rc = ct_trace_instance_open(ctx, &so, r->o->say_made, &s))) {
		if (rc == -ENODATA)
			return read_no_instance(r);
		if (!r->store.s) {
			ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
			r->rep->end = rc == -EOPNOTSUPP ? CT_JOB_UNSUPPORTED : CT_JOB_FAILED;
			return rc;
		}
		ct_say(&ctx->say, CT_SAY_WARNING, "what is live cannot be read (%s): the stored history alone",
		       ct_context_message(ctx));
		if ((rc = show_stored(r))) {
			r->rep->end = CT_JOB_FAILED;
			return rc;
		}
		r->rep->end = CT_JOB_DONE;
		return 0;
	}
	if (!r->o->summary)
		show_stored(r);
	rc = ct_event_source_read_shared(s, on_read, r, CT_TRACE_INSTANCE_LOCK_MS, &k);
	if (r->o->summary)	/* (counted after what is live: its pages join the store's) */
		show_stored(r);
	say_unshown(r, &k);
	if (ct_trace_instance_close(ctx, s, rc, true, &r->rep->overwritten)) {
		r->rep->end = CT_JOB_FAILED;
		return rc ? rc : -EIO;
	}
	r->rep->end = r->unshown_failed || r->store.failed ? CT_JOB_PARTIAL : CT_JOB_DONE;
	return 0;
}

/* the store alone: nothing live is read or consumed */
static int read_history(struct reading *r)
{
	int rc;

	if (!r->store.s) {
		if (r->store.failed) {
			r->rep->end = CT_JOB_FAILED;	/* said */
			return -EIO;
		}
		ct_say(&r->ctx->say, 0, "no event store at %s yet: cxltier-events.service (events --follow --store) "
		       "makes it", r->store.path);
	}
	if ((rc = show_stored(r))) {
		r->rep->end = CT_JOB_FAILED;
		return rc;
	}
	r->rep->end = CT_JOB_DONE;
	return 0;
}

/* the records of a file the store did not take, by their places in it:
 * the first ranges of them, and where the records queued now begin */
#define LOST_RANGES 8
struct file_lost {
	uint64_t from[LOST_RANGES], to[LOST_RANGES];	/* [from, to) */
	size_t n;					/* ranges named */
	bool more;					/* and more past them */
	uint64_t unqueued;				/* records that could not be queued */
	uint64_t queue_from;				/* the first record queued now */
	uint64_t unkept;				/* the store's count of dropped ones, as last seen */
};

static void lost_range(struct file_lost *l, uint64_t from, uint64_t to)
{
	if (l->n && l->to[l->n - 1] == from)
		l->to[l->n - 1] = to;
	else if (l->n < LOST_RANGES)
		l->from[l->n] = from, l->to[l->n++] = to;
	else
		l->more = true;
}

/* record i of the file queued for the store: what could not be, or was
 * dropped for room, noted */
static void file_queue(struct reading *r, struct file_lost *l, uint64_t i, const struct ct_event *e)
{
	const struct ct_event_store_stats *st = ct_event_store_stats(r->store.s);
	uint64_t dropped;

	if (!st->queued)
		l->queue_from = i;
	ct_event_history_add(r->ctx, &r->store, e);
	if (r->store.add_rc) {
		lost_range(l, i, i + 1);
		l->unqueued++;
	}
	if ((dropped = st->unkept - l->unkept)) {	/* the oldest queued, gone for room */
		lost_range(l, l->queue_from, l->queue_from + dropped);
		l->queue_from += dropped;
		l->unkept = st->unkept;
	}
}

/* the records the store did not take, said by their places in the file */
static void say_file_lost(struct reading *r, const struct file_lost *l, uint64_t n, uint64_t lost, int rc)
{
	const struct ct_event_store_stats *st = ct_event_store_stats(r->store.s);
	char list[LOST_RANGES * 48] = "";
	size_t used = 0;

	for (size_t k = 0; k < l->n; k++)
		used += (size_t)(l->to[k] - l->from[k] > 1
			? snprintf(list + used, sizeof(list) - used, "%s%" PRIu64 "-%" PRIu64, k ? ", " : "", l->from[k],
				   l->to[k] - 1)
			: snprintf(list + used, sizeof(list) - used, "%s%" PRIu64, k ? ", " : "", l->from[k]));
	ct_say(&r->ctx->say, CT_SAY_ERROR, "%s: the store %s did not take %" PRIu64 " of its %" PRIu64 " records (%s): "
	       "records %s%s (by their place in the file, from 0); it took the %" PRIu64 " others, %" PRIu64 " of them "
	       "new: give the file again when the store takes records", r->o->file, r->store.path, lost, n,
	       rc == -EBUSY ? "another program holds its lock" : strerror(-rc), list, l->more ? " and more" : "",
	       n - lost, st->stored);
}

/* the file's run at its end: its last records written, or those the store
 * did not take said (the run is partial); the store closed, nothing held
 * for a later try */
static void file_stored(struct reading *r, struct file_lost *l, uint64_t n)
{
	struct ct_context *ctx = r->ctx;
	struct ct_event_store *s = r->store.s;
	const struct ct_event_store_stats *st = ct_event_store_stats(s);
	int rc = st->queued ? ct_event_store_flush(s, &ctx->err) : 0;
	uint64_t lost = st->queued + st->unkept + l->unqueued;

	if (!lost) {
		ct_say(&ctx->say, 0, "%s: %" PRIu64 " records, %" PRIu64 " of them new in the store %s", r->o->file, n,
		       st->stored, r->store.path);
	} else {
		if (st->queued)
			lost_range(l, l->queue_from, n);
		rc = rc ? rc : st->last_rc ? st->last_rc : r->store.add_rc ? r->store.add_rc : -EIO;
		say_file_lost(r, l, n, lost, rc);
		r->store.failed = true;
	}
	ct_event_store_close(s);	/* (what it holds is said lost: not tried again) */
	r->store.s = NULL;
}

/* a file's 128-byte records: into the store too when it is open (a batch
 * at a time), the filter's counted; then read again as rows */
static int read_file(struct reading *r)
{
	struct ct_context *ctx = r->ctx;
	const char *path = r->o->file;
	FILE *f = fopen(path, "rb");
	uint8_t rec[CT_EVENT_RECORD_LEN];
	static struct ct_event e;
	struct file_lost lost = { 0 };
	size_t n, i = 0;

	r->rep->end = CT_JOB_FAILED;
	if (!f) {
		int err = errno;
		ct_say(&ctx->say, CT_SAY_ERROR, "cannot open %s: %s", path, strerror(err));
		return -err;
	}
	while ((n = fread(rec, 1, sizeof(rec), f)) > 0) {
		if (n < sizeof(rec) || ct_event_decode(rec, n, &e)) {
			ct_say(&ctx->say, CT_SAY_ERROR, "%s: record %zu at byte %zu is not a 128-byte event record", path, i,
			       i * sizeof(rec));
			fclose(f);
			return -EINVAL;
		}
		if (r->store.s)
			file_queue(r, &lost, i, &e);
		r->matched += ct_event_filter_match(&r->o->filter, &e);
		i++;
	}
	fclose(f);
	if (r->store.s)
		file_stored(r, &lost, i);
	if (ct_event_rows_of_file(ctx, path, &r->o->filter, r->matched, &r->rep->rows)) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		return -EIO;
	}
	r->rep->nrows = r->matched;
	r->rep->end = r->store.failed ? CT_JOB_PARTIAL : CT_JOB_DONE;
	return 0;
}

static int stop_keeping(struct reading *r)
{
	struct ct_context *ctx = r->ctx;
	bool removed;
	int rc;

	if ((rc = ct_event_shared_remove(ctx, &removed))) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		r->rep->end = CT_JOB_FAILED;
		return rc;
	}
	if (removed)
		ct_say(&ctx->say, 0, "removed the '" CT_EVENT_SHARED_INSTANCE "' tracefs instance; events are no longer "
		       "kept");
	r->rep->end = CT_JOB_DONE;
	return 0;
}

static int on_retired(const struct ct_retirement *t, void *arg)
{
	struct reading *r = arg;
	struct ct_event_read_report *rep = r->rep;
	struct ct_retirement *more;

	if (!ct_event_filter_memdev(&r->o->filter, t->memdev))
		return 0;
	if (!(more = realloc(rep->retired, (rep->nretired + 1) * sizeof(*more))))
		return -ENOMEM;
	rep->retired = more;
	rep->retired[rep->nretired++] = *t;
	return 0;
}

/* what is shown of the store besides its records: the retirements (a
 * summary), its size */
static void store_report(struct reading *r)
{
	struct ct_event_read_report *rep = r->rep;
	struct ct_error err = { 0 };

	struct ct_event_store *s = r->store.s ? r->store.s : r->rows_store;

	if (!s)
		return;
	if (r->o->summary) {
		rep->have_retired = true;
		if (ct_retire_log_each(s, on_retired, r, &err)) {
			ct_say(&r->ctx->say, CT_SAY_WARNING, "%s", err.msg[0] ? err.msg : strerror(err.code));
			r->store.failed = true;
		}
	}
	rep->have_store = true;
	snprintf(rep->store_path, sizeof(rep->store_path), "%s", r->store.path);
	rep->have_totals = !ct_event_store_totals(s, &rep->records, &rep->pruned, NULL);
}

/* the store this run reads or writes: 0, or -errno when the configuration
 * cannot be read (said) */
static int open_store(struct reading *r)
{
	const struct ct_event_read_opts *o = r->o;
	bool writer = o->from == CT_EVENT_READ_FILE;
	int rc;

	if (o->from == CT_EVENT_READ_STOP || (writer && !o->store) || (o->from == CT_EVENT_READ_LIVE && o->no_store))
		return 0;
	if ((rc = ct_event_history_open(r->ctx, &r->store, o->config, o->store_path, writer))) {
		ct_say(&r->ctx->say, CT_SAY_ERROR, "%s", ct_context_message(r->ctx));
		r->rep->end = CT_JOB_BAD_INPUT;
		return rc;
	}
	if (r->store.failed && o->from == CT_EVENT_READ_LIVE)
		ct_say(&r->ctx->say, CT_SAY_WARNING, "the stored history is not shown: only what is live");
	if (writer && !r->store.s) {
		r->rep->end = CT_JOB_FAILED;	/* said: nothing to write into */
		return -EIO;
	}
	return 0;
}

int ct_event_read(struct ct_context *ctx, const struct ct_event_read_opts *o, struct ct_event_read_report *rep)
{
	struct reading r = { .ctx = ctx, .o = o, .rep = rep };
	int rc;

	memset(rep, 0, sizeof(*rep));
	if ((rc = open_store(&r)))
		return rc;
	switch (o->from) {
	case CT_EVENT_READ_LIVE: rc = read_live(&r); break;
	case CT_EVENT_READ_HISTORY: rc = read_history(&r); break;
	case CT_EVENT_READ_FILE: rc = read_file(&r); break;
	case CT_EVENT_READ_STOP: rc = stop_keeping(&r); break;
	}
	if (!rc && o->from != CT_EVENT_READ_FILE) {
		store_report(&r);
		if (o->summary && ct_event_summary_finish(&rep->summary))
			ct_say(&ctx->say, CT_SAY_ERROR, "out of memory");
	}
	ct_event_history_close(ctx, &r.store);
	return rc;
}

void ct_event_read_report_free(struct ct_event_read_report *rep)
{
	ct_event_rows_free(rep->rows);
	rep->rows = NULL;
	ct_event_summary_free(&rep->summary);
	free(rep->retired);
	rep->retired = NULL;
	rep->nretired = 0;
}
