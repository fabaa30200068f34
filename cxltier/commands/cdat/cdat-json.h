/* SPDX-License-Identifier: GPL-2.0-only */
/* cdat-json.h - how `cxltier cdat` shows a decoded CDAT table and the
 * kernel's view beside it as JSON */
#ifndef CXLTIER_CDAT_JSON_H
#define CXLTIER_CDAT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

struct cdat_table;
struct ct_memdev_view;

/* one table: header fields and "structures" (grouped by DSMAD handle), with
 * "raw" (hex) when asked */
json_object *cdat_table_json(const struct cdat_table *t, const uint8_t *buf, size_t len, bool raw);
/* "kernel": qos_class and region/node figures, added to a table object */
void cdat_kernel_json(json_object *tab, const struct ct_memdev_view *v);

#endif
