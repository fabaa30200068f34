/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metrics-model.h - `cxltier metrics`: the figures a fleet watches
 * (lib/jobs/metrics-collect.h), as metric families built with the one JSON
 * builder
 *   {"families": [{"name", "type", "help", "samples": [{"labels": {}, "value"}]}]}
 * and printed as that JSON (-j) or as Prometheus text for node_exporter's
 * textfile collector (metrics-prom.h). The names are stable (cxltier_*);
 * docs/schema/metrics.json lists them and their labels.
 */
#ifndef CXLTIER_METRICS_MODEL_H
#define CXLTIER_METRICS_MODEL_H

#include <json-c/json.h>

struct ct_metrics_report;

/* every family that has samples, in the order printed, from what the job
 * collected (the caller owns the object) */
json_object *metrics_json(const struct ct_metrics_report *r);

#endif
