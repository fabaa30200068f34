/* SPDX-License-Identifier: GPL-2.0-only */
/* cdat-json.h - how `cxltier cdat` shows a decoded CDAT table and the
 * kernel's view beside it: JSON objects and the table descriptions */
#ifndef CXLTIER_CDAT_JSON_H
#define CXLTIER_CDAT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include "cli/output.h"

struct cdat_table;
struct ct_memdev_view;

/* the structures, one row each under their device */
extern const struct out_table cdat_out_table;
/* the kernel's figures beside them */
extern const struct out_table cdat_kernel_out_table;

/* one table: header fields and "structures" (grouped by DSMAD handle), with
 * "raw" (hex) when asked */
json_object *cdat_table_json(const struct cdat_table *t, const uint8_t *buf, size_t len, bool raw);
/* "kernel": qos_class and region/node figures, added to a table object */
void cdat_kernel_json(json_object *tab, const struct ct_memdev_view *v);
/* the hex dump of a table's "raw" string, 16 bytes a line */
void cdat_print_hexdump(json_object *tab);

#endif
