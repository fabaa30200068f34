/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd-metrics.h - `cxltier metrics`: the figures a fleet watches, as metric
 * families built with the one JSON builder
 *   {"families": [{"name", "type", "help", "samples": [{"labels": {}, "value"}]}]}
 * and printed as that JSON (-j) or as Prometheus text for node_exporter's
 * textfile collector (metrics-prom.c). The names are stable (cxltier_*);
 * docs/schema/metrics.json lists them and their labels.
 */
#ifndef CXLTIER_CMD_METRICS_H
#define CXLTIER_CMD_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

struct ct_topology;
struct ct_mem_summary;
struct ct_tiers;
struct ct_health;
struct ct_aer_stats;

/* every family, in the order printed; those left without samples are dropped */
json_object *metrics_new(void);
void metrics_prune(json_object *root);
/* add value to the sample of the family with these labels (NULL-ended
 * name, value pairs; a NULL or empty value leaves the label out) */
void metrics_add(json_object *root, const char *family, int64_t value, ...) __attribute__((sentinel));

void metrics_topology(json_object *root, const struct ct_topology *t);
void metrics_nodes(json_object *root, const struct ct_mem_summary *s);
void metrics_tiers(json_object *root, const struct ct_tiers *tiers);
void metrics_health(json_object *root, const char *memdev, const struct ct_health *h);
void metrics_aer(json_object *root, const char *memdev, const struct ct_aer_stats *st);
/* one counter of the event store (lib/events/event-store.h); serial 0: none */
/* a count of the store's retirements (action: retired, failed, limited) */
void metrics_retired(json_object *root, const char *memdev, uint64_t serial, const char *action, uint64_t n);
void metrics_events(json_object *root, const char *memdev, uint64_t serial, const char *kind, const char *severity,
		    uint64_t n);
void metrics_collector(json_object *root, const char *collector, bool ok);

/* Prometheus text exposition format (0.0.4) */
void metrics_prom(FILE *f, json_object *root);

#endif
