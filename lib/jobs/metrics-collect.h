/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * metrics-collect.h - what `cxltier metrics` exports, collected in one job:
 * the topology, the memory blocks by node, the memory tiers, each memdev's
 * health (live systems) and AER counts, and the event store's counters and
 * retirements (jobs/event-history.h: the store of this machine, or the one
 * named). Each collector either reads what it reads or fails alone: a
 * failure is said through the context's sink and counted; one that does
 * not apply (health on a captured tree, a device without Get Health Info
 * or AER counts) is said at -v and not listed.
 */
#ifndef CXLTIER_METRICS_COLLECT_H
#define CXLTIER_METRICS_COLLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/context.h"
#include "cxl/aer-stats.h"
#include "cxl/health.h"
#include "cxl/topology.h"
#include "events/retire-log.h"
#include "mm/tiers.h"
#include "views/mem-summary.h"

struct ct_metrics_collect_opts {
	const char *store_path;	/* the event store; NULL: the configuration's, else the default (read on
				 * a live system only, unless named) */
	const char *config;	/* the configuration; NULL: /etc/cxltier.conf */
};

struct ct_metrics_health {
	const char *memdev;	/* the topology's */
	struct ct_health h;
};

struct ct_metrics_aer {
	const char *memdev;	/* the topology's */
	struct ct_aer_stats st;
};

struct ct_metrics_event_count {	/* a counter of the store: records of a memdev, kind and severity */
	char memdev[32];
	uint64_t serial;	/* 0: none */
	char kind[32], severity[32];
	uint64_t n;
};

struct ct_metrics_retired {	/* the store's retirements of a memdev of one action */
	char memdev[32];
	uint64_t serial;	/* 0: none */
	enum ct_retire_action action;
	uint64_t n;
};

struct ct_metrics_collector {	/* a collector that ran, in the order they ran */
	const char *name;	/* topology, memory_blocks, tiers, health, aer, events */
	bool ok;
};

struct ct_metrics_report {
	bool have_topology, have_blocks, have_tiers;
	struct ct_topology topology;
	struct ct_mem_summary blocks;
	struct ct_tiers tiers;
	struct ct_metrics_health *health;
	size_t nhealth;
	struct ct_metrics_aer *aer;
	size_t naer;
	struct ct_metrics_event_count *counts;	/* those read (all of them when the events collector is ok) */
	size_t ncounts;
	struct ct_metrics_retired *retired;
	size_t nretired;
	bool have_store_totals;
	uint64_t store_records, store_pruned;	/* rows in the store now, rows pruned ever */
	struct ct_metrics_collector collectors[6];
	size_t ncollectors;
	unsigned failed;			/* collectors that failed */
};

/* every collector run: 0 (each failure is in the report, said), or -ENOMEM */
int ct_metrics_collect(struct ct_context *ctx, const struct ct_metrics_collect_opts *o, struct ct_metrics_report *r);
void ct_metrics_collect_free(struct ct_metrics_report *r);

#endif
