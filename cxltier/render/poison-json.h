/* SPDX-License-Identifier: GPL-2.0-only */
/* poison-json.h - poison ranges as JSON: each range as `poison -j` and
 * `list -vvv` ("media_errors") show it, and the poison lists of several
 * memdevs as `poison` and `poison inject|clear` show them:
 * {"poison":[...], "memdevs":[...]} (JSON) or a tree of memdevs and their
 * ranges (the table's rows) */
#ifndef CXLTIER_POISON_JSON_H
#define CXLTIER_POISON_JSON_H

#include <stdbool.h>
#include <json-c/json.h>
#include "events/poison.h"
#include "cxl/topology.h"

/* one poison range: memdev (when with_memdev), dpa, length, hpa, region,
 * region_offset (from t's regions when given), region_uuid, source, flags,
 * overflow_timestamp/overflow_time; trace_type unless it was a list read */
json_object *poison_record_json(const struct ct_poison_list *l, const struct ct_poison *p,
				const struct ct_topology *t, bool with_memdev);

/* the lists of one run */
struct poison_out {
	json_object *records;	/* "poison" */
	json_object *memdevs;	/* "memdevs" */
	json_object *rows;	/* the table's memdev rows */
};
void poison_out_init(struct poison_out *o);
void poison_out_free(struct poison_out *o);
/* a memdev's list (keep: which of its records to show; NULL all) */
void poison_out_add(struct poison_out *o, const struct ct_memdev *m, const struct ct_poison_list *l,
		    const struct ct_topology *t, bool (*keep)(const struct ct_poison *p, void *arg), void *arg);
/* a memdev whose list could not be read, and why */
void poison_out_failed(struct poison_out *o, const struct ct_memdev *m, const char *why, bool unsupported);

#endif
