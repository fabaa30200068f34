/* SPDX-License-Identifier: GPL-2.0-only */
/* metrics-prom.h - metric families (metrics-model.h) as Prometheus text */
#ifndef CXLTIER_METRICS_PROM_H
#define CXLTIER_METRICS_PROM_H

#include <stdio.h>
#include <json-c/json.h>

/* Prometheus text exposition format (0.0.4) */
void metrics_prom(FILE *f, json_object *root);

#endif
