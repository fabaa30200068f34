// SPDX-License-Identifier: LGPL-2.1-or-later
/* metrics-collect.c - what `metrics` exports, collected: see metrics-collect.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cxl/health-read.h"
#include "jobs/event-history.h"
#include "jobs/metrics-collect.h"

struct collecting {
	struct ct_context *ctx;
	struct ct_metrics_report *r;
	bool nomem;
};

static void collector(struct ct_metrics_report *r, const char *name, bool ok)
{
	if (r->ncollectors < sizeof(r->collectors) / sizeof(r->collectors[0]))
		r->collectors[r->ncollectors++] = (struct ct_metrics_collector){ name, ok };
	r->failed += !ok;
}

/* a collector that could not read: said, and counted against the run */
static void collector_failed(struct ct_context *ctx, struct ct_metrics_report *r, const char *name)
{
	ct_say(&ctx->say, CT_SAY_WARNING, "%s: %s", name, ct_context_message(ctx));
	ct_error_clear(&ctx->err);
	collector(r, name, false);
}

/* one more element of an array of n elements of size bytes: NULL when out of memory */
static void *append_slot(void *arr, size_t *n, size_t size)
{
	char *more = realloc(arr, (*n + 1) * size);

	if (!more)
		return NULL;
	memset(more + *n * size, 0, size);
	(*n)++;
	return more;
}

static void memory(struct ct_context *ctx, struct ct_metrics_report *r)
{
	if (!(r->have_topology = ct_topology_load(ctx, &r->topology) == 0)) {
		collector_failed(ctx, r, "topology");
		return;
	}
	collector(r, "topology", true);
	if (ct_mem_summary_load(ctx, &r->topology, &r->blocks) == 0) {
		r->have_blocks = true;
		collector(r, "memory_blocks", true);
	} else if (ctx->err.code == EOPNOTSUPP) {
		ct_say(&ctx->say, 1, "memory_blocks: %s", ct_context_message(ctx));
		ct_error_clear(&ctx->err);
	} else {
		collector_failed(ctx, r, "memory_blocks");
	}
	if (ct_tiers_load(&ctx->sys, &r->tiers) == 0) {
		r->have_tiers = true;
		collector(r, "tiers", true);
	} else {
		collector_failed(ctx, r, "tiers");
	}
}

/* Get Health Info of every memdev that answers it (live systems only) */
static int health(struct ct_context *ctx, struct ct_metrics_report *r)
{
	const struct ct_topology *t = &r->topology;
	unsigned tried = 0, bad = 0;

	for (size_t i = 0; i < t->nmemdevs; i++) {
		struct ct_health h;
		struct ct_alert_config a;
		bool have_alert;
		struct ct_metrics_health *more;
		int rc = ct_health_read(ctx, t->memdevs[i].name, &h, &a, &have_alert);

		if (rc == -EOPNOTSUPP) {
			ct_say(&ctx->say, 1, "health: %s: not supported by the device", t->memdevs[i].name);
			ct_error_clear(&ctx->err);
			continue;
		}
		tried++;
		if (rc) {
			ct_say(&ctx->say, CT_SAY_WARNING, "health: %s", ct_context_message(ctx));
			ct_error_clear(&ctx->err);
			bad++;
			continue;
		}
		if (!(more = append_slot(r->health, &r->nhealth, sizeof(*more))))
			return -ENOMEM;
		r->health = more;
		r->health[r->nhealth - 1] = (struct ct_metrics_health){ t->memdevs[i].name, h };
	}
	if (tried)
		collector(r, "health", !bad);
	return 0;
}

/* the AER counts of every memdev whose PCI device keeps them */
static int aer(struct ct_context *ctx, struct ct_metrics_report *r)
{
	const struct ct_topology *t = &r->topology;
	unsigned tried = 0, bad = 0;

	for (size_t i = 0; i < t->nmemdevs; i++) {
		struct ct_aer_stats st;
		struct ct_metrics_aer *more;
		int rc = ct_aer_stats_read(&ctx->sys, t->memdevs[i].name, &st);

		if (rc == -ENOENT) {
			ct_say(&ctx->say, 1, "aer: %s: its PCI device keeps no AER counts", t->memdevs[i].name);
			ct_error_clear(&ctx->err);
			continue;
		}
		tried++;
		if (rc) {
			ct_say(&ctx->say, CT_SAY_WARNING, "aer: %s", ct_context_message(ctx));
			ct_error_clear(&ctx->err);
			bad++;
			continue;
		}
		if (!(more = append_slot(r->aer, &r->naer, sizeof(*more)))) {
			ct_aer_stats_free(&st);
			return -ENOMEM;
		}
		r->aer = more;
		r->aer[r->naer - 1] = (struct ct_metrics_aer){ t->memdevs[i].name, st };
	}
	if (tried)
		collector(r, "aer", !bad);
	return 0;
}

static void on_count(const char *memdev, uint64_t serial, const char *kind, const char *severity, uint64_t n,
		     void *arg)
{
	struct collecting *c = arg;
	struct ct_metrics_report *r = c->r;
	struct ct_metrics_event_count *more = append_slot(r->counts, &r->ncounts, sizeof(*more)), *x;

	if (!more) {
		c->nomem = true;
		return;
	}
	r->counts = more;
	x = &r->counts[r->ncounts - 1];
	snprintf(x->memdev, sizeof(x->memdev), "%s", memdev);
	snprintf(x->kind, sizeof(x->kind), "%s", kind);
	snprintf(x->severity, sizeof(x->severity), "%s", severity);
	x->serial = serial;
	x->n = n;
}

static void on_retired(const char *memdev, uint64_t serial, enum ct_retire_action action, uint64_t n, void *arg)
{
	struct collecting *c = arg;
	struct ct_metrics_report *r = c->r;
	struct ct_metrics_retired *more;

	if (action == CT_RETIRE_ALREADY)	/* (found taken: not cxltier's doing) */
		return;
	if (!(more = append_slot(r->retired, &r->nretired, sizeof(*more)))) {
		c->nomem = true;
		return;
	}
	r->retired = more;
	snprintf(more[r->nretired - 1].memdev, sizeof(more->memdev), "%s", memdev);
	more[r->nretired - 1].serial = serial;
	more[r->nretired - 1].action = action;
	more[r->nretired - 1].n = n;
}

/* the event store's counters (none yet: nothing; an unreadable store: a
 * failed collector) */
static int events(struct ct_context *ctx, const struct ct_metrics_collect_opts *o, struct ct_metrics_report *r)
{
	struct collecting c = { ctx, r, false };
	struct ct_event_history h;
	int rc;

	if ((rc = ct_event_history_open(ctx, &h, o->config, o->store_path, false)) || !h.s) {
		if (rc)
			ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		if (rc || h.failed)
			collector(r, "events", false);
		return 0;
	}
	if (ct_event_store_counts(h.s, on_count, &c, &ctx->err) ||
	    ct_retire_log_counts(h.s, on_retired, &c, &ctx->err) ||
	    ct_event_store_totals(h.s, &r->store_records, &r->store_pruned, &ctx->err)) {
		collector_failed(ctx, r, "events");
	} else {
		r->have_store_totals = true;
		collector(r, "events", true);
	}
	ct_event_history_close(ctx, &h);
	return c.nomem ? -ENOMEM : 0;
}

int ct_metrics_collect(struct ct_context *ctx, const struct ct_metrics_collect_opts *o, struct ct_metrics_report *r)
{
	int rc = 0;

	memset(r, 0, sizeof(*r));
	memory(ctx, r);
	if (ctx->live && r->have_topology)
		rc = health(ctx, r);
	if (!rc && r->have_topology)
		rc = aer(ctx, r);
	/* the store of this machine (a captured tree has none, unless named) */
	if (!rc && (ctx->live || o->store_path))
		rc = events(ctx, o, r);
	return rc;
}

void ct_metrics_collect_free(struct ct_metrics_report *r)
{
	for (size_t i = 0; i < r->naer; i++)
		ct_aer_stats_free(&r->aer[i].st);
	free(r->aer);
	free(r->health);
	free(r->counts);
	free(r->retired);
	if (r->have_tiers)
		ct_tiers_free(&r->tiers);
	if (r->have_blocks)
		ct_mem_summary_free(&r->blocks);
	if (r->have_topology)
		ct_topology_free(&r->topology);
	memset(r, 0, sizeof(*r));
}
