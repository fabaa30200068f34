/* SPDX-License-Identifier: GPL-2.0-only */
/* health-prometheus.h - `cxltier health --format prometheus`: the
 * node_exporter textfile format, in the families `cxltier metrics` writes
 * (cxltier_memdev_*, labelled by memdev), and whether each device answered */
#ifndef CXLTIER_HEALTH_PROMETHEUS_H
#define CXLTIER_HEALTH_PROMETHEUS_H

#include <json-c/json.h>

/* root: {"memdevs":[...]} as `health -j` has it */
void health_prometheus(json_object *root);

#endif
