// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-import.c - rasdaemon's history taken in as one job: see
 * event-import.h */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "jobs/event-history.h"
#include "jobs/event-import.h"

struct importing {
	struct ct_context *ctx;
	struct ct_event_history store;
	struct ct_event_import_report *rep;
	const struct ct_rasdaemon_table *tabs;	/* the reader's counts, by table */
	uint64_t stored, duplicates;	/* the store's, at the table's start */
};

static int on_record(const struct ct_event *e, const struct ct_rasdaemon_table *tab, void *arg)
{
	struct importing *im = arg;

	(void)tab;
	ct_event_history_add(im->ctx, &im->store, e);
	return 0;
}

/* a table read: what the store took of it */
static int on_table(const struct ct_rasdaemon_table *tab, void *arg)
{
	struct importing *im = arg;
	const struct ct_event_store_stats *st;
	struct ct_event_import_table *t = &im->rep->tables[tab - im->tabs];

	ct_event_history_flush(im->ctx, &im->store, true);
	st = ct_event_store_stats(im->store.s);
	t->t = *tab;
	t->stored = st->stored - im->stored;
	t->duplicates = st->duplicates - im->duplicates;
	im->stored = st->stored;
	im->duplicates = st->duplicates;
	return 0;
}

static void totals(struct ct_event_import_report *rep, const struct ct_rasdaemon_table *tabs)
{
	for (int i = 0; i < CT_RASDAEMON_TABLES; i++) {
		struct ct_event_import_table *t = &rep->tables[i];
		t->t = tabs[i];
		rep->rows += t->t.rows;
		rep->stored += t->stored;
		rep->duplicates += t->duplicates;
		rep->skipped += t->t.skipped;
	}
}

int ct_event_import(struct ct_context *ctx, const struct ct_event_import_opts *o, struct ct_event_import_report *rep)
{
	struct ct_rasdaemon_table tabs[CT_RASDAEMON_TABLES];
	struct importing im = { .ctx = ctx, .rep = rep, .tabs = tabs };
	int rc;

	memset(rep, 0, sizeof(*rep));
	snprintf(rep->path, sizeof(rep->path), "%s", o->path ? o->path : CT_RASDAEMON_DB);
	rep->end = CT_JOB_FAILED;
	if ((rc = ct_event_history_open(ctx, &im.store, o->config, o->store_path, true))) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		rep->end = CT_JOB_BAD_INPUT;
		return rc;
	}
	if (!im.store.s) {
		ct_event_history_close(ctx, &im.store);
		return -EIO;	/* said */
	}
	snprintf(rep->store_path, sizeof(rep->store_path), "%s", im.store.path);
	ct_rasdaemon_cor_mask_like(&ctx->sys);	/* (the records as this kernel gives them) */
	rc = ct_rasdaemon_read(rep->path, on_record, on_table, &im, tabs, &ctx->err);
	if (rc)
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
	totals(rep, tabs);
	ct_event_history_close(ctx, &im.store);
	if (rc)
		return rc;
	if (rep->skipped)
		ct_say(&ctx->say, CT_SAY_WARNING, "%" PRIu64 " rows of rasdaemon's database %s make no record (no "
		       "memdev, or a time that does not read): not taken in", rep->skipped, rep->path);
	ct_say(&ctx->say, 0, "%s: %" PRIu64 " CXL records of rasdaemon's, %" PRIu64 " of them new in the store %s",
	       rep->path, rep->rows - rep->skipped, rep->stored, rep->store_path);
	rep->end = im.store.failed || rep->skipped ? CT_JOB_PARTIAL : CT_JOB_DONE;
	return 0;
}
